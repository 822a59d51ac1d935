package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import io.vertx.core.Context;
import io.vertx.core.http.HttpServerResponse;

/**
 * A watch over a plain HTTP response (what kubectl {@code get -w}, client-go and fabric8 with
 * {@code onlyHttpWatches} use): status 200, {@code Transfer-Encoding: chunked}, one JSON event per line.
 *
 * <p>Runs on the Vert.x event loop and never blocks: events are written on the connection's event loop in commit
 * order, through {@link EventLoopWrites} (so the event of a write made by a request on the same loop goes out before
 * that request's answer). The {@link RequestPipeline} registers the watch before {@link #start} writes the headers
 * (the events sent meanwhile are written when the handler returns). The response ends when the watch closes
 * ({@code timeoutSeconds}, 410, cluster close) and the watch closes when the client goes away or stops reading (its
 * write queue is full: see {@link WatchSessions}).
 */
final class ChunkedWatchStream implements WatchSink {

  private final EventLoopWrites writes;
  private final HttpServerResponse response;
  private volatile Watch watch;

  ChunkedWatchStream(Context context, HttpServerResponse response) {
    this.writes = new EventLoopWrites(context);
    this.response = response;
  }

  /** Writes the 200 headers; from now on the client's going away closes the watch. */
  void start(Watch opened) {
    this.watch = opened;
    response.setStatusCode(200)
        .setChunked(true)
        .setWriteQueueMaxSize(WatchSessions.WRITE_QUEUE_BYTES)
        .putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "no-cache, private");
    response.writeHead();
    response.closeHandler(v -> opened.close());
    response.exceptionHandler(e -> opened.close());
  }

  @Override
  public void send(String eventJson) {
    writes.run(() -> {
      if (streaming()) {
        response.write(eventJson + "\n");
        Watch w = watch;
        if (w != null && response.writeQueueFull()) {
          w.close();
        }
      }
    });
  }

  /**
   * Whether the stream is open: its head written by {@link #start} and not ended. A watch refused after it was
   * registered gets an error answer instead of a head; what it was sent before the refusal is dropped.
   */
  private boolean streaming() {
    return response.headWritten() && !response.ended() && !response.closed();
  }

  @Override
  public void close() {
    writes.run(() -> {
      if (streaming()) {
        response.end();
      }
    });
  }
}
