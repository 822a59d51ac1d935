package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.envtest.ExistingCluster;
import dev.ctk.envtest.LocalApiServer;
import dev.ctk.envtest.values.EnvtestException;
import dev.ctk.envtest.values.EnvtestUnavailableException;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Mode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.Event;

/**
 * A real mode that is not available: skipped with the reason (the message that says what was tried
 * and the fix), or failed with that message when {@code ctk.require-envtest=true}; a server found but failing to
 * start: failed, never skipped; with {@code
 * @ControllerTest} alone and with {@code @EnabledIfEnvtestAvailable}. Unavailability is made with a
 * version no folder holds ({@code ctk.envtest.version=9.99}) and a kubeconfig that does not exist;
 * the real environment is never read (see EngineRuns).
 */
class AvailabilityTest {

  static final List<String> RAN = new CopyOnWriteArrayList<>();

  /** The message of the server that cannot start, as LocalApiServer itself reports it. */
  private final String noVersion999 = catchThrowableOfType(EnvtestUnavailableException.class,
      () -> LocalApiServer.builder().withVersion("9.99").build().start()).getMessage();

  @BeforeEach
  void forget() {
    RAN.clear();
  }

  @Test
  void should_skip_a_controller_test_whose_mode_is_not_available_with_the_reason() {
    // WHEN
    var results = run(EnvtestControllerTest.class, "ctk.envtest.version", "9.99");
    // THEN
    assertThat(skipReasons(results)).containsExactly(noVersion999);
    assertThat(results.testEvents().started().count()).isZero();
    assertThat(results.allEvents().failed().count()).isZero();
  }

  @Test
  void should_fail_a_controller_test_whose_mode_is_not_available_when_required_by_parameter() {
    // WHEN
    var results = run(EnvtestControllerTest.class, "ctk.envtest.version", "9.99",
        "ctk.require-envtest", "true");
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(EnvtestException.class)
        .hasMessage(noVersion999);
    assertThat(RAN).isEmpty();
  }

  @Test
  void should_fail_a_controller_test_whose_mode_is_not_available_when_required_by_environment() {
    // WHEN
    var results = run(List.of(EnvtestControllerTest.class),
        Map.of("CTK_REQUIRE_ENVTEST", "true")::get, "ctk.envtest.version", "9.99");
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(EnvtestException.class)
        .hasMessage(noVersion999);
  }

  @Test
  void should_skip_the_envtest_invocation_of_across_modes_and_run_the_fake_one() {
    // WHEN
    var results = run(InBothModes.class, "ctk.envtest.version", "9.99");
    // THEN
    assertThat(RAN).containsExactly("fake");
    assertThat(skipReasons(results)).containsExactly(noVersion999);
    assertThat(results.allEvents().failed().count()).isZero();
  }

  @Test
  void should_skip_a_class_with_enabled_if_envtest_available_with_the_reason() {
    // WHEN
    var results = run(PlainClassNeedsEnvtest.class, "ctk.envtest.version", "9.99");
    // THEN
    assertThat(skipReasons(results)).containsExactly(noVersion999);
    assertThat(RAN).isEmpty();
  }

  @Test
  void should_run_a_class_with_enabled_if_envtest_available_when_envtest_is_available() {
    // GIVEN this machine has the binaries
    RealServerFixtures.serverOrSkip(Mode.ENVTEST);
    // WHEN
    var results = run(PlainClassNeedsEnvtest.class);
    // THEN
    assertAllPassed(results, 1);
    assertThat(RAN).containsExactly("plain");
  }

  @Test
  void should_fail_a_class_with_enabled_if_envtest_available_when_required() {
    // WHEN
    var results = run(PlainClassNeedsEnvtest.class, "ctk.envtest.version", "9.99",
        "ctk.require-envtest", "true");
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(EnvtestException.class)
        .hasMessage(noVersion999);
    assertThat(RAN).isEmpty();
  }

  @Test
  void should_skip_only_the_annotated_method() {
    // WHEN
    var results = run(OneMethodNeedsEnvtest.class, "ctk.envtest.version", "9.99");
    // THEN
    assertThat(RAN).containsExactly("without");
    assertThat(skipReasons(results)).containsExactly(noVersion999);
  }

  @Test
  void should_skip_existing_cluster_mode_without_a_kubeconfig_with_the_reason() {
    // GIVEN
    Path missing = Path.of("target", "no-such-kubeconfig").toAbsolutePath();
    String reason = catchThrowableOfType(EnvtestUnavailableException.class,
        () -> ExistingCluster.fromKubeconfig(missing, null)).getMessage();
    // WHEN
    var results = run(ExistingClusterControllerTest.class, "ctk.kubeconfig", missing.toString());
    // THEN
    assertThat(skipReasons(results)).containsExactly(reason);
  }

  @Test
  void should_skip_existing_cluster_mode_with_an_unknown_context_naming_the_junit_setting(
      @TempDir Path folder) throws IOException {
    // GIVEN
    Path kubeconfig = Files.writeString(folder.resolve("kubeconfig"), """
        apiVersion: v1
        kind: Config
        clusters:
        - name: kind-ci
          cluster:
            server: https://127.0.0.1:6443
        users:
        - name: kind-ci
          user:
            token: secret
        contexts:
        - name: kind-ci
          context:
            cluster: kind-ci
            user: kind-ci
        current-context: kind-ci
        """);
    // WHEN
    var results = run(ExistingClusterControllerTest.class, "ctk.kubeconfig", kubeconfig.toString(),
        "ctk.kube-context", "kind-elsewhere");
    // THEN
    assertThat(skipReasons(results)).containsExactly("kubeconfig " + kubeconfig.toAbsolutePath()
        + " has no context \"kind-elsewhere\"; it has [kind-ci]. Pick one of those (kubectl "
        + "config get-contexts lists them) in ExistingCluster.fromKubeconfig(path, context), "
        + "fromDefaultKubeconfig(context) or the JUnit setting ctk.kube-context.");
  }

  @Test
  void should_fail_every_class_with_an_invalid_envtest_version_and_skip_none() {
    // WHEN
    var results = run(List.of(EnvtestControllerTest.class, SecondEnvtestControllerTest.class,
        PlainClassNeedsEnvtest.class), "ctk.envtest.version", "latest");
    // THEN
    assertThat(results.allEvents().failed().stream().map(EngineRuns::throwable).toList())
        .hasSize(3).allSatisfy(error -> assertThat(error)
            .isInstanceOf(ExtensionConfigurationException.class)
            .hasMessage("Invalid value \"latest\" from the JUnit configuration parameter "
                + "ctk.envtest.version (junit-platform.properties, -D or the launcher). Expected a "
                + "Kubernetes version such as 1.20, 1.20.x or 1.20.2. Fix the value, or remove it "
                + "to get the default (any version: the first place in discovery order that has "
                + "the binaries)."));
    assertThat(results.allEvents().skipped().count()).isZero();
    assertThat(RAN).isEmpty();
  }

  @Test
  void should_name_the_environment_variable_of_an_invalid_envtest_version() {
    // WHEN
    var results = run(List.of(EnvtestControllerTest.class),
        Map.of("CTK_ENVTEST_VERSION", "newest")::get);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("Invalid value \"newest\" from the environment variable CTK_ENVTEST_VERSION. "
            + "Expected a Kubernetes version such as 1.20, 1.20.x or 1.20.2. Fix the value, or "
            + "remove it to get the default (any version: the first place in discovery order that "
            + "has the binaries).");
  }

  @Test
  void should_fail_every_class_whose_server_start_failed_for_a_reason_other_than_the_environment() {
    // GIVEN a kubeconfig path that is not a path: the start throws no EnvtestException
    String notAPath = "kube\0config";
    String reason = catchThrowableOfType(InvalidPathException.class, () -> Path.of(notAPath))
        .getMessage();
    // WHEN
    var results = run(List.of(ExistingClusterControllerTest.class,
        SecondExistingClusterControllerTest.class), "ctk.kubeconfig", notAPath);
    // THEN both classes fail with the reason; the second is not skipped
    assertThat(results.allEvents().failed().stream().map(EngineRuns::throwable)
        .map(Throwable::getMessage).toList()).containsExactly(reason, reason);
    assertThat(results.allEvents().skipped().count()).isZero();
  }

  @Test
  void should_fail_every_class_whose_server_was_found_but_exits_at_start_and_skip_none(@TempDir Path assets)
      throws IOException {
    // GIVEN binaries that are found (kube-apiserver names its version) but an etcd that exits at once
    executable(assets.resolve("kube-apiserver"), "if [ \"$1\" = \"--version\" ]; then echo \"Kubernetes v1.32.0\"; "
        + "exit 0; fi\nexit 1");
    executable(assets.resolve("etcd"), "echo 'etcdmain: cannot access data directory'; exit 2");
    // WHEN
    var results = run(List.of(EnvtestControllerTest.class, SecondEnvtestControllerTest.class),
        "ctk.envtest.assets", assets.toString());
    // THEN both classes fail with etcd's exit and log; a skip would hide the broken server
    assertThat(results.allEvents().failed().stream().map(EngineRuns::throwable).toList()).hasSize(2)
        .allSatisfy(error -> assertThat(error).isInstanceOf(EnvtestException.class)
            .hasMessageStartingWith("etcd exited with code 2 after ")
            .hasMessageContaining("etcdmain: cannot access data directory"));
    assertThat(results.allEvents().skipped().count()).isZero();
    assertThat(RAN).isEmpty();
  }

  private static void executable(Path file, String body) throws IOException {
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  static List<String> skipReasons(EngineExecutionResults results) {
    return results.allEvents().skipped().stream().map(Event::getPayload)
        .map(p -> p.map(String::valueOf).orElse("<no reason>")).toList();
  }

  @Fixture
  @ControllerTest(mode = Mode.ENVTEST)
  static class EnvtestControllerTest {

    @Test
    void test(ControllerHarness harness) {
      RAN.add(harness.mode().configName());
    }
  }

  @Fixture
  static class SecondEnvtestControllerTest extends EnvtestControllerTest {}

  @Fixture
  @ControllerTest(mode = Mode.EXISTING_CLUSTER)
  static class ExistingClusterControllerTest extends EnvtestControllerTest {}

  @Fixture
  static class SecondExistingClusterControllerTest extends ExistingClusterControllerTest {}

  @Fixture
  @ControllerTest
  @AcrossModes({Mode.FAKE, Mode.ENVTEST})
  static class InBothModes {

    @Test
    void test(ControllerHarness harness) {
      RAN.add(harness.mode().configName());
    }
  }

  @Fixture
  @EnabledIfEnvtestAvailable
  static class PlainClassNeedsEnvtest {

    @Test
    void test() {
      RAN.add("plain");
    }
  }

  @Fixture
  static class OneMethodNeedsEnvtest {

    @Test
    @EnabledIfEnvtestAvailable
    void with() {
      RAN.add("with");
    }

    @Test
    void without() {
      RAN.add("without");
    }
  }
}
