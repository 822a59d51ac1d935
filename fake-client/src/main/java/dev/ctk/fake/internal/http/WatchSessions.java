package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import io.vertx.core.Vertx;

/** Opens a store watch for a transport and ends it when {@code timeoutSeconds} elapses. */
final class WatchSessions {

  private WatchSessions() {}

  /**
   * Opens the watch and, when the request asked for a timeout, arms a timer that closes it (clients such as
   * informers then re-watch from their last resourceVersion).
   */
  static Watch open(Vertx vertx, ObjectStore store, PreparedWatch prepared, WatchSink sink) {
    TimedSink timed = new TimedSink(vertx, sink);
    Watch watch = store.watch(prepared.type(), prepared.filter(), prepared.start(), timed);
    Long timeout = prepared.timeoutSeconds();
    if (timeout != null && timeout > 0 && !watch.isClosed()) {
      timed.arm(vertx.setTimer(timeout * 1000, id -> watch.close()));
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
