package dev.ctk.fake.internal.inprocess;

import dev.ctk.fake.internal.http.ApiExchange;
import dev.ctk.fake.internal.http.ApiRequest;
import dev.ctk.fake.internal.status.ApiError;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpClient;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.StandardWebSocketBuilder;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A fabric8 HTTP client whose requests go to the fake's {@code RequestPipeline} on the caller's thread, without a
 * socket. fabric8's {@link StandardHttpClient} around it keeps doing retries, interceptors and body handling.
 * Closing it closes every watch it opened.
 */
final class InProcessHttpClient
    extends StandardHttpClient<InProcessHttpClient, InProcessHttpClientFactory, InProcessHttpClientBuilder> {

  private final ClientWatches watches;

  InProcessHttpClient(InProcessHttpClientBuilder builder, AtomicBoolean closed, ClientWatches watches) {
    super(builder, closed);
    this.watches = watches;
  }

  ClientWatches watches() {
    return watches;
  }

  private InProcessTransport transport() {
    return builder.getClientFactory().transport();
  }

  @Override
  public CompletableFuture<HttpResponse<AsyncBody>> consumeBytesDirect(StandardHttpRequest request,
      AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    InProcessTransport transport = transport();
    if (transport.isClosed()) {
      return CompletableFuture.failedFuture(refused(request));
    }
    InProcessExchanges.Request exchange = new InProcessExchanges.Request(request,
        InProcessExchanges.toApiRequest(request, false), consumer, transport.delivery(), watches);
    handle(transport, exchange);
    return exchange.answer();
  }

  @Override
  public CompletableFuture<WebSocketResponse> buildWebSocketDirect(StandardWebSocketBuilder webSocketBuilder,
      WebSocket.Listener listener) {
    InProcessTransport transport = transport();
    StandardHttpRequest request = webSocketBuilder.asHttpRequest();
    if (transport.isClosed()) {
      return CompletableFuture.failedFuture(refused(request));
    }
    InProcessExchanges.Upgrade exchange = new InProcessExchanges.Upgrade(request,
        InProcessExchanges.toApiRequest(request, true), listener, transport.delivery(), watches);
    handle(transport, exchange);
    return exchange.answer();
  }

  /**
   * Hands the request to the pipeline, unless this thread holds the store's write lock: the request would then run
   * inside the transaction of the write that called it (an admission hook calling the API), so it is answered 500
   * saying so.
   */
  private static void handle(InProcessTransport transport, ApiExchange exchange) {
    long sequence = transport.pipeline().journal().receive();
    Instant time = Instant.now();
    if (transport.pipeline().store().isLockedByCurrentThread()) {
      transport.pipeline().reject(exchange, sequence, time, ApiError.internal(reentered(exchange.request())));
      return;
    }
    transport.pipeline().handle(exchange, sequence, time);
  }

  static String reentered(ApiRequest request) {
    return "ctk in-process transport: " + request.method() + " " + request.path() + " was sent while the fake's "
        + "write lock is held by this thread (an admission hook or store callback called the cluster's API). Hooks "
        + "must not call the API server; compute what the hook needs from its AdmissionRequest instead.";
  }

  private static IOException refused(StandardHttpRequest request) {
    return new IOException("Connection refused: the ctk fake cluster behind " + request.uri().getHost()
        + " is closed (" + request.method() + " " + request.uri().getRawPath() + ")");
  }

  @Override
  protected void doClose() {
    watches.closeAll();
  }
}
