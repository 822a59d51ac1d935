package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Opens a store watch for a transport and ends it when {@code timeoutSeconds} elapses.
 *
 * <p>Both transports also end a watch whose client does not keep up: when the connection's write queue (at most
 * {@link #WRITE_QUEUE_BYTES}) is full, the watch is closed, as kube-apiserver closes a watcher whose buffer stays
 * full. The client sees its stream end and re-watches from its last resourceVersion.
 */
final class WatchSessions {

  /** Bytes a watch connection may have queued for a client that does not read before the watch is closed. */
  static final int WRITE_QUEUE_BYTES = 8 * 1024 * 1024;

  private WatchSessions() {}

  /**
   * Opens the watch and, when the request asked for a timeout, arms a timer that closes it (clients such as
   * informers then re-watch from their last resourceVersion). The timer is armed first and the watch registered
   * last, so nothing that can fail runs after the store knows the watch: a failure leaves no watch behind.
   */
  static Watch open(Vertx vertx, ObjectStore store, PreparedWatch prepared, WatchSink sink) {
    TimedSink timed = new TimedSink(vertx, sink);
    AtomicReference<Watch> opened = new AtomicReference<>();
    AtomicBoolean expired = new AtomicBoolean();
    Long timeout = prepared.timeoutSeconds();
    if (timeout != null && timeout > 0) {
      timed.arm(vertx.setTimer(TimeUnit.SECONDS.toMillis(timeout), id -> {
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
    return watch;
  }

  /** Cancels the timeout timer when the watch ends for another reason. */
  private static final class TimedSink implements WatchSink {
    private final Vertx vertx;
    private final WatchSink delegate;
    private volatile long timer = -1;
    private volatile boolean closed;

    TimedSink(Vertx vertx, WatchSink delegate) {
      this.vertx = vertx;
      this.delegate = delegate;
    }

    void arm(long timerId) {
      this.timer = timerId;
      if (closed) {
        vertx.cancelTimer(timerId);
      }
    }

    /** Cancels the timer without closing the transport (the watch could not be opened). */
    void cancel() {
      closed = true;
      if (timer >= 0) {
        vertx.cancelTimer(timer);
      }
    }

    @Override
    public void send(String eventJson) {
      delegate.send(eventJson);
    }

    @Override
    public void close() {
      closed = true;
      if (timer >= 0) {
        vertx.cancelTimer(timer);
      }
      delegate.close();
    }
  }
}
