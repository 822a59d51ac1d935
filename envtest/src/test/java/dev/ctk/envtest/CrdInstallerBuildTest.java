package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CRD sources are read and checked by build(), before any server is touched (none is here). */
class CrdInstallerBuildTest {

  private static final String WIDGET =
      "apiVersion: apiextensions.k8s.io/v1\n"
          + "kind: CustomResourceDefinition\n"
          + "metadata:\n"
          + "  name: widgets.ctk.example.com\n"
          + "spec:\n"
          + "  group: ctk.example.com\n"
          + "  scope: Namespaced\n"
          + "  names: {plural: widgets, singular: widget, kind: Widget}\n"
          + "  versions:\n"
          + "    - name: v1\n"
          + "      served: true\n"
          + "      storage: true\n"
          + "      schema: {openAPIV3Schema: {type: object}}\n";

  @TempDir Path dir;

  private final KubernetesClient nowhere =
      new KubernetesClientBuilder().withConfig(Config.empty()).build();

  @AfterEach
  void close() {
    nowhere.close();
  }

  @Test
  void reads_multi_document_yaml_json_lists_and_folders_in_order() throws IOException {
    Path folder = Files.createDirectories(dir.resolve("crds"));
    Files.writeString(
        folder.resolve("b.yaml"),
        "---\n" + WIDGET.replace("widget", "bolt") + "---\n# only a comment\n---\n" + WIDGET.replace("widget", "nut"));
    Files.writeString(folder.resolve("a.json"), "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[]}");
    Files.writeString(folder.resolve("c.txt"), "ignored");
    Files.createDirectories(folder.resolve("sub"));
    Files.writeString(folder.resolve("sub/d.yaml"), "ignored: true");

    CrdInstaller crds =
        CrdInstaller.builder(nowhere)
            .withPaths(folder)
            .withSources("classpath:crds/widget.yaml", CrdInstallerTest.resource("crd-folder").toString())
            .build();

    assertThat(crds.names())
        .containsExactly(
            "bolts.ctk.example.com",
            "nuts.ctk.example.com",
            "widgets.ctk.example.com",
            "sprockets.ctk.example.com",
            "gadgets.ctk.example.com");
    assertThat(crds).hasToString("CrdInstaller" + crds.names());
  }

  @Test
  void a_yaml_typo_names_the_file_the_document_and_the_position() throws IOException {
    Path file = dir.resolve("typo.yaml");
    Files.writeString(file, WIDGET + "---\n" + WIDGET.replace("  scope: Namespaced\n", "  scope: Namespaced\n   names: x\n"));

    EnvtestException failure =
        catchThrowableOfType(EnvtestException.class, () -> CrdInstaller.builder(nowhere).withPaths(file).build());

    assertThat(failure)
        .hasMessage(
            "Cannot install CRDs: " + file + ", document 2 is not valid YAML (line 22, column 9): mapping"
                + " values are not allowed here. Fix the YAML there (kubectl apply --dry-run=client -f reports"
                + " the same problem).");
  }

  @Test
  void an_object_that_is_not_a_v1_crd_is_refused_with_its_kind() throws IOException {
    Path file = dir.resolve("mixed.yaml");
    Files.writeString(
        file, WIDGET + "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n");

    EnvtestException failure =
        catchThrowableOfType(EnvtestException.class, () -> CrdInstaller.builder(nowhere).withPaths(file).build());

    assertThat(failure)
        .hasMessage(
            "Cannot install CRDs: " + file + ", document 2 is kind Deployment (apiVersion apps/v1), not an"
                + " apiextensions.k8s.io/v1 CustomResourceDefinition. Only CRDs are installed this way; create"
                + " other objects in the test itself.");
  }

  @Test
  void a_v1beta1_crd_is_refused_with_the_way_to_convert_it() throws IOException {
    Path file = dir.resolve("old.yaml");
    Files.writeString(
        file,
        "apiVersion: v1\nkind: List\nitems:\n- " + WIDGET.replace("\n", "\n  ").replace("/v1\n", "/v1beta1\n").strip() + "\n");

    EnvtestException failure =
        catchThrowableOfType(EnvtestException.class, () -> CrdInstaller.builder(nowhere).withPaths(file).build());

    assertThat(failure)
        .hasMessage(
            "Cannot install CRDs: " + file + ", document 1 item 1 is an apiextensions.k8s.io/v1beta1"
                + " CustomResourceDefinition; only apiextensions.k8s.io/v1 is accepted (v1beta1 was removed in"
                + " Kubernetes 1.22). Convert it to v1: spec.versions[*].schema.openAPIV3Schema instead of"
                + " spec.validation, and a structural schema.");
  }

  @Test
  void a_crd_without_a_name_and_a_document_that_is_no_object_are_refused() throws IOException {
    Path unnamed = dir.resolve("unnamed.yaml");
    Files.writeString(unnamed, WIDGET.replace("  name: widgets.ctk.example.com\n", "  labels: {a: b}\n"));
    Path scalar = dir.resolve("scalar.yaml");
    Files.writeString(scalar, WIDGET + "---\njust a string\n");

    assertThat(catchThrowableOfType(EnvtestException.class, () -> CrdInstaller.builder(nowhere).withPaths(unnamed).build()))
        .hasMessage(
            "Cannot install CRDs: " + unnamed + ", document 1 has no metadata.name. A CRD is named"
                + " <plural>.<group>, e.g. widgets.example.com.");
    assertThat(catchThrowableOfType(EnvtestException.class, () -> CrdInstaller.builder(nowhere).withPaths(scalar).build()))
        .hasMessage(
            "Cannot install CRDs: " + scalar + ", document 2 is a YAML string, not a Kubernetes object. Every"
                + " document must be an apiextensions.k8s.io/v1 CustomResourceDefinition.");
  }

  @Test
  void a_field_of_the_wrong_type_is_named() throws IOException {
    Path file = dir.resolve("wrong.yaml");
    Files.writeString(file, WIDGET.replace("served: true", "served: [yes]"));

    EnvtestException failure =
        catchThrowableOfType(EnvtestException.class, () -> CrdInstaller.builder(nowhere).withPaths(file).build());

    assertThat(failure.getMessage())
        .isEqualTo(
            "Cannot install CRDs: " + file + ", document 1 (CRD widgets.ctk.example.com) does not fit the"
                + " CustomResourceDefinition schema: Cannot deserialize value of type `java.lang.Boolean` from"
                + " Array value (token `JsonToken.START_ARRAY`)  at [Source: UNKNOWN; byte offset: #UNKNOWN]"
                + " (through reference chain: io.fabric8.kubernetes.api.model.apiextensions.v1"
                + ".CustomResourceDefinition[\"spec\"]->io.fabric8.kubernetes.api.model.apiextensions.v1"
                + ".CustomResourceDefinitionSpec[\"versions\"]->java.util.ArrayList[0]->io.fabric8.kubernetes"
                + ".api.model.apiextensions.v1.CustomResourceDefinitionVersion[\"served\"]). Fix the field named"
                + " there.");
  }

  @Test
  void missing_sources_fail_at_build() {
    Path missing = dir.resolve("nope.yaml");

    assertThat(catchThrowableOfType(EnvtestException.class, () -> CrdInstaller.builder(nowhere).withPaths(missing).build()))
        .hasMessage(
            "Cannot install CRDs: " + missing + " does not exist. Check the path (relative paths resolve"
                + " against the working directory " + Path.of("").toAbsolutePath() + "), or use"
                + " classpath:<resource> for files on the classpath.");
    assertThat(
            catchThrowableOfType(
                EnvtestException.class,
                () -> CrdInstaller.builder(nowhere).withClasspathResources("crds/nope.yaml").build()))
        .hasMessage(
            "Cannot install CRDs: classpath resource \"crds/nope.yaml\" not found (looked in the thread"
                + " context class loader and ctk's class loader). Put the file under"
                + " src/test/resources/crds/nope.yaml, or pass a file path instead.");
    assertThat(catchThrowableOfType(EnvtestException.class, () -> CrdInstaller.builder(nowhere).withPaths(dir).build()))
        .hasMessage(
            "Cannot install CRDs: folder " + dir + " holds no .yaml, .yml or .json file (sub-folders are not"
                + " searched). Point at the folder that holds the CRD files, or at the files themselves.");
  }

  @Test
  void the_same_crd_twice_is_refused() throws IOException {
    Path copy = Files.writeString(dir.resolve("copy.yaml"), WIDGET);

    assertThat(
            catchThrowableOfType(
                EnvtestException.class,
                () ->
                    CrdInstaller.builder(nowhere)
                        .withClasspathResources("crds/widget.yaml")
                        .withPaths(copy)
                        .build()))
        .hasMessage(
            "Cannot install CRDs: CRD widgets.ctk.example.com is defined twice, in classpath resource"
                + " \"crds/widget.yaml\", document 1 and in " + copy + ", document 1. Keep one of them.");
  }

  @Test
  void builder_misuse_fails_at_once() {
    assertThat(catchThrowableOfType(IllegalStateException.class, () -> CrdInstaller.builder(nowhere).build()))
        .hasMessage(
            "CrdInstaller has no CRDs: add files or folders with withPaths(..), classpath resources with"
                + " withClasspathResources(..), or withSources(..).");
    CrdInstaller.Builder builder = CrdInstaller.builder(nowhere).withClasspathResources("crds/widget.yaml");
    builder.build();
    assertThat(catchThrowableOfType(IllegalStateException.class, builder::build))
        .hasMessage(
            "build() was already called on this builder; start a new one with CrdInstaller.builder(client).");
  }
}
