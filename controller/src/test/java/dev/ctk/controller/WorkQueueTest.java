package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

  private static final Duration NO_WAIT = Duration.ZERO;

  private final ManualTimeSource time = new ManualTimeSource();
  private final WorkQueue<String> queue = WorkQueue.<String>builder()
      .withName("test")
      .withTimeSource(time)
      .build();
  private final List<Thread> threads = new ArrayList<>();

  @AfterEach
  void shutDownQueue() throws InterruptedException {
    queue.shutDown();
    for (Thread thread : threads) {
      thread.join(5_000);
      assertThat(thread.isAlive()).as("test thread %s still alive", thread.getName()).isFalse();
    }
  }

  @Test
  void a_key_is_queued_at_most_once() throws InterruptedException {
    queue.add("a");
    queue.add("b");
    queue.add("a");

    assertThat(queue.depth()).isEqualTo(2);
    assertThat(queue.stats().queuedKeys()).containsExactly("a", "b");
    assertThat(queue.stats().adds()).isEqualTo(3);
    assertThat(queue.get()).contains("a");
    assertThat(queue.get()).contains("b");
    assertThat(queue.poll(NO_WAIT)).isEmpty();
  }

  @Test
  void keys_are_handed_out_in_the_order_they_were_added() throws InterruptedException {
    queue.add("c");
    queue.add("a");
    queue.add("b");

    assertThat(List.of(queue.get().orElseThrow(), queue.get().orElseThrow(),
        queue.get().orElseThrow())).containsExactly("c", "a", "b");
  }

  @Test
  void a_key_in_flight_is_not_handed_out_again_until_done() throws InterruptedException {
    queue.add("a");
    assertThat(queue.get()).contains("a");

    queue.add("a");
    queue.add("a");

    assertThat(queue.depth()).isZero();
    assertThat(queue.poll(NO_WAIT)).isEmpty();
    assertThat(queue.stats().inFlightKeys()).containsExactly("a");

    queue.done("a");

    assertThat(queue.depth()).isEqualTo(1);
    assertThat(queue.get()).contains("a");
    queue.done("a");
    assertThat(queue.depth()).isZero();
    assertThat(queue.stats().isIdle()).isTrue();
  }

  @Test
  void done_without_an_add_in_flight_does_not_requeue() throws InterruptedException {
    queue.add("a");
    queue.get();

    queue.done("a");

    assertThat(queue.depth()).isZero();
    assertThat(queue.stats().inFlightKeys()).isEmpty();
  }

  @Test
  void done_for_a_key_not_in_flight_changes_nothing() {
    queue.add("a");

    queue.done("a");
    queue.done("b");

    assertThat(queue.stats().queuedKeys()).containsExactly("a");
  }

  @Test
  void addAfter_queues_the_key_when_the_time_source_reaches_the_deadline() {
    queue.addAfter("a", Duration.ofSeconds(10));

    assertThat(queue.depth()).isZero();
    assertThat(queue.stats().waitingKeys()).containsExactly("a");

    time.advance(Duration.ofSeconds(10).minusNanos(1));
    assertThat(queue.depth()).isZero();

    time.advance(Duration.ofNanos(1));
    assertThat(queue.depth()).isEqualTo(1);
    assertThat(queue.stats().waitingKeys()).isEmpty();
  }

  @Test
  void addAfter_with_no_delay_adds_at_once() {
    queue.addAfter("a", Duration.ZERO);
    queue.addAfter("b", Duration.ofSeconds(-1));

    assertThat(queue.stats().queuedKeys()).containsExactly("a", "b");
    assertThat(time.pendingDelays()).isEmpty();
  }

  @Test
  void addAfter_keeps_the_earlier_deadline_when_the_later_comes_second() {
    queue.addAfter("a", Duration.ofSeconds(5));
    queue.addAfter("a", Duration.ofSeconds(10));

    assertThat(time.pendingDelays()).containsExactly(Duration.ofSeconds(5));
    time.advance(Duration.ofSeconds(5));
    assertThat(queue.depth()).isEqualTo(1);
    assertThat(queue.stats().adds()).isEqualTo(1);
  }

  @Test
  void addAfter_keeps_the_earlier_deadline_when_the_earlier_comes_second() {
    queue.addAfter("a", Duration.ofSeconds(10));
    queue.addAfter("a", Duration.ofSeconds(5));

    assertThat(time.pendingDelays())
        .as("the later timer is cancelled").containsExactly(Duration.ofSeconds(5));
    time.advance(Duration.ofSeconds(5));
    assertThat(queue.depth()).isEqualTo(1);
    time.advance(Duration.ofSeconds(10));
    assertThat(queue.stats().adds()).isEqualTo(1);
  }

  @Test
  void waiting_keys_are_listed_earliest_deadline_first() {
    queue.addAfter("late", Duration.ofSeconds(30));
    queue.addAfter("early", Duration.ofSeconds(1));
    queue.addAfter("middle", Duration.ofSeconds(10));

    assertThat(queue.stats().waitingKeys()).containsExactly("early", "middle", "late");
  }

  @Test
  void addRateLimited_backs_off_exponentially_per_key_on_the_time_source()
      throws InterruptedException {
    List<Duration> delays = new ArrayList<>();
    queue.addListener(new WorkQueueListener<>() {
      @Override
      public void onDelayed(String key, Duration delay) {
        delays.add(delay);
      }
    });
    RateLimiter<String> expected =
        RateLimiter.exponential(Duration.ofMillis(5), Duration.ofSeconds(1000));

    for (int retry = 0; retry < 6; retry++) {
      Duration backoff = expected.when("a");
      queue.addRateLimited("a");
      assertThat(queue.numRequeues("a")).isEqualTo(retry + 1);

      time.advance(backoff.minusNanos(1));
      assertThat(queue.depth()).as("retry %d is not due before %s", retry, backoff).isZero();
      time.advance(Duration.ofNanos(1));
      assertThat(queue.get()).as("retry %d is due after %s", retry, backoff).contains("a");
      queue.done("a");
    }

    assertThat(delays).containsExactly(Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(20), Duration.ofMillis(40), Duration.ofMillis(80),
        Duration.ofMillis(160));
    assertThat(queue.stats().retries()).isEqualTo(6);
  }

  @Test
  void addRateLimited_uses_the_overall_bucket_across_keys() {
    for (int i = 0; i < 100; i++) {
      queue.addRateLimited("key-" + i);
    }

    queue.addRateLimited("one-too-many");

    List<Duration> delays = time.pendingDelays();
    assertThat(delays).hasSize(101);
    assertThat(delays.subList(0, 100)).as("a burst of 100 retries waits only for the backoff")
        .containsOnly(Duration.ofMillis(5));
    assertThat(delays.get(100)).as("the 101st retry waits for a token at 10 per second")
        .isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void forget_resets_the_backoff_of_a_key() throws InterruptedException {
    queue.addRateLimited("a");
    queue.addRateLimited("a");
    queue.addRateLimited("a");
    assertThat(queue.numRequeues("a")).isEqualTo(3);

    queue.forget("a");

    assertThat(queue.numRequeues("a")).isZero();
    time.advance(Duration.ofSeconds(1));
    queue.get();
    queue.done("a");
    queue.addRateLimited("a");
    assertThat(time.pendingDelays()).containsExactly(Duration.ofMillis(5));
  }

  @Test
  void shutDown_wakes_callers_blocked_in_get() {
    AtomicReference<Optional<String>> result = new AtomicReference<>();
    Thread worker = startThread("blocked-get", () -> result.set(queue.get()));
    await("the worker blocks in get()").atMost(Duration.ofSeconds(5))
        .until(() -> worker.getState() == Thread.State.WAITING);

    queue.shutDown();

    await("get() returns after shutDown()").atMost(Duration.ofSeconds(5))
        .until(() -> result.get() != null);
    assertThat(result.get()).isEmpty();
    assertThat(queue.isShuttingDown()).isTrue();
  }

  @Test
  void shutDown_refuses_new_keys_drops_waiting_keys_and_still_hands_out_queued_keys()
      throws InterruptedException {
    List<String> dropped = new ArrayList<>();
    queue.addListener(new WorkQueueListener<>() {
      @Override
      public void onDropped(String key) {
        dropped.add(key);
      }
    });
    queue.add("queued");
    queue.addAfter("waiting", Duration.ofSeconds(1));

    queue.shutDown();
    queue.add("late");
    queue.addAfter("late-delayed", Duration.ofSeconds(1));
    queue.addRateLimited("late-retry");

    assertThat(dropped).containsExactly("waiting", "late", "late-delayed", "late-retry");
    assertThat(time.pendingDelays()).as("timers of dropped keys are cancelled").isEmpty();
    assertThat(queue.get()).contains("queued");
    assertThat(queue.get()).isEmpty();
    assertThat(queue.poll(Duration.ofSeconds(1))).isEmpty();
  }

  @Test
  void shutDownWithDrain_waits_until_keys_in_flight_are_done() throws InterruptedException {
    queue.add("a");
    queue.get();
    CompletableFuture<Boolean> drained = new CompletableFuture<>();
    Thread drainer = startThread("drainer",
        () -> drained.complete(queue.shutDownWithDrain(Duration.ofMinutes(1))));
    await("shutDownWithDrain waits").atMost(Duration.ofSeconds(5))
        .until(() -> drainer.getState() == Thread.State.TIMED_WAITING);
    assertThat(drained).isNotDone();
    assertThat(queue.isShuttingDown()).isTrue();

    queue.done("a");

    await("shutDownWithDrain returns after done()").atMost(Duration.ofSeconds(5))
        .until(drained::isDone);
    assertThat(drained.join()).isTrue();
  }

  @Test
  void shutDownWithDrain_returns_false_on_timeout() throws InterruptedException {
    queue.add("a");
    queue.get();

    assertThat(queue.shutDownWithDrain(Duration.ofMillis(20))).isFalse();
    assertThat(queue.stats().inFlightKeys()).containsExactly("a");
  }

  @Test
  void shutDownWithDrain_returns_true_at_once_when_nothing_is_in_flight() {
    assertThat(queue.shutDownWithDrain(Duration.ofMinutes(1))).isTrue();
  }

  @Test
  void stats_is_an_immutable_snapshot() throws InterruptedException {
    queue.add("in-flight");
    queue.get();
    queue.add("queued-1");
    queue.add("queued-2");
    queue.addAfter("waiting", Duration.ofSeconds(1));
    queue.addRateLimited("retried");

    WorkQueueStats stats = queue.stats();
    queue.add("later");

    assertThat(stats).isEqualTo(new WorkQueueStats("test", 2, List.of("queued-1", "queued-2"),
        List.of("in-flight"), List.of("retried", "waiting"), 3, 1, false));
    assertThatThrownBy(() -> stats.queuedKeys().add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void listeners_see_every_change_in_order() throws InterruptedException {
    List<String> events = new ArrayList<>();
    queue.addListener(new WorkQueueListener<>() {
      @Override
      public void onAdd(String key, boolean deduplicated) {
        events.add("add " + key + (deduplicated ? " (deduplicated)" : ""));
      }

      @Override
      public void onDelayed(String key, Duration delay) {
        events.add("delayed " + key + " " + delay);
      }

      @Override
      public void onHandedOut(String key) {
        events.add("handed out " + key);
      }

      @Override
      public void onDone(String key, boolean requeued) {
        events.add("done " + key + (requeued ? " (requeued)" : ""));
      }

      @Override
      public void onDropped(String key) {
        events.add("dropped " + key);
      }
    });

    queue.add("a");
    queue.add("a");
    queue.get();
    queue.add("a");
    queue.done("a");
    queue.get();
    queue.done("a");
    queue.addAfter("b", Duration.ofSeconds(1));
    time.advance(Duration.ofSeconds(1));
    queue.shutDown();
    queue.add("c");

    assertThat(events).containsExactly("add a", "add a (deduplicated)", "handed out a", "add a",
        "done a (requeued)", "handed out a", "done a", "delayed b PT1S", "add b", "dropped c");
  }

  @Test
  void a_failing_listener_does_not_break_the_queue() throws InterruptedException {
    queue.addListener(new WorkQueueListener<>() {
      @Override
      public void onAdd(String key, boolean deduplicated) {
        throw new IllegalStateException("listener bug");
      }
    });

    queue.add("a");

    assertThat(queue.get()).contains("a");
  }

  @Test
  void many_workers_never_hold_the_same_key_at_once() {
    WorkQueue<String> shared = WorkQueue.<String>builder().withName("shared").build();
    Set<String> inFlight = ConcurrentHashMap.newKeySet();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger processed = new AtomicInteger();
    for (int w = 0; w < 4; w++) {
      startThread("worker-" + w, () -> {
        for (Optional<String> key = shared.get(); key.isPresent(); key = shared.get()) {
          if (!inFlight.add(key.get())) {
            overlaps.incrementAndGet();
          }
          shared.add(key.get());
          Thread.yield();
          inFlight.remove(key.get());
          processed.incrementAndGet();
          shared.done(key.get());
        }
      });
    }
    for (int i = 0; i < 2_000; i++) {
      shared.add("key-" + (i % 3));
    }
    await("workers processed 2,000 keys").atMost(Duration.ofSeconds(30))
        .until(() -> processed.get() >= 2_000);
    shared.shutDown();
    await("workers finished").atMost(Duration.ofSeconds(10)).until(() -> shared.stats().isIdle()
        && threads.stream().noneMatch(Thread::isAlive));

    assertThat(overlaps.get()).as("times a key was held by two workers at once").isZero();
  }

  @Test
  void a_builder_builds_once() {
    WorkQueue.Builder<String> builder = WorkQueue.<String>builder().withName("once");
    builder.build();

    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("This WorkQueue.Builder already built work queue \"once\". Use a new "
            + "WorkQueue.builder() for another queue.");
  }

  @Test
  void close_shuts_the_queue_down() {
    queue.close();

    assertThat(queue.isShuttingDown()).isTrue();
    assertThat(queue.stats().shuttingDown()).isTrue();
  }

  @Test
  void an_error_thrown_by_onHandedOut_leaves_the_queue_consistent() throws InterruptedException {
    queue.addListener(new WorkQueueListener<>() {
      @Override
      public void onHandedOut(String key) {
        throw new AssertionError("listener bug in onHandedOut");
      }
    });
    queue.add("a");

    assertThat(queue.get()).as("get() hands the key out despite the listener").contains("a");
    queue.add("a");
    assertThat(queue.stats().inFlightKeys()).containsExactly("a");
    queue.done("a");
    assertThat(queue.stats().queuedKeys()).as("re-queued once after done").containsExactly("a");
    assertThat(queue.get()).contains("a");
    queue.done("a");
    assertThat(queue.shutDownWithDrain(Duration.ofSeconds(5))).isTrue();
  }

  @Test
  void an_error_thrown_by_onDone_still_wakes_shutDownWithDrain() throws InterruptedException {
    queue.addListener(new WorkQueueListener<>() {
      @Override
      public void onDone(String key, boolean requeued) {
        throw new AssertionError("listener bug in onDone");
      }
    });
    queue.add("a");
    queue.get();
    CompletableFuture<Boolean> drained = new CompletableFuture<>();
    Thread drainer = startThread("drainer",
        () -> drained.complete(queue.shutDownWithDrain(Duration.ofMinutes(5))));
    await("shutDownWithDrain waits").atMost(Duration.ofSeconds(5))
        .until(() -> drainer.getState() == Thread.State.TIMED_WAITING);

    queue.done("a");

    await("shutDownWithDrain returns after done()").atMost(Duration.ofSeconds(5))
        .until(drained::isDone);
    assertThat(drained.join()).isTrue();
    assertThat(queue.stats().inFlightKeys()).isEmpty();
  }

  @Test
  void an_error_thrown_by_onAdd_still_queues_the_key() throws InterruptedException {
    queue.addListener(new WorkQueueListener<>() {
      @Override
      public void onAdd(String key, boolean deduplicated) {
        throw new AssertionError("listener bug in onAdd");
      }
    });

    queue.add("a");

    assertThat(queue.stats().queuedKeys()).containsExactly("a");
    assertThat(queue.get()).contains("a");
  }

  @Test
  void a_virtual_machine_error_of_a_listener_propagates_after_the_queue_changed() {
    InternalError fatal = new InternalError("simulated JVM failure");
    queue.addListener(new WorkQueueListener<>() {
      @Override
      public void onAdd(String key, boolean deduplicated) {
        throw fatal;
      }
    });

    assertThatThrownBy(() -> queue.add("a")).isSameAs(fatal);
    assertThat(queue.stats().queuedKeys()).containsExactly("a");
  }

  @Test
  void addAfter_leaves_the_queue_unchanged_when_the_time_source_cannot_schedule() {
    SchedulingTimeSource scheduling = new SchedulingTimeSource(time);
    WorkQueue<String> delayed = WorkQueue.<String>builder().withName("delayed")
        .withTimeSource(scheduling).build();
    delayed.addAfter("kept", Duration.ofSeconds(10));
    scheduling.failure = new IllegalStateException("scheduler rejected the task");

    assertThatThrownBy(() -> delayed.addAfter("new", Duration.ofSeconds(1)))
        .isSameAs(scheduling.failure);
    assertThatThrownBy(() -> delayed.addAfter("kept", Duration.ofSeconds(1)))
        .isSameAs(scheduling.failure);

    assertThat(delayed.stats().waitingKeys()).containsExactly("kept");
    assertThat(time.pendingDelays()).as("the 10s timer of \"kept\" is not cancelled")
        .containsExactly(Duration.ofSeconds(10));
    delayed.shutDown();
    assertThat(delayed.stats().waitingKeys()).isEmpty();
    assertThat(time.pendingDelays()).isEmpty();
  }

  @Test
  void addRateLimited_counts_no_retry_when_the_rate_limiter_throws() {
    IllegalStateException failure = new IllegalStateException("rate limiter bug");
    WorkQueue<String> limited = WorkQueue.<String>builder().withName("limited")
        .withTimeSource(time)
        .withRateLimiter(new RateLimiter<>() {
          @Override
          public Duration when(String item) {
            throw failure;
          }

          @Override
          public void forget(String item) {}

          @Override
          public int numRequeues(String item) {
            return 0;
          }
        })
        .build();

    assertThatThrownBy(() -> limited.addRateLimited("a")).isSameAs(failure);

    assertThat(limited.stats().retries()).isZero();
    assertThat(limited.stats().isIdle()).isTrue();
  }

  @Test
  void shutDownWithDrain_can_leave_out_the_callers_own_key() throws InterruptedException {
    queue.add("own");
    queue.add("other");
    queue.get();
    queue.get();
    CompletableFuture<Boolean> drained = new CompletableFuture<>();
    Thread drainer = startThread("drainer",
        () -> drained.complete(queue.shutDownWithDrain(Duration.ofMinutes(5), "own")));
    await("shutDownWithDrain waits for \"other\"").atMost(Duration.ofSeconds(5))
        .until(() -> drainer.getState() == Thread.State.TIMED_WAITING);
    assertThat(drained).isNotDone();

    queue.done("other");

    await("shutDownWithDrain returns while \"own\" is in flight").atMost(Duration.ofSeconds(5))
        .until(drained::isDone);
    assertThat(drained.join()).isTrue();
    assertThat(queue.stats().inFlightKeys()).containsExactly("own");
  }

  /** Delegates to a manual clock; {@code schedule} throws {@link #failure} when it is set. */
  private static final class SchedulingTimeSource implements TimeSource {
    private final ManualTimeSource clock;
    volatile RuntimeException failure;

    SchedulingTimeSource(ManualTimeSource clock) {
      this.clock = clock;
    }

    @Override
    public long nanoTime() {
      return clock.nanoTime();
    }

    @Override
    public java.time.Instant now() {
      return clock.now();
    }

    @Override
    public ScheduledTask schedule(Duration delay, Runnable task) {
      if (failure != null) {
        throw failure;
      }
      return clock.schedule(delay, task);
    }
  }

  private interface Body {
    void run() throws Exception;
  }

  private Thread startThread(String name, Body body) {
    Thread thread = new Thread(() -> {
      try {
        body.run();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, "test-" + name);
    thread.setDaemon(true);
    threads.add(thread);
    thread.start();
    return thread;
  }
}
