package dev.ctk.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.examples.docs.DocsCheck.Kind;
import dev.ctk.examples.docs.DocsCheck.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The README and the pages under {@code docs/} quote only compiled, tested code, and link only to what exists.
 * Every {@code java}, {@code xml}, {@code yaml} or {@code properties} block of README.md and docs/*.md carries a
 * {@code <!-- snippet: path#region -->} marker and equals that region of that file (see {@link DocsCheck}); the
 * files it quotes are examples and tests of this module, which CI compiles and runs, and the consumer project
 * that Maven Invoker builds. A failure names the markdown file and line and shows the differing lines.
 */
class DocsSnippetsTest {

  /** The README is a front page (about 300 lines); detail goes to a page under docs/, linked from its map. */
  static final int README_MAX_LINES = 320;

  private static Path root;
  private static List<Problem> problems;

  @BeforeAll
  static void check_the_docs() {
    root = repositoryRoot();
    problems = new DocsCheck(root).checkAll();
  }

  @Test
  void every_snippet_equals_the_region_it_cites() {
    assertNone(Kind.SNIPPET, "snippets that are not their region");
  }

  @Test
  void every_java_xml_yaml_or_properties_block_is_a_snippet() {
    assertNone(Kind.BLOCK, "fenced blocks that are not snippets");
  }

  @Test
  void every_relative_link_points_to_a_file_and_anchor_that_exist() {
    assertNone(Kind.LINK, "broken links");
  }

  @Test
  void the_readme_is_a_front_page_that_links_every_docs_page() throws IOException {
    List<String> readme = Files.readAllLines(root.resolve("README.md"), StandardCharsets.UTF_8);
    assertThat(readme.size())
        .as("README.md has %d lines; it is a front page of about 300. Move detail to a page under docs/ and link it"
            + " from the README's map of features.", readme.size())
        .isLessThanOrEqualTo(README_MAX_LINES);
    String text = String.join("\n", readme);
    List<String> unlinked = new DocsCheck(root).markdownFiles().stream()
        .map(p -> root.relativize(p).toString().replace('\\', '/'))
        .filter(p -> p.startsWith("docs/"))
        .filter(p -> !text.contains("(" + p + ")") && !text.contains("(" + p + "#"))
        .toList();
    assertThat(unlinked).as("docs pages the README does not link to (add them to its map of features)").isEmpty();
  }

  private static void assertNone(Kind kind, String what) {
    List<Problem> found = problems.stream().filter(p -> p.kind() == kind).toList();
    if (!found.isEmpty()) {
      throw new AssertionError(found.size() + " " + what + " in README.md and docs/*.md (repository "
          + root + "):\n" + found.stream().map(Problem::message).collect(Collectors.joining("\n")));
    }
  }

  /** The repository root: the first folder from the working directory upwards that holds README.md and examples/. */
  static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    for (Path p = dir; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("examples"))) {
        return p;
      }
    }
    throw new AssertionError("No repository root (a folder with README.md and examples/) at or above " + dir
        + ". Run this test from the examples module (Maven does) or from the repository root.");
  }
}
