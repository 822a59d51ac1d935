package dev.ctk.fake.internal.inprocess;

import dev.ctk.fake.internal.http.ApiExchange;
import dev.ctk.fake.internal.http.ApiRequest;
import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import io.fabric8.kubernetes.client.http.WebSocketUpgradeResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The two kinds of in-process {@link ApiExchange}: a request whose answer is an {@link HttpResponse} (complete, or an
 * HTTP-streaming watch), and a websocket upgrade whose answer is a {@link WebSocketResponse}.
 */
final class InProcessExchanges {

  /** What a dropped request looks like to the client, as the Vert.x client reports a closed connection. */
  static final String CONNECTION_CLOSED = "Connection was closed";

  private InProcessExchanges() {}

  /**
   * The request as the fake's handlers see it: raw path and query, header names lower-cased (values joined with a
   * comma), the content type fabric8 keeps apart from the headers, the body read whole.
   */
  static ApiRequest toApiRequest(StandardHttpRequest request, boolean webSocket) {
    Map<String, String> headers = new TreeMap<>();
    request.headers().forEach((k, v) -> headers.merge(k.toLowerCase(Locale.ROOT), String.join(",", v),
        (a, b) -> a + "," + b));
    if (request.getContentType() != null) {
      headers.put("content-type", request.getContentType());
    }
    if (webSocket) {
      headers.put("upgrade", "websocket");
      headers.put("connection", "Upgrade");
    }
    String query = request.uri().getRawQuery();
    String uri = request.uri().getRawPath() + (query == null ? "" : "?" + query);
    return ApiRequest.of(request.method(), uri, headers, body(request.body()));
  }

  private static byte[] body(StandardHttpRequest.BodyContent content) {
    if (content instanceof StandardHttpRequest.StringBodyContent text) {
      return text.getContent().getBytes(StandardCharsets.UTF_8);
    }
    if (content instanceof StandardHttpRequest.ByteArrayBodyContent bytes) {
      return bytes.getContent();
    }
    if (content instanceof StandardHttpRequest.InputStreamBodyContent stream) {
      try (InputStream in = stream.getContent()) {
        return in.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the request body: " + e.getMessage(), e);
      }
    }
    return null;
  }

  /** A request answered by an {@link HttpResponse}. */
  static final class Request implements ApiExchange {
    private final StandardHttpRequest request;
    private final ApiRequest api;
    private final AsyncBody.Consumer<List<ByteBuffer>> consumer;
    private final Executor delivery;
    private final ClientWatches watches;
    private final CompletableFuture<HttpResponse<AsyncBody>> answer = new CompletableFuture<>();
    private StreamingWatchBody stream;

    Request(StandardHttpRequest request, ApiRequest api, AsyncBody.Consumer<List<ByteBuffer>> consumer,
        Executor delivery, ClientWatches watches) {
      this.request = request;
      this.api = api;
      this.consumer = consumer;
      this.delivery = delivery;
      this.watches = watches;
    }

    CompletableFuture<HttpResponse<AsyncBody>> answer() {
      return answer;
    }

    @Override
    public ApiRequest request() {
      return api;
    }

    @Override
    public String transport(boolean watch) {
      return watch ? "in-process-http-watch" : "in-process";
    }

    @Override
    public void respond(int code, Map<String, List<String>> headers, byte[] body) {
      answer.complete(new CompleteBody(request, code, headers, body, consumer));
    }

    @Override
    public void drop() {
      answer.completeExceptionally(new IOException(CONNECTION_CLOSED));
    }

    @Override
    public WatchSink acceptWatch() {
      stream = new StreamingWatchBody(request, consumer, delivery);
      return stream;
    }

    @Override
    public void startWatch(Watch watch) {
      watches.add(watch);
      stream.start(watch);
      answer.complete(stream);
    }

    @Override
    public void execute(Runnable task) {
      delivery.execute(task);
    }
  }

  /** A websocket upgrade answered by a {@link WebSocketResponse}. */
  static final class Upgrade implements ApiExchange {
    private final StandardHttpRequest request;
    private final ApiRequest api;
    private final WebSocket.Listener listener;
    private final Executor delivery;
    private final ClientWatches watches;
    private final CompletableFuture<WebSocketResponse> answer = new CompletableFuture<>();
    private InProcessWebSocket socket;

    Upgrade(StandardHttpRequest request, ApiRequest api, WebSocket.Listener listener, Executor delivery,
        ClientWatches watches) {
      this.request = request;
      this.api = api;
      this.listener = listener;
      this.delivery = delivery;
      this.watches = watches;
    }

    CompletableFuture<WebSocketResponse> answer() {
      return answer;
    }

    @Override
    public ApiRequest request() {
      return api;
    }

    @Override
    public String transport(boolean watch) {
      return watch ? "in-process-websocket-watch" : "in-process";
    }

    /** The upgrade is refused with this answer (fabric8 reads the code; a websocket has no error body). */
    @Override
    public void respond(int code, Map<String, List<String>> headers, byte[] body) {
      answer.complete(new WebSocketResponse(new WebSocketUpgradeResponse(request, code, headers),
          new ProtocolException("Expected HTTP 101 response but was '" + code + "'")));
    }

    @Override
    public void drop() {
      answer.completeExceptionally(new IOException(CONNECTION_CLOSED));
    }

    @Override
    public WatchSink acceptWatch() {
      socket = new InProcessWebSocket(listener, delivery);
      return socket;
    }

    @Override
    public void startWatch(Watch watch) {
      watches.add(watch);
      listener.onOpen(socket);
      answer.complete(new WebSocketResponse(new WebSocketUpgradeResponse(request), socket));
      socket.start(watch);
    }

    @Override
    public void execute(Runnable task) {
      delivery.execute(task);
    }
  }
}
