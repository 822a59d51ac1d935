package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A namespace per test on a real API server without controllers, and its complete cleanup. */
class TestNamespacesTest {

  private ApiServer server;
  private KubernetesClient client;

  @BeforeEach
  void connect() {
    server = SharedLocalServer.get();
    client = server.newClient();
  }

  @AfterEach
  void disconnect() {
    if (client != null) { // null when connect() aborted: no real API server
      client.close();
    }
  }

  @Test
  void names_carry_the_sanitized_test_name_and_five_random_characters() {
    assertThat(TestNamespaces.nameFor("WidgetTest#creates_a_service()", new Random(7)))
        .matches("ctk-widgettest-creates-a-service-[a-z0-9]{5}");
    assertThat(
            TestNamespaces.nameFor(
                "AVeryLongTestClassName#and_an_even_longer_method_name_that_goes_on()", new Random(7)))
        .matches("ctk-averylongtestclassname-and-an-even-longe-[a-z0-9]{5}");
    assertThat(TestNamespaces.nameFor("a_name_whose_40th_character_is_a_dash_x_y", new Random(7)))
        .matches("ctk-a-name-whose-40th-character-is-a-dash-x-[a-z0-9]{5}");
    assertThat(TestNamespaces.nameFor("__()__", new Random(7))).matches("ctk-test-[a-z0-9]{5}");
    assertThat(TestNamespaces.nameFor("[1] Straße ✓", new Random(7))).matches("ctk-1-stra-e-[a-z0-9]{5}");
  }

  @Test
  void create_makes_a_labelled_namespace_named_after_the_test() {
    try (TestNamespaces namespaces = TestNamespaces.forServer(server)) {
      String name = namespaces.create("TestNamespacesTest#create()");

      Namespace namespace = client.namespaces().withName(name).get();
      assertThat(name).matches("ctk-testnamespacestest-create-[a-z0-9]{5}");
      assertThat(namespace.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "ctk");
      assertThat(namespace.getMetadata().getAnnotations())
          .containsEntry("ctk.dev/test", "TestNamespacesTest#create()");
    }
  }

  @Test
  void delete_without_controllers_empties_the_namespace_and_makes_it_disappear() {
    TestNamespaces namespaces = TestNamespaces.builder(client).withCleanupTimeout(Duration.ofSeconds(20)).build();
    String name = namespaces.create("full namespace");
    client.configMaps().inNamespace(name).resource(
        new ConfigMapBuilder().withNewMetadata().withName("with-finalizer")
            .addToFinalizers("ctk.dev/never-removed").endMetadata().build()).create();
    client.secrets().inNamespace(name).resource(
        new SecretBuilder().withNewMetadata().withName("plain").endMetadata().build()).create();
    client.pods().inNamespace(name).resource(
        new PodBuilder().withNewMetadata().withName("scheduled").endMetadata()
            .withNewSpec().withNodeName("no-such-node").addNewContainer().withName("c").withImage("busybox")
            .endContainer().endSpec().build()).create();

    namespaces.delete(name);

    assertThat(client.namespaces().withName(name).get()).isNull();
    assertThat(client.configMaps().inAnyNamespace().list().getItems())
        .noneMatch(c -> c.getMetadata().getNamespace().equals(name));
    assertThat(client.pods().inAnyNamespace().list().getItems())
        .noneMatch(p -> p.getMetadata().getNamespace().equals(name));
  }

  @Test
  void delete_empties_custom_resources_of_a_crd_installed_after_an_earlier_delete(@TempDir Path dir)
      throws IOException {
    TestNamespaces namespaces = TestNamespaces.builder(client).withCleanupTimeout(Duration.ofSeconds(20)).build();
    namespaces.delete(namespaces.create("before the crd"));
    Path crd = dir.resolve("gizmos.yaml");
    Files.writeString(
        crd,
        "apiVersion: apiextensions.k8s.io/v1\n"
            + "kind: CustomResourceDefinition\n"
            + "metadata:\n"
            + "  name: gizmos.ctk-namespaces.example.com\n"
            + "spec:\n"
            + "  group: ctk-namespaces.example.com\n"
            + "  scope: Namespaced\n"
            + "  names:\n"
            + "    plural: gizmos\n"
            + "    kind: Gizmo\n"
            + "  versions:\n"
            + "    - name: v1\n"
            + "      served: true\n"
            + "      storage: true\n"
            + "      schema:\n"
            + "        openAPIV3Schema:\n"
            + "          type: object\n"
            + "          x-kubernetes-preserve-unknown-fields: true\n");
    ResourceDefinitionContext gizmos =
        new ResourceDefinitionContext.Builder()
            .withGroup("ctk-namespaces.example.com")
            .withVersion("v1")
            .withPlural("gizmos")
            .withKind("Gizmo")
            .withNamespaced(true)
            .build();
    try (CrdInstaller crds = CrdInstaller.builder(client).withPaths(crd).withUninstallOnClose(true).build()) {
      crds.install();
      String name = namespaces.create("after the crd");
      client.genericKubernetesResources(gizmos).inNamespace(name).resource(
          new GenericKubernetesResourceBuilder().withApiVersion("ctk-namespaces.example.com/v1").withKind("Gizmo")
              .withNewMetadata().withName("left-behind").endMetadata().build()).create();

      namespaces.delete(name);

      assertThat(client.namespaces().withName(name).get()).isNull();
      assertThat(client.genericKubernetesResources(gizmos).inAnyNamespace().list().getItems())
          .as("gizmos left in the deleted namespace %s", name)
          .noneMatch(g -> g.getMetadata().getNamespace().equals(name));
    }
  }

  @Test
  void close_deletes_every_namespace_not_yet_deleted() {
    TestNamespaces namespaces = TestNamespaces.forServer(server);
    String first = namespaces.create("first");
    String second = namespaces.create("second");
    namespaces.delete(first);

    namespaces.close();

    assertThat(client.namespaces().withName(first).get()).isNull();
    assertThat(client.namespaces().withName(second).get()).isNull();
  }

  @Test
  void with_cluster_controllers_delete_leaves_the_emptying_to_the_namespace_controller() {
    TestNamespaces namespaces = TestNamespaces.builder(client).withClusterControllers(true).build();
    String name = namespaces.create("controllers");

    namespaces.delete(name);

    Namespace terminating = client.namespaces().withName(name).get();
    assertThat(terminating.getStatus().getPhase()).isEqualTo("Terminating");
    TestNamespaces.builder(client).build().delete(name);
    assertThat(client.namespaces().withName(name).get()).isNull();
  }

  @Test
  void cleanup_never_throws_even_when_the_server_is_gone() {
    Config nowhere =
        new ConfigBuilder(server.clientConfig())
            .withMasterUrl("https://127.0.0.1:1")
            .withRequestRetryBackoffLimit(0)
            .withConnectionTimeout(500)
            .build();
    try (KubernetesClient unreachable = new KubernetesClientBuilder().withConfig(nowhere).build()) {
      TestNamespaces namespaces = TestNamespaces.builder(unreachable).build();

      assertThatCode(() -> namespaces.delete("ctk-never-created-abcde")).doesNotThrowAnyException();
    }
  }

  @Test
  void create_fails_with_the_servers_reason_and_the_fix() {
    Config nowhere =
        new ConfigBuilder(server.clientConfig())
            .withMasterUrl("https://127.0.0.1:1")
            .withRequestRetryBackoffLimit(0)
            .withConnectionTimeout(500)
            .build();
    try (KubernetesClient unreachable = new KubernetesClientBuilder().withConfig(nowhere).build()) {
      EnvtestException failure =
          catchThrowableOfType(
              EnvtestException.class, () -> TestNamespaces.builder(unreachable).build().create("x"));

      assertThat(failure.getMessage())
          .matches(
              "Could not create a namespace for test \"x\" at https://127\\.0\\.0\\.1:1/: .*Connection refused.*\\."
                  + " The identity needs permission to create namespaces \\(cluster-admin on an existing"
                  + " cluster\\)\\.");
    }
  }

  @Test
  void builder_misuse_fails_at_once() {
    TestNamespaces.Builder builder = TestNamespaces.builder(client);
    builder.build();

    assertThat(catchThrowableOfType(IllegalStateException.class, builder::build))
        .hasMessage(
            "build() was already called on this builder; start a new one with TestNamespaces.builder(client).");
    assertThat(
            catchThrowableOfType(
                IllegalArgumentException.class,
                () -> TestNamespaces.builder(client).withCleanupTimeout(Duration.ZERO)))
        .hasMessage("withCleanupTimeout: a positive duration is required, got PT0S");
  }
}
