package dev.ctk.fake.internal.http;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The writes of one watch's connection, run on its event loop in call order. A write is usually queued to the event
 * loop ({@link Context#runOnContext}), since it is asked for under the store lock. When the request being handled on
 * that same event loop asks for it ({@link #handling}), the write is kept instead, and runs as soon as the store lock
 * is released: before that request's answer is written ({@link #runKept}), or when its handler returns. So an
 * informer of the same server sees a write's event without waiting for the answer and a trip through the loop's
 * task queue.
 *
 * <pre>{@code
 * EventLoopWrites writes = new EventLoopWrites(context);   // made on the connection's event loop
 * writes.run(() -> socket.send(eventJson));               // queued, or kept for the request handled now
 * }</pre>
 *
 * <p>Order holds: a write is kept only while none of this connection's writes is queued, so one asked for earlier from
 * another thread (a delivery from the garbage collector, a bookmark) is never overtaken: then it queues too. Limits:
 * only a write asked for on the thread of the event loop the object was made on is kept, so one made off its loop
 * always queues; a write that throws is rethrown to Vert.x once the handler returned and every other write ran, so it
 * is reported on the context of the request that made it, where a queued one's is reported on the watch's.
 */
final class EventLoopWrites {

  /** The writes kept by the request handled on this thread now. */
  private static final ThreadLocal<Kept> KEPT = ThreadLocal.withInitial(Kept::new);

  private final Context context;
  private final Thread loop;
  private final AtomicInteger queued = new AtomicInteger();

  /**
   * Writes on {@code context}; those asked for on its event loop may be kept when this is made there.
   *
   * @param context the connection's context
   */
  EventLoopWrites(Context context) {
    this.context = context;
    this.loop = Vertx.currentContext() == context && Context.isOnEventLoopThread() ? Thread.currentThread() : null;
  }

  /**
   * Runs {@code write} on the event loop after every write asked for before it: kept for the request handled now
   * when that request is handled on this loop, else queued.
   *
   * @param write touches the connection; runs on its event loop
   */
  void run(Runnable write) {
    if (Thread.currentThread() == loop && queued.get() == 0) {
      Kept kept = KEPT.get();
      if (kept.open) {
        kept.writes.add(write);
        return;
      }
    }
    queued.incrementAndGet();
    context.runOnContext(v -> {
      queued.decrementAndGet();
      write.run();
    });
  }

  /**
   * Handles one request on the current event loop, then runs the writes it asked for that {@link #runKept} did not
   * run yet, in order. A nested call just runs {@code request}. Whatever the handler or a write throws, every kept
   * write runs and nothing stays kept for the next request.
   *
   * @param request the handler
   * @throws RuntimeException the first that the handler or a write threw (an {@link Error} as itself), once every
   *     write ran; later ones are suppressed by it
   */
  static void handling(Runnable request) {
    Kept kept = KEPT.get();
    if (kept.open) {
      request.run();
      return;
    }
    kept.open = true;
    try {
      request.run();
    } catch (Throwable e) {
      kept.failed(e);
    } finally {
      kept.open = false;
    }
    kept.runAll();
    Throwable failure = kept.failure;
    kept.failure = null;
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    if (failure != null) {
      throw new IllegalStateException(failure);   // a checked exception thrown through a Runnable
    }
  }

  /**
   * Runs, in order, the writes kept so far by the request handled on this thread (none outside {@link #handling}).
   * Called before an answer is written, with the store lock released; what a write throws is thrown by
   * {@link #handling} once the answer is written, not here.
   */
  static void runKept() {
    Kept kept = KEPT.get();
    if (kept.open) {
      kept.runAll();
    }
  }

  /** One thread's kept writes. */
  private static final class Kept {
    private final List<Runnable> writes = new ArrayList<>();
    private boolean open;
    private boolean running;
    private Throwable failure;

    /**
     * Runs every kept write, each even if one before it threw, and forgets them. A write kept meanwhile runs in the
     * same pass; a call from within a write returns at once, since the pass under way runs what was kept.
     */
    void runAll() {
      if (running) {
        return;
      }
      running = true;
      try {
        for (int i = 0; i < writes.size(); i++) {
          try {
            writes.get(i).run();
          } catch (Throwable e) {
            failed(e);
          }
        }
      } finally {
        writes.clear();
        running = false;
      }
    }

    void failed(Throwable e) {
      if (failure == null) {
        failure = e;
      } else if (failure != e) {
        failure.addSuppressed(e);
      }
    }
  }
}
