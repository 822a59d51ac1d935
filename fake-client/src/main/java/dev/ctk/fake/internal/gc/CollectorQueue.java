package dev.ctk.fake.internal.gc;

import dev.ctk.controller.TimeSource;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collector's work queue and its one worker. Items are queued from store callbacks (under the store lock, on
 * whatever thread wrote), never run there when asynchronous: a daemon thread runs them in order, one at a time, and
 * exits when the queue has been empty for a second (the next item starts a new one). Synchronous, the thread whose
 * write queued the first item runs the queue dry before its write returns, as the fake always did.
 *
 * <p>An item may wait: {@link #addAfter} hands it to the {@link TimeSource} first (the namespace controller's grace
 * period), so with a {@code VirtualTime} it is queued when the test advances the clock that far.
 *
 * <p>{@link #awaitSettled} is the deterministic wait: it blocks on a condition the worker signals when the queue is
 * empty and nothing runs (with the system time source, nothing may wait on a timer either; with any other time
 * source, work waiting for a time the clock has not reached does not count). Lock order: the store lock, then this
 * queue's; this queue never calls the store while it holds its own lock.
 */
final class CollectorQueue implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CollectorQueue.class);

  /**
   * What keeps the queue from settling, one line per item ({@code running: ..}, {@code queued: ..}, {@code waiting:
   * ..}), and the items that wait for a clock the test moves (not awaited).
   */
  record Pending(List<String> items, List<String> notAwaited) {

    boolean settled() {
      return items.isEmpty();
    }
  }

  /** An item handed to the time source, and how to say when it will run. */
  private record Timed(WorkItem item, String when, TimeSource.ScheduledTask task) {
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition settled = lock.newCondition();
  private final Deque<WorkItem> queued = new ArrayDeque<>();
  private final Set<String> queuedKeys = new HashSet<>();
  private final Map<String, Timed> timed = new LinkedHashMap<>();
  private final boolean synchronous;
  private final TimeSource time;
  private final boolean timersCount;
  private final ThreadPoolExecutor worker;
  private WorkItem running;
  private boolean draining;
  private boolean closed;

  /**
   * Creates an empty queue (no thread is started yet).
   *
   * @param synchronous whether items run on the thread that queues them
   * @param time what {@link #addAfter} delays are measured on
   * @param threadName the worker thread's name
   */
  CollectorQueue(boolean synchronous, TimeSource time, String threadName) {
    this.synchronous = synchronous;
    this.time = time;
    this.timersCount = time == TimeSource.system();
    if (synchronous) {
      this.worker = null;
    } else {
      this.worker = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), runnable -> {
        Thread thread = new Thread(runnable, threadName);
        thread.setDaemon(true);
        return thread;
      });
      worker.allowCoreThreadTimeOut(true);
    }
  }

  /** Queues an item, unless one with its key waits already; synchronous, runs the queue dry first. */
  void add(WorkItem item) {
    boolean runHere;
    lock.lock();
    try {
      if (closed || !queuedKeys.add(item.key())) {
        return;
      }
      queued.add(item);
      runHere = !draining;
      draining = true;
    } finally {
      lock.unlock();
    }
    if (!runHere) {
      return;
    }
    if (synchronous) {
      drain();
      return;
    }
    try {
      worker.execute(this::drain);
    } catch (RejectedExecutionException e) {
      // closed meanwhile: nothing runs any more
      lock.lock();
      try {
        draining = false;
        settled.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /**
   * Queues an item once {@code delay} has passed on the time source (at once when the delay is zero, or when
   * synchronous). An item with the same key waiting already keeps its time, as a delaying work queue keeps the
   * earlier one.
   *
   * @param when how the timeout message says when it will run, e.g. {@code 5s after the delete}
   */
  void addAfter(Duration delay, WorkItem item, String when) {
    if (synchronous || delay.isZero()) {
      add(item);
      return;
    }
    lock.lock();
    try {
      if (closed || timed.containsKey(item.key())) {
        return;
      }
      // the time source never runs the task inside schedule(..), so recording it after is safe
      timed.put(item.key(), new Timed(item, when, time.schedule(delay, () -> due(item.key()))));
    } finally {
      lock.unlock();
    }
  }

  private void due(String key) {
    lock.lock();
    try {
      Timed entry = timed.remove(key);
      if (entry == null) {
        return;
      }
      // queued before this lock is released, so no waiter sees the queue settled in between
      add(entry.item());
      settled.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Runs queued items until none is left (on the worker, or on the writer's thread when synchronous). */
  private void drain() {
    while (true) {
      WorkItem item;
      lock.lock();
      try {
        item = closed ? null : queued.poll();
        if (item == null) {
          draining = false;
          settled.signalAll();
          return;
        }
        queuedKeys.remove(item.key());
        running = item;
      } finally {
        lock.unlock();
      }
      try {
        item.action().run();
      } catch (VirtualMachineError e) {
        throw e;
      } catch (RuntimeException | Error e) {
        LOG.warn("The fake's garbage collector failed to {}; it goes on with its other work", item.description(), e);
      } finally {
        lock.lock();
        try {
          running = null;
        } finally {
          lock.unlock();
        }
      }
    }
  }

  /**
   * Waits until the queue is empty and nothing runs (see the class documentation for timed items).
   *
   * @return what was still pending when the timeout passed ({@link Pending#settled()} when nothing was)
   * @throws InterruptedException when the waiting thread is interrupted
   */
  Pending awaitSettled(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (!isSettled()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return pending();
        }
        settled.awaitNanos(left);
      }
      return pending();
    } finally {
      lock.unlock();
    }
  }

  private boolean isSettled() {
    return closed || queued.isEmpty() && running == null && !draining && (!timersCount || timed.isEmpty());
  }

  private Pending pending() {
    List<String> items = new ArrayList<>();
    List<String> notAwaited = new ArrayList<>();
    if (running != null) {
      items.add("running: " + running.description());
    }
    for (WorkItem item : queued) {
      items.add("queued: " + item.description());
    }
    for (Timed entry : timed.values()) {
      (timersCount ? items : notAwaited).add("waiting: " + entry.item().description() + " (" + entry.when() + ")");
    }
    if (items.isEmpty() && !closed && draining) {
      items.add("running: the collector's thread, between two items");
    }
    return new Pending(items, notAwaited);
  }

  /** Drops every queued and timed item and stops the worker (an item running finishes its current store call). */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      queued.clear();
      queuedKeys.clear();
      timed.values().forEach(entry -> entry.task().cancel());
      timed.clear();
      settled.signalAll();
    } finally {
      lock.unlock();
    }
    if (worker != null) {
      worker.shutdownNow();
    }
  }
}
