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

/**
 * A watch over a plain HTTP response (what kubectl {@code get -w}, client-go and fabric8 with
 * {@code onlyHttpWatches} use): status 200, {@code Transfer-Encoding: chunked}, one JSON event per line.
 *
 * <p>Runs on the Vert.x event loop and never blocks: events are queued to the connection's context and written
 * there in commit order. The response ends when the watch closes ({@code timeoutSeconds}, 410, cluster close) and
 * the watch closes when the client goes away.
 */
final class ChunkedWatchStream {

  private final Vertx vertx;
  private final ObjectStore store;
  private final ResourceRegistry registry;
  private final RequestJournal journal;

  ChunkedWatchStream(Vertx vertx, ObjectStore store, RequestJournal journal) {
    this.vertx = vertx;
    this.store = store;
    this.registry = store.registry();
    this.journal = journal;
  }

  void handle(HttpServerRequest request) {
    ApiRequest apiRequest = ApiRequest.from(request);
    HttpServerResponse response = request.response();
    PreparedWatch prepared;
    try {
      prepared = PreparedWatch.prepare(apiRequest, registry);
    } catch (ApiError e) {
      journal.record(apiRequest, e.code(), "http-watch");
      response.setStatusCode(e.code())
          .putHeader("Content-Type", "application/json")
          .end(JsonCodec.write(e.toStatus()));
      return;
    }
    journal.record(apiRequest, 200, "http-watch");
    response.setStatusCode(200)
        .setChunked(true)
        .putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "no-cache, private");
    Context context = Vertx.currentContext() != null ? Vertx.currentContext() : vertx.getOrCreateContext();
    // register first, then send the headers: a client that has seen the 200 knows its watch is in place
    Watch watch = WatchSessions.open(vertx, store, prepared, new Sink(context, response));
    response.writeHead();
    response.closeHandler(v -> watch.close());
    response.exceptionHandler(e -> watch.close());
  }

  private record Sink(Context context, HttpServerResponse response) implements WatchSink {
    @Override
    public void send(String eventJson) {
      context.runOnContext(v -> {
        if (!response.ended() && !response.closed()) {
          response.write(eventJson + "\n");
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
