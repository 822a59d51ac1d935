package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.envtest.internal.ContainerDocker;
import dev.ctk.envtest.internal.ContainerLocalImage;
import dev.ctk.envtest.internal.ContainerOrphans;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Containers of a JVM that died by SIGKILL (no close(), no shutdown hook, no Ryuk) are removed by
 * the next container-mode start on the same host. Run with Ryuk disabled
 * (TESTCONTAINERS_RYUK_DISABLED=true), as on ctk's CI; with Ryuk, Ryuk would remove them first.
 */
class ContainerOrphansTest {

  @Test
  void a_pid_label_is_an_orphan_only_when_that_process_is_gone_or_is_another_one() throws Exception {
    ProcessHandle self = ProcessHandle.current();
    String selfStarted = Long.toString(self.info().startInstant().orElseThrow().toEpochMilli());
    DeadProcess dead = DeadProcess.create();

    assertThat(ContainerOrphans.isOrphan(Long.toString(self.pid()), selfStarted)).isFalse();
    assertThat(ContainerOrphans.isOrphan(Long.toString(self.pid()), "1")).isTrue();
    assertThat(ContainerOrphans.isOrphan(Long.toString(dead.pid), dead.started)).isTrue();
    assertThat(ContainerOrphans.isOrphan(null, selfStarted)).isFalse();
    assertThat(ContainerOrphans.isOrphan("not-a-pid", selfStarted)).isFalse();
    assertThat(ContainerOrphans.isOrphan(Long.toString(dead.pid), "unknown")).isFalse();
  }

  @Test
  void a_start_time_read_a_second_off_is_the_same_jvm_and_three_seconds_off_another() {
    ProcessHandle self = ProcessHandle.current();
    long started = self.info().startInstant().orElseThrow().toEpochMilli();
    String pid = Long.toString(self.pid());

    assertThat(ContainerOrphans.isOrphan(pid, Long.toString(started - 1_000))).as("1 s earlier").isFalse();
    assertThat(ContainerOrphans.isOrphan(pid, Long.toString(started + 1_000))).as("1 s later").isFalse();
    assertThat(ContainerOrphans.isOrphan(pid, Long.toString(started - 3_000))).as("3 s earlier").isTrue();
  }

  @Test
  void removeOrphans_removes_the_containers_and_network_of_a_dead_jvm_and_keeps_the_living() throws Exception {
    ContainerTestEnvironment.requireDocker();
    ContainerDocker docker = ContainerDocker.connect();
    String image = ContainerLocalImage.ensure(docker, ContainerTestEnvironment.requireAssets().directory());
    DeadProcess dead = DeadProcess.create();
    Map<String, String> deadLabels = new HashMap<>(docker.labels("0rphan00", "etcd"));
    deadLabels.put(ContainerOrphans.PID_LABEL, Long.toString(dead.pid));
    deadLabels.put(ContainerOrphans.JVM_STARTED_LABEL, dead.started);
    String orphan =
        docker.client().createContainerCmd(image).withName("ctk-envtest-0rphan00-etcd").withLabels(deadLabels)
            .withEntrypoint("/usr/local/bin/etcd").exec().getId();
    Map<String, String> deadNetworkLabels = new HashMap<>(deadLabels);
    deadNetworkLabels.put(ContainerDocker.ROLE_LABEL, "network");
    docker.client().createNetworkCmd().withName("ctk-envtest-0rphan00").withLabels(deadNetworkLabels).exec();
    String living =
        docker.client().createContainerCmd(image).withName("ctk-envtest-11ve0000-etcd")
            .withLabels(docker.labels("11ve0000", "etcd")).withEntrypoint("/usr/local/bin/etcd").exec().getId();
    try {
      assertThat(ContainerOrphans.removeOrphans(docker)).containsExactly("ctk-envtest-0rphan00-etcd");

      assertThat(docker.containersLabelled(ContainerDocker.SERVER_LABEL, "0rphan00")).isEmpty();
      assertThat(docker.networksLabelled(ContainerDocker.SERVER_LABEL, "0rphan00")).isEmpty();
      assertThat(docker.containersLabelled(ContainerDocker.SERVER_LABEL, "11ve0000"))
          .containsExactly("ctk-envtest-11ve0000-etcd");
    } finally {
      docker.removeContainer(orphan);
      docker.removeContainer(living);
    }
  }

  @Test
  void the_containers_of_a_killed_jvm_outlive_it_until_the_next_start_removes_them() throws Exception {
    ContainerTestEnvironment.requireDocker();
    Assumptions.assumeTrue(
        "true".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED")),
        "with Ryuk enabled, Ryuk removes the containers of a killed JVM itself");
    Path assets = ContainerTestEnvironment.requireAssets().directory();
    Process child =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                ContainerCrashMain.class.getName(),
                assets.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String serverId;
    try {
      CompletableFuture<String> line =
          CompletableFuture.supplyAsync(() -> firstLineStartingWith(child, "SERVER:"));
      serverId = line.get(120, TimeUnit.SECONDS);
    } finally {
      child.destroyForcibly();
    }
    assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("child JVM killed").isTrue();
    ContainerDocker docker = ContainerDocker.connect();
    assertThat(docker.containersLabelled(ContainerDocker.SERVER_LABEL, serverId))
        .as("containers left by the killed JVM")
        .containsExactlyInAnyOrder(
            "ctk-envtest-" + serverId + "-etcd", "ctk-envtest-" + serverId + "-kube-apiserver");

    assertThat(ContainerOrphans.removeOrphans(docker))
        .contains("ctk-envtest-" + serverId + "-etcd", "ctk-envtest-" + serverId + "-kube-apiserver");

    assertThat(docker.containersLabelled(ContainerDocker.SERVER_LABEL, serverId)).isEmpty();
    assertThat(docker.networksLabelled(ContainerDocker.SERVER_LABEL, serverId)).isEmpty();
  }

  private static String firstLineStartingWith(Process process, String prefix) {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith(prefix)) {
          return line.substring(prefix.length());
        }
      }
      throw new IllegalStateException("the child JVM ended without printing " + prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A process that ran and is gone: its pid and start time, as a crashed JVM leaves them. */
  private record DeadProcess(long pid, String started) {
    static DeadProcess create() throws Exception {
      Process process = new ProcessBuilder("sleep", "30").start();
      String started = Long.toString(process.info().startInstant().orElseThrow().toEpochMilli());
      process.destroyForcibly();
      assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
      return new DeadProcess(process.pid(), started);
    }
  }
}
