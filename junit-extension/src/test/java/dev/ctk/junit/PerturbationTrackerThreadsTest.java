package dev.ctk.junit;

import static dev.ctk.junit.PerturbationTrackerTest.configMap;
import static dev.ctk.junit.PerturbationTrackerTest.secretsController;
import static dev.ctk.junit.PerturbationTrackerTest.withoutTimes;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Result;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.RestartableController;
import dev.ctk.harness.internal.ControllerWrite;
import dev.ctk.harness.internal.ReconcileThreads.Instance;
import dev.ctk.harness.internal.perturb.CrashPoint;
import dev.ctk.harness.internal.perturb.PerturbationPoint;
import dev.ctk.harness.internal.perturb.PerturbationTracker;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PerturbationTracker}'s threads ({@code ctk-perturb-watch}, {@code ctk-perturb-restart}): started only once
 * the tracker is built, and gone when it is closed.
 */
class PerturbationTrackerThreadsTest extends FakeHarnessFixture {

  private Set<Thread> before;

  @BeforeEach
  void rememberThreads() {
    before = perturbThreads();
  }

  @Test
  void should_leave_no_watch_thread_after_close_when_the_point_was_never_reached() {
    // GIVEN a stale view at an event that never comes
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.staleView("ConfigMap", 9));
    harness.start(() -> secretsController(client));
    assertThat(names(newPerturbThreads())).containsExactly("ctk-perturb-watch");
    // WHEN
    tracker.close();
    // THEN
    assertThat(newPerturbThreads()).isEmpty();
    assertThat(cluster.watchFaults().rulesInForce()).isEmpty();
    assertThat(tracker.notFiredReason()).isEqualTo("the run never got to ConfigMap event #9");
  }

  @Test
  void should_leave_no_restart_thread_after_close_once_the_controller_was_restarted() {
    // GIVEN
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.crashAfter(1));
    RestartableController controller = harness.start(() -> secretsController(client));
    client.configMaps().resource(configMap("web")).create();
    await("the restart").atMost(ofSeconds(10)).until(() -> controller.instance() == 2);
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    // WHEN
    tracker.close();
    // THEN
    assertThat(newPerturbThreads()).isEmpty();
  }

  @Test
  void should_install_nothing_and_start_no_thread_when_attaching_fails() {
    // GIVEN a closed cluster: its watch faults refuse a hold
    cluster.close();
    // WHEN
    Throwable error = catchThrowable(() -> PerturbationTracker.attach(cluster, harness,
        PerturbationPoint.staleView("ConfigMap", 1)));
    // THEN
    assertThat(error).isInstanceOf(IllegalStateException.class);
    assertThat(error.getMessage()).matches("FakeCluster at \\S+ is closed; " + Pattern.quote("watchFaults()"
        + ".holdAfter(..) needs a running cluster. Build a new one with FakeCluster.builder()...build()."));
    assertThat(newPerturbThreads()).isEmpty();
    assertThat(cluster.faults().rules()).isEmpty();
  }

  @Test
  void should_log_a_restart_it_had_to_abandon_when_closed() throws Exception {
    // GIVEN a factory whose second call waits for a latch that never opens
    CountDownLatch never = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    RestartableController controller = harness.start(() -> {
      if (calls.incrementAndGet() == 2) {
        try {
          never.await();
        } catch (InterruptedException e) {
          throw new IllegalStateException("interrupted while building instance 2");
        }
      }
      return RestartableControllerTest.configMapController(client, "slow-factory", Result.done());
    });
    List<String> lines = new CopyOnWriteArrayList<>();
    CrashPoint crash = new CrashPoint(PerturbationPoint.crashBefore(1), lines::add, () -> null, null,
        sequence -> true);
    Instance instance = new Instance(controller.current(), 1, controller);
    // WHEN write 1 crashes the instance, and the crash point is closed while the restart waits on the factory
    assertThat(crash.onWrite(new ControllerWrite(1, "slow-factory", 1, "create", "Secret", "default", null, 7),
        instance)).isTrue();
    await("the factory to be called for instance 2").atMost(ofSeconds(10)).until(() -> calls.get() == 2);
    crash.close(ofMillis(100));
    // THEN
    await("the restart thread to end").atMost(ofSeconds(10)).until(() -> newPerturbThreads().isEmpty());
    assertThat(withoutTimes(lines)).containsExactlyInAnyOrder(
        "abandoned the restart of controller \"slow-factory\": it was still under way 100ms after the tracker "
            + "closed (thread ctk-perturb-restart interrupted)",
        "crashed controller \"slow-factory\" before write #1 (create Secret in default, refused); the restart "
            + "failed: java.lang.IllegalStateException: interrupted while building instance 2");
    assertThat(crash.busy()).isFalse();
  }

  private Set<Thread> newPerturbThreads() {
    Set<Thread> now = perturbThreads();
    now.removeAll(before);
    return now;
  }

  private static Set<Thread> perturbThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("ctk-perturb-") && t.isAlive()).collect(Collectors.toSet());
  }

  private static List<String> names(Set<Thread> threads) {
    return threads.stream().map(Thread::getName).toList();
  }
}
