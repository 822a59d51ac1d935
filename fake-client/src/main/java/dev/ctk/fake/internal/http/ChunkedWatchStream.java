package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import io.vertx.core.Context;
import io.vertx.core.http.HttpServerResponse;

/**
 * A watch over a plain HTTP response (what kubectl {@code get -w}, client-go and fabric8 with
 * {@code onlyHttpWatches} use): status 200, {@code Transfer-Encoding: chunked}, one JSON event per line.
 *
 * <p>Runs on the Vert.x event loop and never blocks: events are queued to the connection's context and written
 * there in commit order. The {@link RequestPipeline} registers the watch before {@link #start} writes the headers
 * (the events queued meanwhile run on the event loop after the handler). The response ends when the watch closes
 * ({@code timeoutSeconds}, 410, cluster close) and the watch closes when the client goes away or stops reading (its
 * write queue is full: see {@link WatchSessions}).
 */
final class ChunkedWatchStream implements WatchSink {

  private final Context context;
  private final HttpServerResponse response;
  private volatile Watch watch;

  ChunkedWatchStream(Context context, HttpServerResponse response) {
    this.context = context;
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
    context.runOnContext(v -> {
      if (!response.ended() && !response.closed()) {
        response.write(eventJson + "\n");
        Watch w = watch;
        if (w != null && response.writeQueueFull()) {
          w.close();
        }
      }
    });
  }

  @Override
  public void close() {
    context.runOnContext(v -> {
      if (!response.ended() && !response.closed()) {
        response.end();
      }
    });
  }
}
