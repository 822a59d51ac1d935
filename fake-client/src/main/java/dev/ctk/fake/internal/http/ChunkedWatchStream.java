package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.function.IntConsumer;

/**
 * A watch over a plain HTTP response (what kubectl {@code get -w}, client-go and fabric8 with
 * {@code onlyHttpWatches} use): status 200, {@code Transfer-Encoding: chunked}, one JSON event per line.
 *
 * <p>Runs on the Vert.x event loop and never blocks: events are queued to the connection's context and written
 * there in commit order. The response ends when the watch closes ({@code timeoutSeconds}, 410, cluster close) and
 * the watch closes when the client goes away or stops reading (its write queue is full: see {@link WatchSessions}).
 */
final class ChunkedWatchStream {

  private final Vertx vertx;
  private final ObjectStore store;
  private final ResourceRegistry registry;

  ChunkedWatchStream(Vertx vertx, ObjectStore store) {
    this.vertx = vertx;
    this.store = store;
    this.registry = store.registry();
  }

  /**
   * Opens the watch and answers 200 with the stream, or answers the error that refused it.
   *
   * @param request the Vert.x request
   * @param apiRequest the same request, parsed
   * @param answered told the status code before anything is written (so the journal has the entry before the client
   *     sees the answer)
   */
  void handle(HttpServerRequest request, ApiRequest apiRequest, IntConsumer answered) {
    HttpServerResponse response = request.response();
    Context context = Vertx.currentContext() != null ? Vertx.currentContext() : vertx.getOrCreateContext();
    Sink sink = new Sink(context, response);
    Watch watch;
    try {
      // register before the headers go out: a client that has seen the 200 knows its watch is in place (the
      // events the sink queues meanwhile run on this event loop after this handler)
      watch = WatchSessions.open(vertx, store, PreparedWatch.prepare(apiRequest, registry), sink);
    } catch (ApiError e) {
      answered.accept(e.code());
      response.setStatusCode(e.code())
          .putHeader("Content-Type", "application/json")
          .end(JsonCodec.write(e.toStatus()));
      return;
    }
    answered.accept(200);
    sink.watch = watch;
    response.setStatusCode(200)
        .setChunked(true)
        .setWriteQueueMaxSize(WatchSessions.WRITE_QUEUE_BYTES)
        .putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "no-cache, private");
    response.writeHead();
    response.closeHandler(v -> watch.close());
    response.exceptionHandler(e -> watch.close());
  }

  /** Writes on the connection's event loop; closes the watch when the client stops reading. */
  private static final class Sink implements WatchSink {
    private final Context context;
    private final HttpServerResponse response;
    private volatile Watch watch;

    Sink(Context context, HttpServerResponse response) {
      this.context = context;
      this.response = response;
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
}
