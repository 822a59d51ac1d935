package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.watch.EventText;
import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Opens a store watch for a transport, ends it when {@code timeoutSeconds} elapses and, when the client asked for
 * them ({@code allowWatchBookmarks=true}), sends BOOKMARK events as kube-apiserver's watch cache does: one every
 * bookmark interval ({@link dev.ctk.fake.internal.watch.WatchHub#bookmarkInterval()}, a minute by default) and one
 * about 2 seconds before the watch's {@code timeoutSeconds} deadline, each carrying only the kind, apiVersion and the
 * current resourceVersion. Bookmarks are sent under the store lock, so one never overtakes an event it covers.
 *
 * <p>Both transports also end a watch whose client does not keep up: when the connection's write queue (at most
 * {@link #WRITE_QUEUE_BYTES}) is full, the watch is closed, as kube-apiserver closes a watcher whose buffer stays
 * full. The client sees its stream end and re-watches from its last resourceVersion.
 *
 * <p>Timeouts and bookmarks run on the cluster's timer (one daemon thread); its tasks only close a watch or take the
 * store lock briefly for a bookmark.
 */
public final class WatchSessions {

  /** Bytes a watch connection may have queued for a client that does not read before the watch is closed. */
  public static final int WRITE_QUEUE_BYTES = 8 * 1024 * 1024;

  private WatchSessions() {}

  /**
   * Opens the watch and, when the request asked for a timeout, arms a timer that closes it (clients such as
   * informers then re-watch from their last resourceVersion). The timer is armed first and the watch registered
   * last, so nothing that can fail runs after the store knows the watch: a failure leaves no watch behind.
   */
  static Watch open(ScheduledExecutorService timer, ObjectStore store, PreparedWatch prepared, WatchSink sink) {
    TimedSink timed = new TimedSink(sink);
    AtomicReference<Watch> opened = new AtomicReference<>();
    AtomicBoolean expired = new AtomicBoolean();
    Long timeout = prepared.timeoutSeconds();
    if (timeout != null && timeout > 0) {
      timed.arm(schedule(timer, TimeUnit.SECONDS.toMillis(timeout), () -> {
        expired.set(true);
        Watch watch = opened.get();
        if (watch != null) {
          watch.close();
        }
      }));
    }
    Watch watch;
    try {
      watch = store.watch(prepared.type(), prepared.filter(), prepared.start(), timed);
    } catch (RuntimeException e) {
      timed.cancel();
      throw e;
    }
    opened.set(watch);
    if (expired.get()) {
      watch.close();
    }
    if (prepared.allowBookmarks() && !watch.isClosed()) {
      long deadline = timeout != null && timeout > 0
          ? System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout) - TimeUnit.SECONDS.toNanos(PRE_DEADLINE_SECONDS)
          : Long.MAX_VALUE;
      new Bookmarks(timer, store, prepared, watch, timed, deadline).scheduleNext();
    }
    return watch;
  }

  /** How long before a watch's deadline kube sends its last bookmark. */
  static final long PRE_DEADLINE_SECONDS = 2;

  /** Schedules a task, or returns {@code null} when the timer is shut down (the cluster is closing). */
  private static ScheduledFuture<?> schedule(ScheduledExecutorService timer, long millis, Runnable task) {
    try {
      return timer.schedule(task, Math.max(1, millis), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      return null;
    }
  }

  /** A chain of one-shot timers: the next bookmark is due after the interval, or at the pre-deadline time. */
  private static final class Bookmarks {
    private final ScheduledExecutorService timer;
    private final ObjectStore store;
    private final PreparedWatch prepared;
    private final Watch watch;
    private final TimedSink sink;
    private final long preDeadline;
    private final long intervalNanos;

    Bookmarks(ScheduledExecutorService timer, ObjectStore store, PreparedWatch prepared, Watch watch, TimedSink sink,
        long preDeadline) {
      this.timer = timer;
      this.store = store;
      this.prepared = prepared;
      this.watch = watch;
      this.sink = sink;
      this.preDeadline = preDeadline;
      this.intervalNanos = store.watchHub().bookmarkInterval().toNanos();
    }

    void scheduleNext() {
      long now = System.nanoTime();
      boolean last = preDeadline != Long.MAX_VALUE && preDeadline - now <= intervalNanos;
      long delayNanos = last ? preDeadline - now : intervalNanos;
      if (last && delayNanos <= 0) {
        return;
      }
      sink.armBookmark(schedule(timer, TimeUnit.NANOSECONDS.toMillis(delayNanos), () -> {
        send();
        if (!last) {
          scheduleNext();
        }
      }));
    }

    private void send() {
      store.inTransaction(() -> {
        if (!watch.isClosed()) {
          store.watchHub().bookmark(watch, store.bookmark(prepared.type(), java.util.Map.of()));
        }
        return null;
      });
    }
  }

  /** Cancels the timeout timer when the watch ends for another reason. */
  private static final class TimedSink implements WatchSink {
    private final WatchSink delegate;
    private volatile ScheduledFuture<?> timer;
    private volatile ScheduledFuture<?> bookmarkTimer;
    private volatile boolean closed;

    TimedSink(WatchSink delegate) {
      this.delegate = delegate;
    }

    void arm(ScheduledFuture<?> timeout) {
      this.timer = timeout;
      if (closed) {
        cancel(timeout);
      }
    }

    /** Records the pending bookmark timer, so that closing the watch cancels it. */
    void armBookmark(ScheduledFuture<?> next) {
      this.bookmarkTimer = next;
      if (closed) {
        cancel(next);
      }
    }

    /** Cancels the timer without closing the transport (the watch could not be opened). */
    void cancel() {
      closed = true;
      cancel(timer);
    }

    @Override
    public void send(String eventJson) {
      delegate.send(eventJson);
    }

    @Override
    public void send(EventText event) {
      delegate.send(event);
    }

    @Override
    public void expectEvent(int watchesTold) {
      delegate.expectEvent(watchesTold);
    }

    @Override
    public void close() {
      closed = true;
      cancel(timer);
      cancel(bookmarkTimer);
      delegate.close();
    }

    private static void cancel(ScheduledFuture<?> future) {
      if (future != null) {
        future.cancel(false);
      }
    }
  }
}
