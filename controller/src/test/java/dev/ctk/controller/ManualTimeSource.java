package dev.ctk.controller;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A virtual clock for tests: time stands still until {@link #advance} moves it; tasks whose deadline
 * is reached run on the advancing thread, in deadline order, without any lock held.
 */
final class ManualTimeSource implements TimeSource {

  static final Instant EPOCH = Instant.parse("2025-01-01T00:00:00Z");

  private final PriorityQueue<Task> tasks = new PriorityQueue<>(
      Comparator.comparingLong((Task t) -> t.deadline).thenComparingLong(t -> t.sequence));
  private long nanos;
  private long sequence;

  @Override
  public synchronized long nanoTime() {
    return nanos;
  }

  @Override
  public synchronized Instant now() {
    return EPOCH.plusNanos(nanos);
  }

  @Override
  public synchronized ScheduledTask schedule(Duration delay, Runnable task) {
    Task scheduled = new Task(nanos + Math.max(0, delay.toNanos()), sequence++, task);
    tasks.add(scheduled);
    return () -> {
      synchronized (ManualTimeSource.this) {
        return tasks.remove(scheduled);
      }
    };
  }

  /** Moves the clock forward, running every task whose deadline is reached. */
  void advance(Duration duration) {
    long target;
    synchronized (this) {
      target = nanos + duration.toNanos();
    }
    while (true) {
      Task due;
      synchronized (this) {
        due = tasks.peek();
        if (due == null || due.deadline > target) {
          nanos = target;
          return;
        }
        tasks.poll();
        nanos = Math.max(nanos, due.deadline);
      }
      due.runnable.run();
    }
  }

  /** Deadlines of the pending tasks, as delays from now, earliest first. */
  synchronized List<Duration> pendingDelays() {
    List<Task> sorted = new ArrayList<>(tasks);
    sorted.sort(tasks.comparator());
    List<Duration> delays = new ArrayList<>();
    sorted.forEach(t -> delays.add(Duration.ofNanos(t.deadline - nanos)));
    return delays;
  }

  private record Task(long deadline, long sequence, Runnable runnable) {}
}
