package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.run;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.ExistingCluster;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Mode;
import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamedClusterBuilder;
import io.fabric8.kubernetes.api.model.NamedContextBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @ControllerTest(mode = EXISTING_CLUSTER)} against a cluster reached through a kubeconfig
 * file: here the shared envtest server of this machine, through a file written from its {@code
 * kubeconfig()}. A test gets a fresh namespace there, deleted after the test. The server is a bare
 * kube-apiserver while existing-cluster mode counts on a namespace controller, so the deleted
 * namespace may stay Terminating: the check is that it was deleted.
 */
class ExistingClusterModeTest {

  static final Map<String, String> SEEN = new ConcurrentHashMap<>();

  private ApiServer server;

  @TempDir
  Path folder;

  @BeforeEach
  void setUp() {
    SEEN.clear();
    server = RealServerFixtures.serverOrSkip(Mode.ENVTEST);
  }

  @Test
  void should_run_in_the_current_context_of_the_kubeconfig_of_ctk_kubeconfig() throws IOException {
    // GIVEN
    Path kubeconfig = Files.writeString(folder.resolve("kubeconfig"), server.kubeconfig());
    // WHEN
    var results = run(OnExistingCluster.class, "ctk.kubeconfig", kubeconfig.toString());
    // THEN
    assertAllPassed(results, 1);
    assertThat(SEEN).containsEntry("server",
        ExistingCluster.fromKubeconfig(kubeconfig, null).description());
    assertCreatedAndDeleted();
  }

  @Test
  void should_run_in_the_context_of_ctk_kube_context_rather_than_the_current_one()
      throws IOException {
    // GIVEN a kubeconfig whose current context points at a port nothing listens on
    KubernetesSerialization serialization = new KubernetesSerialization();
    Config config = serialization.unmarshal(server.kubeconfig(), Config.class);
    String context = config.getCurrentContext();
    config.getClusters().add(new NamedClusterBuilder().withName("nowhere").withNewCluster()
        .withServer("https://127.0.0.1:1").withInsecureSkipTlsVerify(true).endCluster().build());
    config.getContexts().add(new NamedContextBuilder().withName("nowhere").withNewContext()
        .withCluster("nowhere").withUser(config.getUsers().get(0).getName()).endContext()
        .build());
    config.setCurrentContext("nowhere");
    Path kubeconfig = Files.writeString(folder.resolve("kubeconfig"),
        serialization.asYaml(config));
    // WHEN
    var results = run(OnExistingCluster.class, "ctk.kubeconfig", kubeconfig.toString(),
        "ctk.kube-context", context);
    // THEN
    assertAllPassed(results, 1);
    assertThat(SEEN).containsEntry("server",
        ExistingCluster.fromKubeconfig(kubeconfig, context).description());
    assertThat(SEEN.get("server")).contains(server.url());
    assertCreatedAndDeleted();
  }

  @Test
  void should_take_ctk_kube_context_from_the_default_kubeconfig_when_ctk_kubeconfig_is_unset()
      throws IOException {
    // GIVEN ~/.kube/config (user.home moved to a temporary folder) with the server's context, not
    // marked current: the file has no current context at all
    assumeTrue(System.getenv("KUBECONFIG") == null,
        "KUBECONFIG is set on this machine and would be read before ~/.kube/config");
    KubernetesSerialization serialization = new KubernetesSerialization();
    Config config = serialization.unmarshal(server.kubeconfig(), Config.class);
    String context = config.getCurrentContext();
    config.setCurrentContext(null);
    Path kubeconfig = Files.createDirectories(folder.resolve(".kube")).resolve("config");
    Files.writeString(kubeconfig, serialization.asYaml(config));
    String home = System.getProperty("user.home");
    System.setProperty("user.home", folder.toString());
    try {
      // WHEN
      var results = run(OnExistingCluster.class, "ctk.kube-context", context);
      // THEN
      assertAllPassed(results, 1);
    } finally {
      System.setProperty("user.home", home);
    }
    assertThat(SEEN).containsEntry("server",
        ExistingCluster.fromKubeconfig(kubeconfig, context).description());
    assertCreatedAndDeleted();
  }

  /** The fixture's ConfigMap was in its namespace on this server, and the namespace is deleted. */
  private void assertCreatedAndDeleted() {
    String namespace = SEEN.get("namespace");
    assertThat(namespace).matches("ctk-test-in-onexistingcluster-[a-z0-9]{5}");
    assertThat(SEEN).containsEntry("configmap", namespace + "/web");
    try (KubernetesClient admin = server.newClient()) {
      await("namespace " + namespace + " to be deleted (gone, or Terminating on this bare server)")
          .atMost(ofSeconds(30)).until(() -> {
            Namespace current = admin.namespaces().withName(namespace).get();
            return current == null || current.getMetadata().getDeletionTimestamp() != null;
          });
    }
  }

  @Fixture
  @ControllerTest(mode = Mode.EXISTING_CLUSTER)
  static class OnExistingCluster {

    @Test
    void test(KubernetesClient client, ControllerHarness harness) {
      var created = client.configMaps().resource(new ConfigMapBuilder().withNewMetadata()
          .withName("web").endMetadata().build()).create();
      SEEN.put("configmap", created.getMetadata().getNamespace() + "/"
          + created.getMetadata().getName());
      SEEN.put("namespace", harness.namespace());
      SEEN.put("server", harness.serverDescription());
    }
  }
}
