package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.envtest.internal.ContainerDocker;
import dev.ctk.envtest.internal.ContainerLocalImage;
import dev.ctk.envtest.internal.ContainerOrphans;
import dev.ctk.envtest.values.EnvtestException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * Start-up failures with a real Docker engine: each ends in one message and leaves no container and
 * no network behind.
 */
class ContainerFailuresTest {

  /**
   * Events stored in an etcd where nothing listens: kube-apiserver waits for it (about 20s) and
   * does not get ready meanwhile.
   */
  private static final String NO_ETCD = "--etcd-servers-overrides=/events#http://127.0.0.1:1";

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
            .replaceAll("after \\d+(?:\\.\\d)?(?:µs|ms|s)", "after <T>")
            .replaceAll("ctk-envtest-[0-9a-f]{8}-", "ctk-envtest-<ID>-")
            .replaceAll(
                "image ctk-envtest:"
                    + Pattern.quote(ContainerTestEnvironment.requireAssets().version())
                    + "-[0-9a-f]{12}\\)",
                "image <LOCAL IMAGE>)");
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
                + "\\d+(?:\\.\\d)?(?:µs|ms|s): .+"
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
                + "\\d+(?:\\.\\d)?(?:µs|ms|s): .+"
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
                + " \\d+(?:\\.\\d)?(?:µs|ms|s)\\): .+; last answer: .+\\. If the machine is only slow, raise the start"
                + " timeout; otherwise the lines below say why\\.\n"
                + "Last 50 lines of the kube-apiserver container's log:\n"
                + ".*\n"
                + "The containers and the network were removed\\.");
    assertNothingLeft();
  }

  @Test
  void a_controller_manager_image_without_the_binary_fails_and_its_container_is_removed_too() {
    String local =
        ContainerLocalImage.ensure(
            ContainerDocker.connect(), ContainerTestEnvironment.requireAssets().directory());
    String empty =
        new ImageFromDockerfile("ctk-envtest-test-empty", false)
            .withDockerfileFromBuilder(dockerfile -> dockerfile.from("scratch").copy("empty", "/empty").build())
            .withFileFromString("empty", "no kube-controller-manager here\n")
            .get();
    ContainerApiServer server =
        ContainerApiServer.builder()
            .withApiServerImage(local)
            .withEtcdImage(local)
            .withControllerManagerImage(empty)
            .build();

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, server::start);

    assertThat(failure).hasMessageContaining("kube-controller-manager");
    assertNothingLeft();
  }

  @Test
  void close_during_start_removes_what_exists_and_start_gives_up() {
    ContainerApiServer server =
        ContainerTestEnvironment.localImage()
            .withApiServerFlags(NO_ETCD)
            .withStartTimeout(Duration.ofMinutes(5))
            .build();
    AtomicReference<Throwable> startFailure = new AtomicReference<>();
    Thread starter = new Thread(() -> startFailure.set(catchThrowable(server::start)), "starter");
    starter.start();
    await("etcd and kube-apiserver containers to be created")
        .atMost(Duration.ofSeconds(120))
        .until(() -> ContainerTestEnvironment.ctkContainers().size() == containersBefore.size() + 2);

    server.close();

    await("start() to give up").atMost(Duration.ofSeconds(30)).until(() -> !starter.isAlive());
    assertThat(startFailure.get())
        .isInstanceOf(EnvtestException.class)
        .hasMessage(
            "ContainerApiServer.close() was called while the server was starting (by the caller or the"
                + " JVM shutdown hook); start() gave up and removed the containers and the network it had"
                + " created.");
    assertNothingLeft();
  }

  @Test
  void sigterm_during_start_removes_what_exists() throws Exception {
    Path assets = ContainerTestEnvironment.requireAssets().directory();
    Process child =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                ContainerCrashMain.class.getName(),
                assets.toString(),
                NO_ETCD)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    ContainerDocker docker = ContainerDocker.connect();
    String pid = Long.toString(child.pid());
    try {
      await("the child JVM to create its etcd and kube-apiserver containers")
          .atMost(Duration.ofSeconds(120))
          .until(() -> docker.containersLabelled(ContainerOrphans.PID_LABEL, pid).size() == 2);

      child.destroy();

      assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child JVM ended after SIGTERM").isTrue();
      assertThat(docker.containersLabelled(ContainerOrphans.PID_LABEL, pid)).isEmpty();
      assertThat(docker.networksLabelled(ContainerOrphans.PID_LABEL, pid)).isEmpty();
    } finally {
      child.destroyForcibly();
    }
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
