package dev.ctk.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.examples.docs.DocsCheck.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snippet and link checker of {@link DocsSnippetsTest}, on small repositories made in a temporary folder. */
class DocsCheckTest {

  @TempDir
  Path root;

  @BeforeEach
  void a_source_file_with_regions() throws IOException {
    write("src/Example.java", """
        class Example {
          void run() {
            // region:body
            int a = 1;
            // region:inner
            int b = 2;
            // endregion:inner

            System.out.println(a + b);
            // endregion:body
          }
        }
        """);
    write("app.properties", """
        # region:levels
        a.level=debug
        # endregion:levels
        b.level=info
        """);
    write("pom.xml", """
        <project>
          <!-- region:deps -->
          <dependencies/>
          <!-- endregion:deps -->
        </project>
        """);
  }

  @Test
  void should_pass_when_each_block_is_its_region_dedented_without_marker_lines_in_java_xml_and_properties() throws IOException {
    // GIVEN
    write("README.md", """
        # Title

        <!-- snippet: src/Example.java#body -->
        ```java
        int a = 1;
        int b = 2;

        System.out.println(a + b);
        ```

        <!-- snippet: pom.xml#deps -->
        ```xml
        <dependencies/>
        ```

        <!-- snippet: pom.xml -->
        ```xml
        <project>
          <dependencies/>
        </project>
        ```

        <!-- snippet: app.properties#levels -->
        ```properties
        a.level=debug
        ```

        ```bash
        ./mvnw -B verify
        ```
        """);
    // WHEN
    List<Problem> problems = new DocsCheck(root).checkAll();
    // THEN
    assertThat(problems).isEmpty();
  }

  @Test
  void should_fail_with_the_differing_lines_when_a_block_drifted() throws IOException {
    // GIVEN
    write("README.md", """
        # Title

        <!-- snippet: src/Example.java#body -->
        ```java
        int a = 1;
        int b = 3;

        System.out.println(a + b);
        ```
        """);
    // WHEN
    List<Problem> problems = new DocsCheck(root).checkAll();
    // THEN
    assertThat(problems).extracting(Problem::message).containsExactly(String.join("\n",
        "README.md:5: the block differs from src/Example.java#body (lines 4-9 of that file). Copy the region into"
            + " the block: the source is the truth. Differences (- src/Example.java, + README.md):",
        "  + README.md:6: \"int b = 3;\"",
        "  - src/Example.java:6: \"int b = 2;\""));
  }

  @Test
  void should_fail_when_the_file_or_the_region_is_missing() throws IOException {
    // GIVEN
    write("docs/page.md", """
        <!-- snippet: src/Missing.java -->
        ```java
        class Missing {}
        ```
        <!-- snippet: src/Example.java#nope -->
        ```java
        class Nope {}
        ```
        <!-- snippet: src/Example.java#body -->
        text, not a block
        """);
    // WHEN
    List<Problem> problems = new DocsCheck(root).checkAll();
    // THEN
    assertThat(problems).extracting(Problem::message).containsExactly(
        "docs/page.md:1: the snippet cites src/Missing.java, but src/Missing.java does not exist. Give a path"
            + " relative to the repository root.",
        "docs/page.md:5: the snippet cites src/Example.java#nope, but that file has no region:nope. Mark it with"
            + " // region:nope ... // endregion:nope (Java), <!-- region:nope --> ... <!-- endregion:nope --> (XML)"
            + " or # region:nope ... # endregion:nope (properties, YAML).",
        "docs/page.md:9: the snippet marker for src/Example.java#body is not directly followed by a fenced code"
            + " block. Put the ``` line right under it.");
  }

  @Test
  void should_fail_for_a_java_block_without_a_marker_and_a_block_without_a_language() throws IOException {
    // GIVEN
    write("README.md", """
        ```java
        class Free {}
        ```

        ```
        plain
        ```

        ```text
        Expecting controller "x"
        ```
        """);
    // WHEN
    List<Problem> problems = new DocsCheck(root).checkAll();
    // THEN
    assertThat(problems).extracting(Problem::message).containsExactly(
        "README.md:1: a fenced java block without a snippet marker. Quote a region of a compiled, tested file:"
            + " put <!-- snippet: <repo-relative path>#<region> --> on the line above it.",
        "README.md:5: a fenced block in no language. Use one of java, xml, yaml, yml, properties (with a snippet"
            + " marker) or bash, shell, sh, text, console.");
  }

  @Test
  void should_resolve_files_folders_and_github_anchors_and_fail_on_the_rest() throws IOException {
    // GIVEN
    write("docs/guide.md", """
        # Guide

        ## Fault injection, virtual time and `convergence` checks

        ## Seeing logs

        ## Seeing logs

        ```bash
        # not a heading
        ```
        """);
    write("README.md", """
        See [the guide](docs/guide.md), [faults](docs/guide.md#fault-injection-virtual-time-and-convergence-checks),
        [logs again](docs/guide.md#seeing-logs-1), [the code](src/Example.java), [src](src),
        [top](#readme-title), [web](https://example.com/x#y) and `[not a link](nowhere.md)`.

        # README title

        Broken: [gone](docs/gone.md), [no anchor](docs/guide.md#not-a-heading), [comment](docs/guide.md#not-a-heading-1).
        [ref]: docs/missing.md
        """);
    // WHEN
    List<Problem> problems = new DocsCheck(root).checkAll();
    // THEN
    String anchors = "guide, fault-injection-virtual-time-and-convergence-checks, seeing-logs, seeing-logs-1";
    assertThat(problems).extracting(Problem::message).containsExactly(
        "README.md:7: the link docs/gone.md points to docs/gone.md, which does not exist.",
        "README.md:7: the link docs/guide.md#not-a-heading points to #not-a-heading, which is no heading of"
            + " docs/guide.md. Its anchors: " + anchors + ".",
        "README.md:7: the link docs/guide.md#not-a-heading-1 points to #not-a-heading-1, which is no heading of"
            + " docs/guide.md. Its anchors: " + anchors + ".",
        "README.md:8: the link docs/missing.md points to docs/missing.md, which does not exist.");
  }

  @Test
  void slugs_follow_github() {
    assertThat(DocsCheck.slug("Other frameworks: Java Operator SDK, the Kubernetes Java client, hand-written loops"))
        .isEqualTo("other-frameworks-java-operator-sdk-the-kubernetes-java-client-hand-written-loops");
    assertThat(DocsCheck.slug("`existing_cluster` mode, [envtest](envtest.md)"))
        .isEqualTo("existing_cluster-mode-envtest");
    assertThat(DocsCheck.slug("Cannot seed the fake cluster: ... \"x.yaml\" not found"))
        .isEqualTo("cannot-seed-the-fake-cluster--xyaml-not-found");
  }

  private void write(String path, String text) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
