package dev.ctk.controller;

import java.time.Duration;
import java.time.Instant;

/**
 * The source of time for work queues, rate limiters and controllers: every delay, every backoff and
 * every reconcile timestamp in this package comes from a {@code TimeSource}. {@link #system()} (real
 * time) is the default everywhere; a test may supply a virtual one whose clock it advances, and then
 * {@code addAfter}, rate-limited retries and {@code Result.requeueAfter} all follow that clock.
 *
 * <p>Blocking bounds that limit how long a real thread waits ({@link WorkQueue#poll(Duration)},
 * {@link WorkQueue#shutDownWithDrain(Duration)}, the controller's cache sync and shutdown timeouts) are
 * always measured in real time: they bound threads, not the simulated world.
 *
 * <p>An implementation must run a task scheduled with {@link #schedule} once its delay has passed on
 * this source's clock, must not run it after it was cancelled, must not run it inside the
 * {@code schedule} call itself (a work queue stores the task's handle after {@code schedule} returns),
 * and must not hold a lock of its own while running it (tasks call back into work queues).
 *
 * <pre>{@code
 * TimeSource time = TimeSource.system();
 * TimeSource.ScheduledTask task = time.schedule(Duration.ofSeconds(5), () -> queue.add(key));
 * task.cancel();
 * }</pre>
 *
 * @since 0.1.0
 */
public interface TimeSource {

  /**
   * Real time: {@link System#nanoTime()}, {@link Instant#now()}, and a shared scheduler of daemon
   * threads named {@code ctk-timer-N} that exit about a second after nothing is scheduled.
   *
   * @return the system time source (a singleton)
   */
  static TimeSource system() {
    return SystemTimeSource.INSTANCE;
  }

  /**
   * A monotonic clock reading, in nanoseconds, only meaningful as a difference to another reading.
   *
   * @return the current reading
   */
  long nanoTime();

  /**
   * The wall clock.
   *
   * @return the current instant
   */
  Instant now();

  /**
   * Runs {@code task} once, after {@code delay} has passed on this source's clock. A delay of zero or
   * less runs the task as soon as possible (asynchronously for the system source).
   *
   * @param delay how long to wait
   * @param task what to run; exceptions it throws are logged and otherwise ignored
   * @return a handle to cancel the task
   */
  ScheduledTask schedule(Duration delay, Runnable task);

  /**
   * A task scheduled by {@link TimeSource#schedule}.
   *
   * @since 0.1.0
   */
  interface ScheduledTask {

    /**
     * Cancels the task if it has not run yet.
     *
     * @return {@code true} if this call prevented the task from running
     */
    boolean cancel();
  }
}
