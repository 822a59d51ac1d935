package dev.ctk.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.harness.internal.perturb.PerturbationPoint;
import dev.ctk.harness.internal.perturb.PerturbationReport.RunResult;
import dev.ctk.harness.internal.perturb.PerturbationReport.Status;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A campaign's runs side by side ({@code ctk.perturb.parallel-runs}): together, reported in plan order. */
class PerturbationParallelRunsTest {

  private static final List<PerturbationPoint> POINTS = List.of(PerturbationPoint.crashAfter(1),
      PerturbationPoint.crashAfter(2), PerturbationPoint.crashAfter(3), PerturbationPoint.crashAfter(4));

  @Test
  void should_run_two_at_a_time_and_report_in_plan_order() {
    // GIVEN runs that each wait until another run is under way too, and end in reverse order
    CountDownLatch together = new CountDownLatch(2);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    // WHEN
    List<RunResult> results = PerturbationCampaign.runAll(POINTS, 2, point -> {
      mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
      together.countDown();
      await(together);
      sleep(point.id().endsWith("-1") ? 150 : 10);
      running.decrementAndGet();
      return result(point);
    });
    // THEN
    assertThat(mostAtOnce.get()).isEqualTo(2);
    assertThat(results).extracting(r -> r.point().id()).containsExactly("crash-restart:after-write-1",
        "crash-restart:after-write-2", "crash-restart:after-write-3", "crash-restart:after-write-4");
  }

  @Test
  void should_run_one_after_the_other_by_default() {
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    List<RunResult> results = PerturbationCampaign.runAll(POINTS, 1, point -> {
      mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
      sleep(5);
      running.decrementAndGet();
      return result(point);
    });
    assertThat(mostAtOnce.get()).isEqualTo(1);
    assertThat(results).hasSize(4);
  }

  @Test
  void should_throw_the_first_error_once_every_run_ended() {
    AtomicInteger ended = new AtomicInteger();
    IllegalStateException e = catchThrowableOfType(IllegalStateException.class,
        () -> PerturbationCampaign.runAll(POINTS, 2, point -> {
          sleep(20);
          ended.incrementAndGet();
          if (point.id().endsWith("-2") || point.id().endsWith("-3")) {
            throw new IllegalStateException("not selected: " + point.id());
          }
          return result(point);
        }));
    assertThat(e).hasMessage("not selected: crash-restart:after-write-2");
    assertThat(ended.get()).isEqualTo(4);
  }

  private static RunResult result(PerturbationPoint point) {
    return new RunResult(point, 1, Status.PASS, List.of(), List.of(), null);
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).as("another run started beside this one").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
