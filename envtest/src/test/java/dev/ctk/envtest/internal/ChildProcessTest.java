package dev.ctk.envtest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.envtest.FakeBinaries;
import dev.ctk.envtest.Processes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildProcessTest {

  private static final String STOPS_ON_TERM =
      "trap 'echo got TERM; exit 0' TERM; echo ready; while :; do sleep 1; done";
  private static final String IGNORES_TERM =
      "trap '' TERM; echo ready; while :; do sleep 1; done";

  @TempDir Path dir;

  private ChildProcess child;

  @AfterEach
  void stopChild() {
    if (child != null) {
      child.stop(Duration.ofMillis(100));
    }
  }

  @Test
  void output_goes_to_the_log_file_and_the_ring_and_the_exit_code_is_kept() throws IOException {
    Path script =
        FakeBinaries.script(dir.resolve("talker"), "echo out 1; echo err 2 >&2; echo out 3; exit 4");

    child = ChildProcess.start("talker", List.of(script.toString()), dir.resolve("talker.log"), 2);
    await("talker to exit").atMost(Duration.ofSeconds(10)).until(() -> !child.isAlive());

    assertThat(child.exitCode()).hasValue(4);
    assertThat(child.describeLog()).isEqualTo("Last 2 of its 3 log lines:\n  err 2\n  out 3");
    assertThat(child.logContains("err 2")).isTrue();
    assertThat(Files.readAllLines(dir.resolve("talker.log")))
        .containsExactly("out 1", "err 2", "out 3");
    assertThat(child.binary()).isEqualTo(script);
    assertThat(child.runTime()).isPositive();
  }

  @Test
  void stop_sends_TERM_first() {
    child = startAndAwaitReady("polite", STOPS_ON_TERM);

    boolean killed = child.stop(Duration.ofSeconds(10));

    assertThat(killed).isFalse();
    assertThat(child.isAlive()).isFalse();
    assertThat(child.exitCode()).hasValue(0);
    assertThat(child.describeLog()).endsWith("got TERM");
  }

  @Test
  void stop_kills_a_process_that_ignores_TERM_and_ends_its_watchdog() {
    child = startAndAwaitReady("stubborn", IGNORES_TERM);
    await("the watchdog shell to run beside the child")
        .atMost(Duration.ofSeconds(10))
        .until(() -> ProcessHandle.of(child.pid()).orElseThrow().children().count() > 0);
    List<Long> watchdog =
        ProcessHandle.of(child.pid()).orElseThrow().children().map(ProcessHandle::pid).toList();

    boolean killed = child.stop(Duration.ofMillis(300));

    assertThat(killed).isTrue();
    assertThat(child.exitCode()).hasValue(128 + 9);
    assertThat(Processes.running(child.pid())).isFalse();
    Processes.awaitGone(watchdog, Duration.ofSeconds(5));
  }

  @Test
  void stop_of_an_ended_process_returns_at_once() {
    Path script = FakeBinaries.script(dir.resolve("quick"), "exit 0");
    child = ChildProcess.start("quick", List.of(script.toString()), dir.resolve("quick.log"), 5);
    await("quick to exit").atMost(Duration.ofSeconds(10)).until(() -> !child.isAlive());

    assertThat(child.stop(Duration.ofSeconds(10))).isFalse();
    assertThat(child.describeLog()).isEqualTo("Its log is empty.");
  }

  @Test
  void children_die_within_seconds_when_the_parent_jvm_is_killed() throws IOException {
    Path polite = FakeBinaries.script(dir.resolve("polite"), STOPS_ON_TERM);
    Path stubborn = FakeBinaries.script(dir.resolve("stubborn"), IGNORES_TERM);
    Process parent =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                WatchdogParentMain.class.getName(),
                polite.toString(),
                stubborn.toString(),
                dir.toString())
            .redirectErrorStream(true)
            .start();
    List<String> output = new CopyOnWriteArrayList<>();
    Thread reader = new Thread(() -> readLines(parent, output), "watchdog-parent-output");
    reader.setDaemon(true);
    reader.start();
    try {
      await("child JVM to print the pids of its two children; its output so far: " + output)
          .atMost(Duration.ofSeconds(60))
          .until(() -> output.stream().anyMatch(line -> line.startsWith("pids ")) || !parent.isAlive());
      String pidsLine =
          output.stream()
              .filter(line -> line.startsWith("pids "))
              .findFirst()
              .orElseThrow(() -> new AssertionError("child JVM ended without pids: " + output));
      List<Long> pids = Arrays.stream(pidsLine.substring(5).split(" ")).map(Long::valueOf).toList();
      assertThat(pids).hasSize(2).allMatch(Processes::running);

      parent.destroyForcibly(); // SIGKILL: no shutdown hook, only the watchdogs can act

      Processes.awaitGone(pids, Duration.ofSeconds(10));
    } finally {
      parent.destroyForcibly();
    }
  }

  private ChildProcess startAndAwaitReady(String name, String body) {
    Path script = FakeBinaries.script(dir.resolve(name), body);
    ChildProcess started =
        ChildProcess.start(name, List.of(script.toString()), dir.resolve(name + ".log"), 5);
    await(name + " to print ready")
        .atMost(Duration.ofSeconds(10))
        .until(() -> started.logContains("ready"));
    return started;
  }

  private static void readLines(Process process, List<String> into) {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        into.add(line);
      }
    } catch (IOException e) {
      into.add("reading failed: " + e);
    }
  }
}
