package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class VirtualTimeTest {

  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  @Test
  void starts_at_a_fixed_instant_and_stands_still() {
    VirtualTime time = VirtualTime.create();

    assertThat(time.now()).isEqualTo(START);
    assertThat(time.nanoTime()).isZero();
    assertThat(time.elapsed()).isEqualTo(Duration.ZERO);
    assertThat(time.pendingTasks()).isZero();
    assertThat(time.untilNextTask()).isEmpty();
    assertThat(time).hasToString("VirtualTime[now=2030-01-01T00:00:00Z, elapsed=PT0S, "
        + "pendingTasks=0]");
  }

  @Test
  void starting_at_uses_the_given_instant() {
    VirtualTime time = VirtualTime.startingAt(Instant.parse("2025-06-01T12:00:00Z"));

    time.advance(Duration.ofMinutes(90));

    assertThat(time.now()).isEqualTo(Instant.parse("2025-06-01T13:30:00Z"));
    assertThat(time.elapsed()).isEqualTo(Duration.ofMinutes(90));
    assertThat(time.nanoTime()).isEqualTo(Duration.ofMinutes(90).toNanos());
  }

  @Test
  void advance_runs_due_tasks_in_deadline_then_scheduling_order_at_their_deadline() {
    VirtualTime time = VirtualTime.create();
    List<String> ran = new CopyOnWriteArrayList<>();
    time.schedule(Duration.ofSeconds(30), () -> ran.add("c@" + time.now()));
    time.schedule(Duration.ofSeconds(10), () -> ran.add("a@" + time.now()));
    time.schedule(Duration.ofSeconds(10), () -> ran.add("b@" + time.now()));
    time.schedule(Duration.ofSeconds(61), () -> ran.add("late@" + time.now()));

    time.advance(Duration.ofMinutes(1));

    assertThat(ran).containsExactly("a@2030-01-01T00:00:10Z", "b@2030-01-01T00:00:10Z",
        "c@2030-01-01T00:00:30Z");
    assertThat(time.now()).isEqualTo(START.plusSeconds(60));
    assertThat(time.pendingTasks()).isEqualTo(1);
    assertThat(time.untilNextTask()).contains(Duration.ofSeconds(1));
    assertThat(time).hasToString("VirtualTime[now=2030-01-01T00:01:00Z, elapsed=PT1M, "
        + "pendingTasks=1]");
  }

  @Test
  void tasks_scheduled_by_tasks_run_within_the_same_step_when_due() {
    VirtualTime time = VirtualTime.create();
    List<Instant> ticks = new CopyOnWriteArrayList<>();
    Runnable[] tick = new Runnable[1];
    tick[0] = () -> {
      ticks.add(time.now());
      time.schedule(Duration.ofSeconds(2), tick[0]);
    };
    time.schedule(Duration.ofSeconds(2), tick[0]);

    time.advance(Duration.ofSeconds(7));

    assertThat(ticks).containsExactly(START.plusSeconds(2), START.plusSeconds(4),
        START.plusSeconds(6));
    assertThat(time.untilNextTask()).contains(Duration.ofSeconds(1));
  }

  @Test
  void advance_to_moves_to_the_instant_and_runs_due_tasks() {
    VirtualTime time = VirtualTime.create();
    AtomicReference<Instant> ranAt = new AtomicReference<>();
    time.schedule(Duration.ofHours(1), () -> ranAt.set(time.now()));

    time.advanceTo(START.plus(Duration.ofHours(2)));

    assertThat(ranAt).hasValue(START.plus(Duration.ofHours(1)));
    assertThat(time.elapsed()).isEqualTo(Duration.ofHours(2));
  }

  @Test
  void a_cancelled_task_does_not_run() {
    VirtualTime time = VirtualTime.create();
    AtomicBoolean ran = new AtomicBoolean();
    TimeSource.ScheduledTask task = time.schedule(Duration.ofSeconds(1), () -> ran.set(true));

    assertThat(task.cancel()).isTrue();
    time.advance(Duration.ofSeconds(5));

    assertThat(ran).isFalse();
    assertThat(task.cancel()).isFalse();
    assertThat(time.pendingTasks()).isZero();
  }

  @Test
  void a_failing_task_does_not_stop_the_step() {
    VirtualTime time = VirtualTime.create();
    AtomicBoolean second = new AtomicBoolean();
    time.schedule(Duration.ofSeconds(1), () -> {
      throw new IllegalStateException("boom");
    });
    time.schedule(Duration.ofSeconds(2), () -> second.set(true));

    time.advance(Duration.ofSeconds(2));

    assertThat(second).isTrue();
  }

  @Test
  void zero_delay_runs_asynchronously_on_the_virtual_time_thread_never_inside_schedule() {
    VirtualTime time = VirtualTime.create();
    AtomicReference<String> thread = new AtomicReference<>();
    AtomicBoolean scheduleReturned = new AtomicBoolean();
    AtomicBoolean ranAfterScheduleReturned = new AtomicBoolean();
    CountDownLatch release = new CountDownLatch(1);
    time.schedule(Duration.ZERO, () -> {
      await().atMost(Duration.ofSeconds(10)).untilTrue(scheduleReturned);
      ranAfterScheduleReturned.set(true);
      thread.set(Thread.currentThread().getName());
    });
    scheduleReturned.set(true);
    time.schedule(Duration.ofSeconds(-1), release::countDown);

    await("zero and negative delay tasks to run without advancing the clock")
        .atMost(Duration.ofSeconds(10))
        .until(() -> release.getCount() == 0 && thread.get() != null);
    assertThat(thread).hasValue("ctk-virtual-time");
    assertThat(ranAfterScheduleReturned).isTrue();
    assertThat(time.elapsed()).isEqualTo(Duration.ZERO);
    await("the zero-delay tasks to leave the pending count").atMost(Duration.ofSeconds(10))
        .until(() -> time.pendingTasks() == 0);
  }

  @Test
  void a_cancelled_zero_delay_task_does_not_run() throws InterruptedException {
    VirtualTime time = VirtualTime.create();
    CountDownLatch blocker = new CountDownLatch(1);
    CountDownLatch blocking = new CountDownLatch(1);
    AtomicBoolean ran = new AtomicBoolean();
    time.schedule(Duration.ZERO, () -> {
      blocking.countDown();
      try {
        blocker.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    assertThat(blocking.await(10, TimeUnit.SECONDS)).as("the first task started").isTrue();
    TimeSource.ScheduledTask task = time.schedule(Duration.ZERO, () -> ran.set(true));
    assertThat(time.pendingTasks()).isEqualTo(1);
    assertThat(time.untilNextTask()).contains(Duration.ZERO);

    assertThat(task.cancel()).isTrue();
    AtomicBoolean after = new AtomicBoolean();
    time.schedule(Duration.ZERO, () -> after.set(true));
    blocker.countDown();

    await("the task after the cancelled one to run").atMost(Duration.ofSeconds(10)).untilTrue(after);
    assertThat(ran).isFalse();
  }

  @Test
  void negative_advance_is_refused() {
    VirtualTime time = VirtualTime.create();

    assertThatThrownBy(() -> time.advance(Duration.ofSeconds(-5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("VirtualTime.advance(PT-5S): time cannot go back; the clock is at "
            + "2030-01-01T00:00:00Z. Pass a duration of zero or more.");
  }

  @Test
  void advance_to_the_past_is_refused() {
    VirtualTime time = VirtualTime.create();
    time.advance(Duration.ofMinutes(1));

    assertThatThrownBy(() -> time.advanceTo(START))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("VirtualTime.advanceTo(2030-01-01T00:00:00Z): time cannot go back; the clock is "
            + "already at 2030-01-01T00:01:00Z. Pass an instant at or after it.");
  }

  @Test
  void advance_past_the_range_is_refused() {
    VirtualTime time = VirtualTime.create();

    assertThatThrownBy(() -> time.advance(Duration.ofDays(365L * 300)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("VirtualTime.advance(PT2628000H): the clock at 2030-01-01T00:00:00Z cannot move "
            + "that far (at most about 292 years after its start 2030-01-01T00:00:00Z).");
  }

  @Test
  void a_task_cannot_advance_the_clock_it_runs_on() {
    VirtualTime time = VirtualTime.create();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    time.schedule(Duration.ofSeconds(1), () -> {
      try {
        time.advance(Duration.ofSeconds(1));
      } catch (IllegalStateException e) {
        failure.set(e);
      }
    });

    time.advance(Duration.ofSeconds(3));

    assertThat(failure.get()).isInstanceOf(IllegalStateException.class)
        .hasMessage("VirtualTime.advance(PT1S) was called by a task that the clock is running (at "
            + "2030-01-01T00:00:01Z); a task cannot move the clock it runs on. Schedule follow-up "
            + "work with schedule(delay, task) instead.");
    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void concurrent_advances_are_serialized() throws InterruptedException {
    VirtualTime time = VirtualTime.create();
    CountDownLatch inTask = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<Instant> seen = new CopyOnWriteArrayList<>();
    time.schedule(Duration.ofSeconds(10), () -> {
      inTask.countDown();
      try {
        release.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      seen.add(time.now());
    });
    time.schedule(Duration.ofSeconds(25), () -> seen.add(time.now()));
    Thread first = new Thread(() -> time.advance(Duration.ofSeconds(20)), "first-advance");
    first.start();
    assertThat(inTask.await(10, TimeUnit.SECONDS)).as("the first step reached its task").isTrue();
    Thread second = new Thread(() -> time.advance(Duration.ofSeconds(10)), "second-advance");
    second.start();
    await("the second advance to wait for the first").atMost(Duration.ofSeconds(10))
        .until(() -> second.getState() == Thread.State.WAITING);
    assertThat(time.now()).isEqualTo(START.plusSeconds(10));

    release.countDown();
    first.join(10_000);
    second.join(10_000);

    assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(30));
    assertThat(seen).containsExactly(START.plusSeconds(10), START.plusSeconds(25));
  }

  @Test
  void clock_is_a_utc_view_of_the_virtual_time() {
    VirtualTime time = VirtualTime.create();
    java.time.Clock clock = time.clock();

    time.advance(Duration.ofMillis(1500));

    assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
    assertThat(clock.instant()).isEqualTo(START.plusMillis(1500));
    assertThat(clock.millis()).isEqualTo(START.toEpochMilli() + 1500);
    assertThat(clock.withZone(ZoneOffset.ofHours(2)).instant()).isEqualTo(START.plusMillis(1500));
    assertThat(clock).isEqualTo(time.clock()).isNotEqualTo(VirtualTime.create().clock());
  }

  @Test
  void drives_a_work_queue_delay() {
    VirtualTime time = VirtualTime.create();
    WorkQueue<String> queue = WorkQueue.<String>builder().withTimeSource(time).build();
    queue.addAfter("default/web", Duration.ofHours(1));

    time.advance(Duration.ofMinutes(59));
    assertThat(queue.stats().queuedKeys()).isEmpty();
    assertThat(queue.stats().waitingKeys()).containsExactly("default/web");

    time.advance(Duration.ofMinutes(1));
    assertThat(queue.stats().queuedKeys()).containsExactly("default/web");
    queue.shutDown();
  }
}
