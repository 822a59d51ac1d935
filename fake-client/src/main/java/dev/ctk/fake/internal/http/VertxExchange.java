package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.vertx.ServerWebSocketHandler;
import io.netty.buffer.Unpooled;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A request that arrived over the Vert.x HTTP server: answers are written to its response, HTTP-streaming watches
 * by a {@link ChunkedWatchStream}, websocket watches through mockwebserver's {@link ServerWebSocketHandler} upgrade
 * to a {@link WebSocketWatch}. Every answer is written on the connection's event loop.
 */
final class VertxExchange implements ApiExchange {

  private final Vertx vertx;
  private final Context context;
  private final HttpServerRequest request;
  private final ApiRequest api;
  private ChunkedWatchStream chunked;
  private WebSocketWatch socket;

  VertxExchange(Vertx vertx, Context context, HttpServerRequest request, ApiRequest api) {
    this.vertx = vertx;
    this.context = context;
    this.request = request;
    this.api = api;
  }

  @Override
  public ApiRequest request() {
    return api;
  }

  @Override
  public String transport(boolean watch) {
    if (!watch) {
      return "http";
    }
    return api.isWebSocketUpgrade() ? "websocket-watch" : "http-watch";
  }

  @Override
  public void respond(int code, Map<String, List<String>> headers, byte[] body) {
    EventLoopWrites.runKept();   // the watch events of this request's write go first
    request.resume();
    HttpServerResponse out = request.response();
    out.setStatusCode(code);
    headers.forEach((key, values) -> out.headers().add(key, values));
    if (body.length > 0) {
      // wrapped, not copied: the body array is never changed once answered
      out.end(io.vertx.core.buffer.Buffer.buffer(Unpooled.wrappedBuffer(body)));
    } else {
      out.end();
    }
  }

  @Override
  public void drop() {
    request.connection().close();
  }

  @Override
  public WatchSink acceptWatch() {
    if (api.isWebSocketUpgrade()) {
      socket = new WebSocketWatch(vertx, context);
      return socket.sink();
    }
    chunked = new ChunkedWatchStream(context, request.response());
    return chunked;
  }

  @Override
  public void startWatch(Watch watch) {
    if (chunked != null) {
      chunked.start(watch);
      return;
    }
    socket.attach(watch);
    MockResponse response = new MockResponse().setResponseCode(101).withWebSocketUpgrade(socket);
    RecordedRequest recorded = new RecordedRequest(request.version().alpnName().toUpperCase(Locale.ROOT),
        io.fabric8.mockwebserver.dsl.HttpMethod.fromVertx(request.method()), request.uri(),
        Headers.builder().addAll(request.headers()).build(), new Buffer((byte[]) null));
    request.toWebSocket()
        .onFailure(e -> {
          watch.close();
          if (!request.response().headWritten()) {
            request.response().setStatusCode(500).setStatusMessage(String.valueOf(e.getMessage())).end();
          }
        })
        .onSuccess(new ServerWebSocketHandler(recorded, response));
  }

  @Override
  public void execute(Runnable task) {
    context.runOnContext(v -> task.run());
  }
}
