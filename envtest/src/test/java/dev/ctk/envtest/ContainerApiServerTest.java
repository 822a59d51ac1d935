package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.envtest.internal.ContainerDocker;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/** A real kube-apiserver + etcd in containers, from the image built locally from envtest binaries. */
class ContainerApiServerTest {

  private static ContainerApiServer server;
  private static String serverId;

  @BeforeAll
  static void startServer() {
    server = ContainerTestEnvironment.localImage().build().start();
    Matcher id = Pattern.compile("ctk-envtest-([0-9a-f]{8})-kube-apiserver").matcher(server.description());
    assertThat(id.find()).as("server id in %s", server.description()).isTrue();
    serverId = id.group(1);
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void stores_a_config_map_through_newClient() {
    try (KubernetesClient client = server.newClient()) {
      client.configMaps().inNamespace("default").resource(configMap("from-container")).create();

      assertThat(client.configMaps().inNamespace("default").withName("from-container").get().getData())
          .containsEntry("key", "value");
    }
  }

  @Test
  void reports_the_version_of_the_binaries_and_a_bare_api_server() {
    String version = "v" + ContainerTestEnvironment.requireAssets().version();

    assertThat(server.version()).isEqualTo(version);
    assertThat(server.runsClusterControllers()).isFalse();
    assertThat(server.url()).matches("https://localhost:\\d+");
    assertThat(server.description())
        .isEqualTo("kube-apiserver " + version + " in container ctk-envtest-" + serverId + "-kube-apiserver"
            + " (image " + localImageTag() + ", etcd image " + localImageTag() + ") at " + server.url());
  }

  @Test
  void crds_and_test_namespaces_work_on_the_container() {
    try (KubernetesClient client = server.newClient();
        CrdInstaller crds =
            CrdInstaller.builder(client)
                .withClasspathResources("crds/widget.yaml")
                .withUninstallOnClose(true)
                .build();
        TestNamespaces namespaces = TestNamespaces.forServer(server)) {
      crds.install();
      String namespace = namespaces.create("ContainerApiServerTest#crds()");
      client
          .genericKubernetesResources(CrdInstallerTest.widgets())
          .inNamespace(namespace)
          .resource(CrdInstallerTest.widget("in-a-container", 2))
          .create();

      namespaces.delete(namespace);

      assertThat(client.namespaces().withName(namespace).get()).isNull();
    }
  }

  @Test
  void the_client_verifies_the_server_certificate() {
    Config config = server.clientConfig();

    assertThat(config.isTrustCerts()).isFalse();
    assertThat(config.getCaCertData()).isNotBlank();
  }

  @Test
  void kubeconfig_reaches_the_server_as_admin() {
    try (KubernetesClient client =
        new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(server.kubeconfig())).build()) {
      assertThat(client.namespaces().withName("kube-system").get()).isNotNull();
    }
  }

  @Test
  void runs_two_labelled_containers_on_one_labelled_network() {
    ContainerDocker docker = ContainerDocker.connect();

    assertThat(docker.containersLabelled(ContainerDocker.SERVER_LABEL, serverId))
        .containsExactlyInAnyOrder(
            "ctk-envtest-" + serverId + "-etcd", "ctk-envtest-" + serverId + "-kube-apiserver");
    assertThat(docker.networksLabelled(ContainerDocker.SERVER_LABEL, serverId))
        .containsExactly("ctk-envtest-" + serverId);
  }

  @Test
  void every_container_and_the_network_carry_the_labels_testcontainers_cleans_up_by() {
    Map<String, String> cleanupFilter = new HashMap<>(DockerClientFactory.DEFAULT_LABELS);
    cleanupFilter.put(DockerClientFactory.TESTCONTAINERS_SESSION_ID_LABEL, DockerClientFactory.SESSION_ID);
    cleanupFilter.put(ContainerDocker.SERVER_LABEL, serverId);
    ContainerDocker docker = ContainerDocker.connect();

    assertThat(docker.containersLabelled(cleanupFilter))
        .containsExactlyInAnyOrder(
            "ctk-envtest-" + serverId + "-etcd", "ctk-envtest-" + serverId + "-kube-apiserver");
    assertThat(docker.networksLabelled(cleanupFilter)).containsExactly("ctk-envtest-" + serverId);
  }

  @Test
  void close_removes_the_containers_and_the_network() {
    ContainerApiServer second = ContainerTestEnvironment.localImage().build().start();
    Matcher id = Pattern.compile("ctk-envtest-([0-9a-f]{8})-kube-apiserver").matcher(second.description());
    assertThat(id.find()).isTrue();
    ContainerDocker docker = ContainerDocker.connect();
    assertThat(docker.containersLabelled(ContainerDocker.SERVER_LABEL, id.group(1))).hasSize(2);

    second.close();
    second.close();

    assertThat(docker.containersLabelled(ContainerDocker.SERVER_LABEL, id.group(1))).isEmpty();
    assertThat(docker.networksLabelled(ContainerDocker.SERVER_LABEL, id.group(1))).isEmpty();
  }

  private static String localImageTag() {
    Matcher image = Pattern.compile("\\(image (ctk-envtest:[^,]+),").matcher(server.description());
    assertThat(image.find()).isTrue();
    assertThat(image.group(1))
        .matches("ctk-envtest:" + Pattern.quote(ContainerTestEnvironment.requireAssets().version()) + "-[0-9a-f]{12}");
    return image.group(1);
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata()
        .addToData("key", "value").build();
  }
}
