package dev.ctk.fake.internal.inprocess;

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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;

/**
 * A fabric8 HTTP client whose requests go to the fake's {@code RequestPipeline} without a socket: on the caller's
 * thread, except when fabric8 sends them from its JVM-wide scheduler thread (a retry after a backoff, a watch
 * reconnect), then on the cluster's {@link dev.ctk.fake.values.WatchDelivery} threads, so that a request waiting for the store lock never
 * holds up that one thread every fabric8 client's timeouts and retries run on. fabric8's {@link StandardHttpClient}
 * around it keeps doing retries, interceptors and body handling. Closing it closes every watch it opened; a closed
 * client fails as fabric8's Vert.x client does.
 */
final class InProcessHttpClient
    extends StandardHttpClient<InProcessHttpClient, InProcessHttpClientFactory, InProcessHttpClientBuilder> {

  /**
   * How fabric8 7.8.0 names the threads of its shared scheduler ({@code Utils.schedule}, a
   * {@code CachedSingleThreadScheduler}); pinned by a test that sends a request from that thread.
   */
  static final String FABRIC8_SCHEDULER_THREAD = "CachedSingleThreadScheduler-";

  /** How fabric8's Vert.x client fails a request or websocket on a closed client (Vert.x's own words). */
  static final String CLIENT_CLOSED = "Client is closed";

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
    requireOpen();
    return send(request, false,
        (api, delivery) -> new InProcessExchanges.Request(request, api, consumer, delivery, watches));
  }

  @Override
  public CompletableFuture<WebSocketResponse> buildWebSocketDirect(StandardWebSocketBuilder webSocketBuilder,
      WebSocket.Listener listener) {
    if (isClosed()) {
      // as fabric8's Vert.x client answers (while its event loop is still there; after, it throws
      // RejectedExecutionException)
      return CompletableFuture.failedFuture(new IllegalStateException(CLIENT_CLOSED));
    }
    StandardHttpRequest request = webSocketBuilder.asHttpRequest();
    return send(request, true,
        (api, delivery) -> new InProcessExchanges.Upgrade(request, api, listener, delivery, watches));
  }

  /** A request of an open client: refused once the cluster is closed, else handed to the pipeline. */
  private <A> CompletableFuture<A> send(StandardHttpRequest request, boolean webSocket,
      BiFunction<ApiRequest, WatchDelivery, InProcessExchanges.Exchange<A>> exchangeFor) {
    InProcessTransport transport = transport();
    if (transport.isClosed()) {
      return CompletableFuture.failedFuture(refused(request));
    }
    InProcessExchanges.Exchange<A> exchange =
        exchangeFor.apply(InProcessExchanges.toApiRequest(request, webSocket), transport.delivery());
    handle(transport, exchange);
    return exchange.answer();
  }

  private void requireOpen() {
    if (isClosed()) {
      throw new IllegalStateException(CLIENT_CLOSED);
    }
  }

  /**
   * Hands the request to the pipeline, unless this thread holds the store's write lock: the request would then run
   * inside the transaction of the write that called it (an admission hook calling the API), so it is answered 400,
   * which fabric8 does not retry (a retry would come from another thread and wait for the lock the hook holds).
   */
  private static void handle(InProcessTransport transport, InProcessExchanges.Exchange<?> exchange) {
    long sequence = transport.pipeline().journal().receive();
    Instant time = Instant.now();
    if (transport.pipeline().store().isLockedByCurrentThread()) {
      transport.pipeline().reject(exchange, sequence, time, ApiError.badRequest(reentered(exchange.request())));
      return;
    }
    if (Thread.currentThread().getName().startsWith(FABRIC8_SCHEDULER_THREAD)) {
      try {
        exchange.execute(() -> transport.pipeline().handle(exchange, sequence, time));
      } catch (RejectedExecutionException e) {
        exchange.drop(); // the cluster closed meanwhile: as a connection closed under the request
      }
      return;
    }
    transport.pipeline().handle(exchange, sequence, time);
  }

  static String reentered(ApiRequest request) {
    return "ctk in-process transport: " + request.method() + " " + request.path() + " was sent while the fake's "
        + "write lock is held by this thread (an admission hook or store callback called the cluster's API), so it "
        + "was refused with 400, which clients do not retry. Hooks must not call the API server; compute what the "
        + "hook needs from its AdmissionRequest instead.";
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
