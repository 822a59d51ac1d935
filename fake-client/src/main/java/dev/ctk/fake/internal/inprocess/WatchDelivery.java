package dev.ctk.fake.internal.inprocess;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of one cluster's in-process transport: they hand watch events to fabric8, serve delayed answers, and
 * serve requests that fabric8 sends from its own scheduler thread. One cached pool of daemon threads per cluster,
 * named {@code ctk-fake-<n>-watch-<k>} after the cluster ({@code ctk-fake-<n>}). Every watch drains its own queue
 * serially on it, so one thread hop per burst of events. It is the one place delivery is scheduled, so a test
 * scheduler could replace it later.
 *
 * <p>Why a cached pool with a long keep-alive, not a small fixed pool: a task handed over here may block (a request
 * waiting for the store lock), and a fixed pool would let it hold up every watch of the cluster. A cached pool
 * creates a thread when none is idle, and that can happen inside a write transaction (a watch event is scheduled
 * under the store lock); so an idle thread is kept for {@value #KEEP_ALIVE_SECONDS} seconds, not one: a test that
 * writes steadily reuses its threads, and creates one only when more watches are busy at once than before. The
 * threads are daemons and {@link #close()} stops them all.
 *
 * <p>{@link #execute} refuses ({@link RejectedExecutionException}) once the cluster is closed; callers decide what a
 * refused task means (a delayed request is dropped, a watch delivers its close on the caller's thread).
 *
 * <p>Drains that wait for an expected event ({@link WatchQueue#expectEvent}) are off unless the JVM runs with
 * {@code -D}{@value #WAIT_AHEAD_PROPERTY}{@code =true}: on a quiet Intel Xeon VM they took 9% to 15% off the p50 of a
 * create seen by an informer; on a quiet AMD EPYC VM they made it slower in 7 of 8 pairs (by 26% in the median
 * pair) and its p99.9 slower in all 8 (median 1.40 against 0.61 ms); with the other core busy they cost a few µs
 * (BENCHMARKS.md).
 */
final class WatchDelivery implements Executor, AutoCloseable {

  static final long KEEP_ALIVE_SECONDS = 60;
  private static final long STOP_SECONDS = 10;

  /**
   * How long a drain started ahead of an event ({@link WatchQueue#expectEvent}) waits for it: longer than a create's
   * own work before its event (about 35 µs on a 2-core machine), short enough that a write without an event (a
   * refused or no-op write) costs little.
   */
  static final long WAIT_NANOS = 100_000;

  /** The system property that lets drains wait for an expected event ({@code true}); they do not by default. */
  static final String WAIT_AHEAD_PROPERTY = "ctk.fake.waitAheadOfEvents";

  /** How many drains may wait for an expected event in this JVM (see {@link #waitersInThisJvm}). */
  private static final int WAITERS_IN_THIS_JVM =
      waitersInThisJvm(Boolean.getBoolean(WAIT_AHEAD_PROPERTY), Runtime.getRuntime().availableProcessors());

  /** The places of drains waiting for an expected event, across every cluster of the JVM: the cores are shared. */
  private static final Semaphore WAITING_IN_THIS_JVM = new Semaphore(WAITERS_IN_THIS_JVM);

  private final ExecutorService pool;
  private final Set<WatchQueue> open = ConcurrentHashMap.newKeySet();
  private final int waitersAtOnce;
  private final long waitNanos;
  private final Semaphore waiting;

  WatchDelivery(String clusterName) {
    this(threadsOf(clusterName), WAITERS_IN_THIS_JVM, WAIT_NANOS, WAITING_IN_THIS_JVM);
  }

  /**
   * Delivery on {@code pool} (tests give one that runs each task at once, or keeps it), with a count of waiting
   * drains of its own.
   *
   * @param waitersAtOnce how many drains may wait for an expected event at once
   * @param waitNanos how long such a drain waits
   */
  WatchDelivery(ExecutorService pool, int waitersAtOnce, long waitNanos) {
    this(pool, waitersAtOnce, waitNanos, new Semaphore(waitersAtOnce));
  }

  /**
   * Delivery on {@code pool}, its waiting drains taking places from {@code waiting}.
   *
   * @param waitersAtOnce how many places {@code waiting} has (for the clusters of a JVM: one core fewer than the
   *     machine has, so that a writer keeps one; none on a single core)
   */
  private WatchDelivery(ExecutorService pool, int waitersAtOnce, long waitNanos, Semaphore waiting) {
    this.pool = pool;
    this.waitersAtOnce = waitersAtOnce;
    this.waitNanos = waitNanos;
    this.waiting = waiting;
  }

  /**
   * How many drains may wait for an expected event at once in a JVM.
   *
   * @param waitAhead whether {@value #WAIT_AHEAD_PROPERTY} is {@code true}
   * @param cores the machine's cores
   * @return none unless {@code waitAhead}; then one core fewer than the machine has, so that a writer keeps one (none
   *     on a single core)
   */
  static int waitersInThisJvm(boolean waitAhead, int cores) {
    return waitAhead ? Math.max(0, cores - 1) : 0;
  }

  private static ExecutorService threadsOf(String clusterName) {
    AtomicInteger count = new AtomicInteger();
    return new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
        new SynchronousQueue<>(), runnable -> {
          Thread thread = new Thread(runnable, clusterName + "-watch-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  /**
   * Runs a task on a delivery thread.
   *
   * @throws RejectedExecutionException when the cluster is closed
   */
  @Override
  public void execute(Runnable task) {
    pool.execute(task);
  }

  /**
   * Takes one of the places for drains that wait for an expected event, if one is free; {@link #stopWaiting} gives
   * it back.
   */
  boolean startWaiting() {
    return waiting.tryAcquire();
  }

  /** Gives back a place taken by {@link #startWaiting}. */
  void stopWaiting() {
    waiting.release();
  }

  /** How many drains may wait for an expected event at once. */
  int waitersAtOnce() {
    return waitersAtOnce;
  }

  /** Whether this delivery and {@code other} count their waiting drains together (the clusters of one JVM do). */
  boolean sharesWaitingDrainsWith(WatchDelivery other) {
    return waiting == other.waiting;
  }

  /** How long a drain started ahead of an event waits for it. */
  long waitNanos() {
    return waitNanos;
  }

  /** A watch queue that delivers on these threads until it has delivered its close. */
  void opened(WatchQueue queue) {
    open.add(queue);
  }

  /** The queue delivered its close. */
  void ended(WatchQueue queue) {
    open.remove(queue);
  }

  /**
   * Tells every watch still open that the cluster is going away (each delivers its close now, without waiting for
   * its client to ask for the events still queued, as a closed connection would), lets the deliveries under way
   * finish (at most 10 seconds), then stops every thread.
   */
  @Override
  public void close() {
    for (WatchQueue queue : List.copyOf(open)) {
      queue.clusterClosed();
    }
    pool.shutdown();
    try {
      if (!pool.awaitTermination(STOP_SECONDS, TimeUnit.SECONDS)) {
        pool.shutdownNow();
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
