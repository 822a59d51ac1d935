package dev.ctk.controller;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link TimeSource} whose clock moves only when the test calls {@link #advance}: delays, backoff,
 * {@code Result.requeueAfter}, resyncs and lease durations of everything built on it then take no real
 * time, so a one-hour requeue is tested in milliseconds.
 *
 * <pre>{@code
 * VirtualTime time = VirtualTime.create();               // 2030-01-01T00:00:00Z, always
 * Controller controller = Controller.builder("nginx-service")
 *     .withTimeSource(time) ... .build().start();
 * time.advance(Duration.ofHours(1));                     // runs the one-hour requeue now
 * FakeCluster cluster = FakeCluster.builder().withClock(time.clock()).build();
 * }</pre>
 *
 * <p><b>How tasks run.</b> {@link #advance} runs, on the calling thread, every task whose deadline falls
 * within the step, in deadline order and, for equal deadlines, in the order they were scheduled; while
 * a task runs, {@link #now()} is its deadline. Tasks scheduled by those tasks run within the same step
 * if their deadline falls within it. Afterwards {@code now()} is the start of the step plus the step. No
 * lock of this object is held while a task runs. A task that throws is logged and the step goes on.
 *
 * <p><b>Steps and worker threads.</b> The clock is deterministic, the threads that use it are not: a
 * reconcile runs on a worker thread, and a {@code requeueAfter} it schedules while a step is in progress is
 * timed from wherever that step has got to. Advance in steps no longer than the shortest interval a test
 * cares about, and wait (with a bound) for the effect of each step before the next.
 *
 * <p><b>Zero or negative delays</b> are not timed: such a task runs as soon as possible on a daemon
 * thread named {@code ctk-virtual-time} (never inside {@code schedule}), whether or not anyone
 * advances the clock. Code that must be deterministic should use a positive delay.
 *
 * <p><b>Threads.</b> Reading the clock and scheduling are thread-safe. Steps are serialized: if two
 * threads call {@code advance} at once, the second waits until the first step ended, then advances from
 * the time the first one reached. A task calling {@code advance} (or {@code advanceTo}) is refused with
 * an {@link IllegalStateException}; it would otherwise wait for itself.
 *
 * @since 0.1.0
 */
public final class VirtualTime implements TimeSource {

  /** Where {@link #create()} starts: a fixed instant, so timestamps in tests are reproducible. */
  public static final Instant DEFAULT_START = Instant.parse("2030-01-01T00:00:00Z");

  private static final Logger LOG = LoggerFactory.getLogger(VirtualTime.class);
  private static final String THREAD_NAME = "ctk-virtual-time";

  private final Instant start;
  private final PriorityQueue<Task> tasks = new PriorityQueue<>(
      Comparator.comparingLong(Task::deadline).thenComparingLong(Task::sequence));
  private final AtomicInteger asyncPending = new AtomicInteger();
  private final ThreadPoolExecutor asyncRunner;
  private long nanos;
  private long sequence;
  private Thread advancing;

  private VirtualTime(Instant start) {
    this.start = start;
    asyncRunner = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        runnable -> {
          Thread thread = new Thread(runnable, THREAD_NAME);
          thread.setDaemon(true);
          return thread;
        });
    asyncRunner.allowCoreThreadTimeOut(true);
  }

  /**
   * A virtual clock at {@link #DEFAULT_START} (2030-01-01T00:00:00Z), with nothing scheduled.
   *
   * @return a new virtual time
   */
  public static VirtualTime create() {
    return new VirtualTime(DEFAULT_START);
  }

  /**
   * A virtual clock at {@code start}, with nothing scheduled.
   *
   * @param start the first value of {@link #now()}
   * @return a new virtual time
   */
  public static VirtualTime startingAt(Instant start) {
    return new VirtualTime(Objects.requireNonNull(start, "VirtualTime.startingAt: start is null"));
  }

  /**
   * Nanoseconds since this virtual time was created (0 at creation); moves only with {@link #advance}.
   *
   * @return the reading
   */
  @Override
  public synchronized long nanoTime() {
    return nanos;
  }

  @Override
  public synchronized Instant now() {
    return start.plusNanos(nanos);
  }

  /**
   * How far the clock moved since this virtual time was created.
   *
   * @return the elapsed virtual time
   */
  public synchronized Duration elapsed() {
    return Duration.ofNanos(nanos);
  }

  /**
   * Schedules {@code task} at {@code now() + delay}. A positive delay runs it during the
   * {@link #advance} call that reaches its deadline; zero or less runs it asynchronously on the
   * {@code ctk-virtual-time} thread, as soon as possible.
   *
   * @param delay how long to wait on this clock
   * @param task what to run; exceptions it throws are logged and otherwise ignored
   * @return a handle to cancel the task
   */
  @Override
  public ScheduledTask schedule(Duration delay, Runnable task) {
    Objects.requireNonNull(delay, "VirtualTime.schedule: delay is null");
    Objects.requireNonNull(task, "VirtualTime.schedule: task is null");
    if (delay.isZero() || delay.isNegative()) {
      return runAsync(task);
    }
    Task scheduled;
    synchronized (this) {
      long deadline = saturatedAdd(nanos, SystemTimeSource.saturatedNanos(delay));
      scheduled = new Task(deadline, sequence++, task);
      tasks.add(scheduled);
    }
    return () -> {
      synchronized (VirtualTime.this) {
        return tasks.remove(scheduled);
      }
    };
  }

  private ScheduledTask runAsync(Runnable task) {
    AtomicBoolean claimed = new AtomicBoolean();
    asyncPending.incrementAndGet();
    asyncRunner.execute(() -> {
      if (claimed.compareAndSet(false, true)) {
        asyncPending.decrementAndGet();
        runQuietly(task);
      }
    });
    return () -> {
      boolean cancelled = claimed.compareAndSet(false, true);
      if (cancelled) {
        asyncPending.decrementAndGet();
      }
      return cancelled;
    };
  }

  /**
   * Moves the clock forward by {@code step}, running every task whose deadline falls within it (see
   * the class documentation for the order). Waits if another thread is advancing.
   *
   * @param step how far to move, zero or more
   * @throws IllegalArgumentException if {@code step} is negative or moves the clock past about 292
   *     years after its start
   * @throws IllegalStateException if called by a task this virtual time runs
   */
  public void advance(Duration step) {
    Objects.requireNonNull(step, "VirtualTime.advance: step is null");
    if (step.isNegative()) {
      throw new IllegalArgumentException("VirtualTime.advance(" + step + "): time cannot go back; "
          + "the clock is at " + now() + ". Pass a duration of zero or more.");
    }
    beginStep("advance(" + step + ")");
    try {
      long target;
      synchronized (this) {
        try {
          target = Math.addExact(nanos, step.toNanos());
        } catch (ArithmeticException overflow) {
          throw new IllegalArgumentException("VirtualTime.advance(" + step + "): the clock at "
              + now() + " cannot move that far (at most about 292 years after its start "
              + start + ").", overflow);
        }
      }
      runUntil(target);
    } finally {
      endStep();
    }
  }

  /**
   * Moves the clock forward to {@code instant}, as {@link #advance} would.
   *
   * @param instant where to move, not before {@link #now()}
   * @throws IllegalArgumentException if {@code instant} is before {@link #now()}
   * @throws IllegalStateException if called by a task this virtual time runs
   */
  public void advanceTo(Instant instant) {
    Objects.requireNonNull(instant, "VirtualTime.advanceTo: instant is null");
    beginStep("advanceTo(" + instant + ")");
    try {
      long target;
      synchronized (this) {
        Instant now = now();
        if (instant.isBefore(now)) {
          throw new IllegalArgumentException("VirtualTime.advanceTo(" + instant + "): time cannot "
              + "go back; the clock is already at " + now + ". Pass an instant at or after it.");
        }
        try {
          target = Math.addExact(nanos, Duration.between(now, instant).toNanos());
        } catch (ArithmeticException overflow) {
          throw new IllegalArgumentException("VirtualTime.advanceTo(" + instant + "): the clock at "
              + now + " cannot move that far (at most about 292 years after its start " + start
              + ").", overflow);
        }
      }
      runUntil(target);
    } finally {
      endStep();
    }
  }

  private void runUntil(long target) {
    while (true) {
      Task due;
      synchronized (this) {
        due = tasks.peek();
        if (due == null || due.deadline() > target) {
          nanos = target;
          return;
        }
        tasks.poll();
        nanos = Math.max(nanos, due.deadline());
      }
      runQuietly(due.runnable());
    }
  }

  private synchronized void beginStep(String call) {
    Thread current = Thread.currentThread();
    if (advancing == current) {
      throw new IllegalStateException("VirtualTime." + call + " was called by a task that the "
          + "clock is running (at " + now() + "); a task cannot move the clock it runs on. Schedule "
          + "follow-up work with schedule(delay, task) instead.");
    }
    boolean interrupted = false;
    while (advancing != null) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    advancing = current;
    if (interrupted) {
      current.interrupt();
    }
  }

  private synchronized void endStep() {
    advancing = null;
    notifyAll();
  }

  /**
   * A {@link Clock} in UTC that reads this virtual time, e.g. for
   * {@code FakeCluster.builder().withClock(time.clock())} so the fake's timestamps follow it.
   *
   * @return a clock view of this virtual time
   */
  public Clock clock() {
    return new VirtualClock(this, ZoneOffset.UTC);
  }

  /**
   * How many tasks were scheduled and have neither run nor been cancelled (timed ones, and zero-delay
   * ones not yet picked up by the {@code ctk-virtual-time} thread).
   *
   * @return the number of pending tasks
   */
  public synchronized int pendingTasks() {
    return tasks.size() + asyncPending.get();
  }

  /**
   * How long until the earliest pending timed task is due; {@link Duration#ZERO} when a zero-delay
   * task is waiting for the {@code ctk-virtual-time} thread.
   *
   * @return the delay, or empty when nothing is pending
   */
  public synchronized Optional<Duration> untilNextTask() {
    if (asyncPending.get() > 0) {
      return Optional.of(Duration.ZERO);
    }
    Task next = tasks.peek();
    return next == null ? Optional.empty() : Optional.of(Duration.ofNanos(next.deadline() - nanos));
  }

  @Override
  public synchronized String toString() {
    return "VirtualTime[now=" + now() + ", elapsed=" + elapsed() + ", pendingTasks="
        + pendingTasks() + "]";
  }

  private static void runQuietly(Runnable task) {
    try {
      task.run();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (RuntimeException | Error e) {
      LOG.warn("A task scheduled on virtual time failed; the clock goes on", e);
    }
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  private record Task(long deadline, long sequence, Runnable runnable) {}

  /** A read-only clock view; equal views read the same virtual time in the same zone. */
  private static final class VirtualClock extends Clock {
    private final VirtualTime time;
    private final ZoneId zone;

    VirtualClock(VirtualTime time, ZoneId zone) {
      this.time = time;
      this.zone = zone;
    }

    @Override
    public ZoneId getZone() {
      return zone;
    }

    @Override
    public Clock withZone(ZoneId newZone) {
      return new VirtualClock(time, Objects.requireNonNull(newZone, "zone is null"));
    }

    @Override
    public Instant instant() {
      return time.now();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof VirtualClock that && that.time == time && that.zone.equals(zone);
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(time) * 31 + zone.hashCode();
    }

    @Override
    public String toString() {
      return "VirtualTime.clock()[" + time.now() + ", " + zone + "]";
    }
  }
}
