package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Start-up failures with a real Docker engine: each ends in one message and leaves no container and
 * no network behind.
 */
class ContainerFailuresTest {

  private List<String> containersBefore;
  private List<String> networksBefore;

  @BeforeEach
  void recordWhatExists() {
    ContainerTestEnvironment.requireDocker();
    containersBefore = ContainerTestEnvironment.ctkContainers();
    networksBefore = ContainerTestEnvironment.ctkNetworks();
  }

  @Test
  void an_api_server_that_exits_at_start_shows_its_exit_code_and_log() {
    ContainerApiServer server =
        ContainerTestEnvironment.localImage().withApiServerFlags("--no-such-flag=1").build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    String message =
        failure.getMessage()
            .replaceAll("after \\d+\\.\\ds", "after <T>")
            .replaceAll("ctk-envtest-[0-9a-f]{8}-", "ctk-envtest-<ID>-")
            .replaceAll("image ctk-envtest:1\\.20\\.2-[0-9a-f]{12}\\)", "image <LOCAL IMAGE>)");
    assertThat(message)
        .isEqualTo(
            "kube-apiserver container exited with code 1 after <T> while starting (container"
                + " ctk-envtest-<ID>-kube-apiserver, image <LOCAL IMAGE>). Last 50 lines of its log:\n"
                + "Error: unknown flag: --no-such-flag\n"
                + "Check the image and the flags given with withApiServerFlags(..). The containers"
                + " and the network were removed.");
    assertNothingLeft();
  }

  @Test
  void a_missing_image_that_cannot_be_pulled_names_the_image_and_the_ways_out() {
    ContainerApiServer server =
        ContainerApiServer.builder().withEtcdImage("ctk.invalid/etcd:missing").build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    assertThat(failure.getMessage())
        .matches(
            Pattern.quote(
                    "Image ctk.invalid/etcd:missing (etcd) is not on this machine and could not be"
                        + " pulled after ")
                + "\\d+\\.\\ds: .+"
                + Pattern.quote(
                    ". Pull it where its registry is reachable (docker pull"
                        + " ctk.invalid/etcd:missing; docker save | docker load to carry it over),"
                        + " choose another image with withEtcdImage(..), or build one offline from"
                        + " envtest binaries with withLocalImage(<folder with kube-apiserver and"
                        + " etcd>)."));
    assertNothingLeft();
  }

  @Test
  void a_missing_k3s_image_fails_before_any_container_exists() {
    ContainerApiServer server =
        ContainerApiServer.k3s().withK3sImage("ctk.invalid/rancher/k3s:v1.31.4-k3s1").build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    assertThat(failure.getMessage())
        .matches(
            Pattern.quote(
                    "Image ctk.invalid/rancher/k3s:v1.31.4-k3s1 (k3s) is not on this machine and"
                        + " could not be pulled after ")
                + "\\d+\\.\\ds: .+"
                + Pattern.quote(
                    ". Pull it where its registry is reachable (docker pull"
                        + " ctk.invalid/rancher/k3s:v1.31.4-k3s1; docker save | docker load to"
                        + " carry it over), choose another image with withK3sImage(..), or build"
                        + " one offline from envtest binaries with withLocalImage(<folder with"
                        + " kube-apiserver and etcd>)."));
    assertNothingLeft();
  }

  @Test
  void a_start_timeout_shows_the_last_log_lines() {
    ContainerApiServer server =
        ContainerTestEnvironment.localImage().withStartTimeout(Duration.ofMillis(300)).build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    assertThat(failure.getMessage())
        .matches(
            "(?s)kube-apiserver at https://localhost:\\d+ did not become ready within 300ms \\(waited"
                + " \\d+\\.\\ds\\): .+; last answer: .+\\. If the machine is only slow, raise the start"
                + " timeout; otherwise the lines below say why\\.\n"
                + "Last 50 lines of the kube-apiserver container's log:\n"
                + ".*\n"
                + "The containers and the network were removed\\.");
    assertNothingLeft();
  }

  private void assertNothingLeft() {
    await("containers and networks of the failed server removed")
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              assertThat(ContainerTestEnvironment.ctkContainers())
                  .containsExactlyInAnyOrderElementsOf(containersBefore);
              assertThat(ContainerTestEnvironment.ctkNetworks())
                  .containsExactlyInAnyOrderElementsOf(networksBefore);
            });
  }
}
