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

  /**
   * What both kinds share: the request, the future fabric8 waits on, and where later answers are written from. An
   * answer the client no longer waits for (it timed out or cancelled) is not opened as a watch.
   */
  abstract static class Exchange<A> implements ApiExchange {
    final StandardHttpRequest request;
    private final ApiRequest api;
    final WatchDelivery delivery;
    final ClientWatches watches;
    final CompletableFuture<A> answer = new CompletableFuture<>();
    private final String watchTransport;

    Exchange(StandardHttpRequest request, ApiRequest api, WatchDelivery delivery, ClientWatches watches,
        String watchTransport) {
      this.request = request;
      this.api = api;
      this.delivery = delivery;
      this.watches = watches;
      this.watchTransport = watchTransport;
    }

    CompletableFuture<A> answer() {
      return answer;
    }

    @Override
    public ApiRequest request() {
      return api;
    }

    @Override
    public String transport(boolean watch) {
      return watch ? watchTransport : "in-process";
    }

    @Override
    public void drop() {
      answer.completeExceptionally(new IOException(CONNECTION_CLOSED));
    }

    /**
     * Opens a registered watch for the client: {@code start} starts the sink's delivery, {@code answer} is what the
     * client is given. A client that gave up before (its future is done) never sees it and the watch is closed; one
     * that gives up while it opens has it closed through {@code gone}.
     */
    final void open(Watch watch, WatchQueue sink, Runnable beforeStart, A opened) {
      if (answer.isDone()) {
        watch.close();
        return;
      }
      watches.add(watch::isClosed, watch::close);
      beforeStart.run();
      sink.start(watch);
      if (!answer.complete(opened)) {
        sink.clientGone();
      }
    }

    /** @throws java.util.concurrent.RejectedExecutionException when the cluster is closed */
    @Override
    public void execute(Runnable task) {
      delivery.execute(task);
    }
  }

  /** A request answered by an {@link HttpResponse}: complete, or an HTTP-streaming watch. */
  static final class Request extends Exchange<HttpResponse<AsyncBody>> {
    private final AsyncBody.Consumer<List<ByteBuffer>> consumer;
    private StreamingWatchBody stream;

    Request(StandardHttpRequest request, ApiRequest api, AsyncBody.Consumer<List<ByteBuffer>> consumer,
        WatchDelivery delivery, ClientWatches watches) {
      super(request, api, delivery, watches, "in-process-http-watch");
      this.consumer = consumer;
    }

    @Override
    public void respond(int code, Map<String, List<String>> headers, byte[] body) {
      answer.complete(InProcessResponse.complete(request, code, headers, body, consumer));
    }

    @Override
    public WatchSink acceptWatch() {
      stream = new StreamingWatchBody(consumer, delivery);
      return stream;
    }

    @Override
    public void startWatch(Watch watch) {
      open(watch, stream, () -> { }, new InProcessResponse(request, 200, StreamingWatchBody.headers(), stream));
    }
  }

  /** A websocket upgrade answered by a {@link WebSocketResponse}. */
  static final class Upgrade extends Exchange<WebSocketResponse> {
    private final WebSocket.Listener listener;
    private InProcessWebSocket socket;

    Upgrade(StandardHttpRequest request, ApiRequest api, WebSocket.Listener listener, WatchDelivery delivery,
        ClientWatches watches) {
      super(request, api, delivery, watches, "in-process-websocket-watch");
      this.listener = listener;
    }

    /** The upgrade is refused with this answer (fabric8 reads the code; a websocket has no error body). */
    @Override
    public void respond(int code, Map<String, List<String>> headers, byte[] body) {
      answer.complete(new WebSocketResponse(new WebSocketUpgradeResponse(request, code, headers),
          new ProtocolException("Expected HTTP 101 response but was '" + code + "'")));
    }

    @Override
    public WatchSink acceptWatch() {
      socket = new InProcessWebSocket(listener, delivery);
      return socket;
    }

    /** {@code onOpen}, then the socket starts, then the client has it: a close it sends at once is not lost. */
    @Override
    public void startWatch(Watch watch) {
      open(watch, socket, () -> listener.onOpen(socket),
          new WebSocketResponse(new WebSocketUpgradeResponse(request), socket));
    }
  }
}
