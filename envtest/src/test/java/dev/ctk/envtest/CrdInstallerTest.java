package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CRDs installed into, updated on and removed from a real (shared, local) API server. */
class CrdInstallerTest {

  private KubernetesClient client;

  @BeforeEach
  void connect() {
    client = SharedLocalServer.get().newClient();
  }

  @AfterEach
  void removeTestCrds() {
    if (client == null) {
      return; // connect() aborted: no real API server (the test is skipped with the reason)
    }
    for (String name :
        new String[] {
          "widgets.ctk.example.com", "gadgets.ctk.example.com", "sprockets.ctk.example.com",
          "thingies.ctk.example.com", "doohickeys.ctk.example.com"
        }) {
      client.apiextensions().v1().customResourceDefinitions().withName(name).delete();
    }
    client.close();
  }

  @Test
  void installs_from_a_classpath_resource_and_a_folder_and_the_resources_are_usable_at_once() {
    try (CrdInstaller crds =
        CrdInstaller.builder(client)
            .withClasspathResources("crds/widget.yaml")
            .withPaths(resource("crd-folder"))
            .build()) {

      assertThat(crds.install())
          .containsExactly(
              "widgets.ctk.example.com", "sprockets.ctk.example.com", "gadgets.ctk.example.com");

      GenericKubernetesResource created =
          client
              .genericKubernetesResources(widgets())
              .inNamespace("default")
              .resource(widget("first", 3))
              .create();
      assertThat(created.getMetadata().getResourceVersion()).isNotBlank();
      assertThat(established("gadgets.ctk.example.com")).isTrue();
    }
  }

  @Test
  void an_existing_crd_of_the_same_name_is_updated(@TempDir Path dir) throws IOException {
    CrdInstaller.builder(client).withClasspathResources("crds/widget.yaml").build().install();
    Path v2 = dir.resolve("widget-v2.yaml");
    Files.writeString(
        v2,
        Files.readString(resource("crds/widget.yaml"))
            + "    - name: v2\n"
            + "      served: true\n"
            + "      storage: false\n"
            + "      schema:\n"
            + "        openAPIV3Schema:\n"
            + "          type: object\n"
            + "          x-kubernetes-preserve-unknown-fields: true\n");

    CrdInstaller.builder(client).withPaths(v2).build().install();

    CustomResourceDefinition updated =
        client.apiextensions().v1().customResourceDefinitions().withName("widgets.ctk.example.com").get();
    assertThat(updated.getSpec().getVersions()).extracting(v -> v.getName()).containsExactly("v1", "v2");
    assertThat(client.getApiResources("ctk.example.com/v2").getResources())
        .extracting(r -> r.getName())
        .contains("widgets");
  }

  @Test
  void uninstall_deletes_what_was_installed_with_its_resources_and_waits_until_gone() {
    CrdInstaller crds = CrdInstaller.builder(client).withClasspathResources("crds/widget.yaml").build();
    crds.install();
    client.genericKubernetesResources(widgets()).inNamespace("default").resource(widget("doomed", 1)).create();

    crds.uninstall();

    assertThat(client.apiextensions().v1().customResourceDefinitions().withName("widgets.ctk.example.com").get())
        .isNull();
    KubernetesClientException gone =
        catchThrowableOfType(
            KubernetesClientException.class,
            () -> client.genericKubernetesResources(widgets()).inNamespace("default").list());
    assertThat(gone.getCode()).isEqualTo(404);
  }

  @Test
  void uninstall_leaves_a_crd_that_existed_before_and_was_only_updated() {
    CrdInstaller.builder(client).withClasspathResources("crds/widget.yaml").build().install();
    client.genericKubernetesResources(widgets()).inNamespace("default").resource(widget("kept", 1)).create();
    CrdInstaller updating =
        CrdInstaller.builder(client)
            .withClasspathResources("crds/widget.yaml")
            .withPaths(resource("crd-folder/b-gadgets.yml"))
            .build();
    updating.install();

    updating.uninstall();

    assertThat(established("widgets.ctk.example.com")).isTrue();
    assertThat(client.genericKubernetesResources(widgets()).inNamespace("default").withName("kept").get())
        .isNotNull();
    assertThat(client.apiextensions().v1().customResourceDefinitions().withName("gadgets.ctk.example.com").get())
        .isNull();
  }

  @Test
  void close_uninstalls_only_when_asked() {
    try (CrdInstaller removed =
        CrdInstaller.builder(client)
            .withClasspathResources("crds/widget.yaml")
            .withUninstallOnClose(true)
            .build()) {
      removed.install();
    }
    assertThat(client.apiextensions().v1().customResourceDefinitions().withName("widgets.ctk.example.com").get())
        .isNull();

    try (CrdInstaller kept = CrdInstaller.builder(client).withClasspathResources("crds/widget.yaml").build()) {
      kept.install();
    }
    assertThat(established("widgets.ctk.example.com")).isTrue();
  }

  @Test
  void a_crd_whose_names_clash_with_another_fails_at_once_with_the_servers_reason(@TempDir Path dir)
      throws IOException {
    CrdInstaller.builder(client).withClasspathResources("crds/widget.yaml").build().install();
    Path clash = dir.resolve("thingies.yaml");
    Files.writeString(
        clash,
        "apiVersion: apiextensions.k8s.io/v1\n"
            + "kind: CustomResourceDefinition\n"
            + "metadata:\n"
            + "  name: thingies.ctk.example.com\n"
            + "spec:\n"
            + "  group: ctk.example.com\n"
            + "  scope: Namespaced\n"
            + "  names:\n"
            + "    plural: thingies\n"
            + "    singular: thingy\n"
            + "    kind: Widget\n"
            + "  versions:\n"
            + "    - name: v1\n"
            + "      served: true\n"
            + "      storage: true\n"
            + "      schema:\n"
            + "        openAPIV3Schema:\n"
            + "          type: object\n");

    EnvtestException failure =
        catchThrowableOfType(
            EnvtestException.class, () -> CrdInstaller.builder(client).withPaths(clash).build().install());

    assertThat(failure.getMessage())
        .isEqualTo(
            "CRD thingies.ctk.example.com from "
                + clash
                + ", document 1 was not accepted: NamesAccepted=False (ListKindConflict: \"WidgetList\" is"
                + " already in use). Another CRD already uses these names; change spec.names.");
  }

  @Test
  void a_crd_the_server_refuses_names_the_source_and_the_servers_reason(@TempDir Path dir)
      throws IOException {
    Path invalid = dir.resolve("doohickeys.yaml");
    Files.writeString(
        invalid,
        "apiVersion: apiextensions.k8s.io/v1\n"
            + "kind: CustomResourceDefinition\n"
            + "metadata:\n"
            + "  name: doohickeys.ctk.example.com\n"
            + "spec:\n"
            + "  group: ctk.example.com\n"
            + "  scope: Namespaced\n"
            + "  names:\n"
            + "    plural: doohickeys\n"
            + "    kind: Doohickey\n"
            + "  versions:\n"
            + "    - name: v1\n"
            + "      served: true\n"
            + "      storage: true\n");

    EnvtestException failure =
        catchThrowableOfType(
            EnvtestException.class, () -> CrdInstaller.builder(client).withPaths(invalid).build().install());

    // the server's own words: kube-apiserver 1.32 ends them with ": schemas are required", 1.37 does not
    assertThat(failure.getMessage())
        .matches(
            Pattern.quote("The API server refused CRD doohickeys.ctk.example.com from "
                + invalid
                + ", document 1: 422 Invalid: CustomResourceDefinition.apiextensions.k8s.io"
                + " \"doohickeys.ctk.example.com\" is invalid: spec.versions[0].schema.openAPIV3Schema:"
                + " Required value")
                + "(: schemas are required)?"
                + Pattern.quote(". Fix the CRD there."));
  }

  private boolean established(String name) {
    CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions().withName(name).get();
    return crd != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True"));
  }

  static ResourceDefinitionContext widgets() {
    return new ResourceDefinitionContext.Builder()
        .withGroup("ctk.example.com")
        .withVersion("v1")
        .withPlural("widgets")
        .withKind("Widget")
        .withNamespaced(true)
        .build();
  }

  static GenericKubernetesResource widget(String name, int size) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("ctk.example.com/v1")
        .withKind("Widget")
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToAdditionalProperties("spec", java.util.Map.of("size", size))
        .build();
  }

  static Path resource(String name) {
    try {
      return Path.of(Objects.requireNonNull(CrdInstallerTest.class.getClassLoader().getResource(name)).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
