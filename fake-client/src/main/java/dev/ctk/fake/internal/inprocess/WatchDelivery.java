package dev.ctk.fake.internal.inprocess;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that hand in-process watch events (and delayed answers) to fabric8: one cached pool of daemon threads
 * per cluster, named {@code ctk-fake-watch-<n>}, each idle thread ending after a second. Every watch drains its own
 * queue serially on it, so one thread hop per burst of events. It is the one place delivery is scheduled, so a test
 * scheduler could replace it later.
 */
final class WatchDelivery implements Executor, AutoCloseable {

  private static final long STOP_SECONDS = 10;

  private final ThreadPoolExecutor pool;

  WatchDelivery(String clusterName) {
    AtomicInteger count = new AtomicInteger();
    this.pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 1, TimeUnit.SECONDS, new SynchronousQueue<>(),
        runnable -> {
          Thread thread = new Thread(runnable, clusterName + "-watch-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  /** Runs a task on a delivery thread; once the cluster is closed, the task is dropped. */
  @Override
  public void execute(Runnable task) {
    try {
      pool.execute(task);
    } catch (RejectedExecutionException e) {
      // the cluster is closed: nothing is delivered any more
    }
  }

  /** Lets the deliveries under way finish (at most 10 seconds), then stops every thread. */
  @Override
  public void close() {
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
