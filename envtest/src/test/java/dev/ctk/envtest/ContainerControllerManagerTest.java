package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ContainerApiServer.Builder.withControllerManager()} on the local image: kube-controller-manager in a third
 * container collects garbage and removes deleted namespaces. Needs Docker and envtest binaries with a
 * kube-controller-manager beside them ({@code .ci/provision-envtest} builds one); without them it skips with the
 * reason, unless {@code CTK_REQUIRE_ENVTEST=true}.
 */
class ContainerControllerManagerTest {

  private static ContainerApiServer server;

  @BeforeAll
  static void startServer() {
    server = ContainerTestEnvironment.localImage().withControllerManager().build().start();
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void runs_three_containers_and_says_it_runs_cluster_controllers() {
    assertThat(server.runsClusterControllers()).isTrue();
    assertThat(server.description()).contains("ctk-envtest-").endsWith(") at " + server.url());
    assertThat(ContainerTestEnvironment.ctkContainers())
        .anyMatch(name -> name.endsWith("-kube-controller-manager"))
        .anyMatch(name -> name.endsWith("-kube-apiserver"))
        .anyMatch(name -> name.endsWith("-etcd"));
  }

  @Test
  void collects_an_object_whose_owner_never_existed() {
    ClusterControllerChecks.collectsAnObjectWhoseOwnerNeverExisted(server);
  }

  @Test
  void a_deleted_namespace_is_terminating_then_emptied_and_gone() {
    ClusterControllerChecks.deletedNamespaceIsTerminatingThenGone(server);
  }
}
