package dev.ctk.controller;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Real time. The only place in this package that reads the system clocks. */
final class SystemTimeSource implements TimeSource {

  static final SystemTimeSource INSTANCE = new SystemTimeSource();

  private static final Logger LOG = LoggerFactory.getLogger(SystemTimeSource.class);
  private static final long KEEP_ALIVE_MILLIS = 1_000;

  private final ScheduledThreadPoolExecutor scheduler;

  private SystemTimeSource() {
    AtomicInteger threadNumber = new AtomicInteger();
    scheduler = new ScheduledThreadPoolExecutor(2, runnable -> {
      Thread thread = new Thread(runnable, "ctk-timer-" + threadNumber.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    scheduler.setKeepAliveTime(KEEP_ALIVE_MILLIS, TimeUnit.MILLISECONDS);
    scheduler.allowCoreThreadTimeOut(true);
    scheduler.setRemoveOnCancelPolicy(true);
    scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public ScheduledTask schedule(Duration delay, Runnable task) {
    long nanos = Math.max(0, saturatedNanos(delay));
    ScheduledFuture<?> future = scheduler.schedule(() -> {
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        LOG.warn("A task scheduled on the system time source failed", e);
      }
    }, nanos, TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }

  @Override
  public String toString() {
    return "TimeSource.system()";
  }

  static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException overflow) {
      return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
