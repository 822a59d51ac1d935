package dev.ctk.assertions;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Result;
import dev.ctk.fake.FakeCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Why a controller is not running, as the checks that need it running say it: never started (start it), closed
 * (it does not start again), or a worker thread that a {@link VirtualMachineError} ended (which error).
 */
class ControllerNotRunningAssertTest {

  private final FakeCluster cluster = FakeCluster.start();
  private final StackOverflowError overflow = new StackOverflowError("reconcile of default/deep recursed");
  private final Controller controller = Controller.builder("cm")
      .watch(cluster.client().configMaps().inNamespace("default").runnableInformer(0),
          EventHandlers.enqueueObject())
      .withReconciler(key -> {
        if (key.name().equals("deep")) {
          throw overflow;
        }
        return Result.done();
      })
      .build();

  @AfterEach
  void close() {
    controller.close();
    cluster.close();
  }

  @Test
  void should_fail_isIdle_for_a_closed_controller_saying_it_was_closed() {
    // GIVEN
    controller.start();
    controller.close();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class, () -> assertThat(controller).isIdle());
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to be idle (running, caches synced, work queue empty)
        but it is not running: it was closed, and a closed controller does not start again. Fix: check it \
        before it is closed, or build and start a new controller (a RestartableController restarts with \
        restart()).""");
  }

  @Test
  void should_fail_isIdle_for_a_controller_whose_worker_died_naming_the_error() {
    // GIVEN a reconcile that throws a StackOverflowError, which ends its worker thread
    controller.start();
    controller.workQueue().add(ObjectKey.of("default", "deep"));
    // the worker ends with an uncaught StackOverflowError, on purpose: do not let Awaitility fail on it
    await("the worker of \"cm\" ends").dontCatchUncaughtExceptions().atMost(ofSeconds(10))
        .until(() -> !controller.isRunning());
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class, () -> assertThat(controller).isIdle());
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to be idle (running, caches synced, work queue empty)
        but it is not running: a worker thread died of StackOverflowError: reconcile of default/deep recursed \
        (the whole error is the cause of this failure), and a controller does not replace a worker that a \
        VirtualMachineError ended. Fix: make the reconciler stop throwing it (a StackOverflowError is usually a \
        recursion without end), then start a new controller.""");
    assertThat(error).hasCause(overflow);
  }

  @Test
  void should_fail_reachesFixedPoint_for_a_closed_controller_saying_it_was_closed() {
    // GIVEN
    controller.start();
    controller.close();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).reachesFixedPoint(cluster.requests()));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to reach a fixed point (work queue empty, nothing in flight, no change for 500ms)
        but it is not running: it was closed, and a closed controller does not start again. Fix: check it \
        before it is closed, or build and start a new controller (a RestartableController restarts with \
        restart()).
        work queue: queued [], in flight [], waiting []""");
  }

  @Test
  void should_keep_the_start_hint_for_a_controller_that_was_never_started() {
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class, () -> assertThat(controller).isIdle());
    // THEN
    assertThat(error).hasMessageEndingWith("but it is not running: start it with controller.start() or "
        + "ControllerHarness.start(controller).");
  }
}
