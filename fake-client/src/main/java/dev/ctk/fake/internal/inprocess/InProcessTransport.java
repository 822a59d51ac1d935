package dev.ctk.fake.internal.inprocess;

import dev.ctk.fake.internal.http.ApiRequest;
import dev.ctk.fake.internal.http.RequestPipeline;
import dev.ctk.fake.internal.status.ApiError;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiFunction;

/**
 * One cluster's in-process transport: the {@link InProcessServer} that hands its clients' requests to the fake's
 * {@code RequestPipeline}, the fabric8 {@link HttpClient.Factory} those clients use, and the threads that deliver
 * watch events to them. A request runs on the caller's thread, except when fabric8 sends it from its JVM-wide
 * scheduler thread (a retry after a backoff, a watch reconnect), then on the cluster's
 * {@link dev.ctk.fake.values.WatchDelivery} threads, so that a request waiting for the store lock never holds up that
 * one thread every fabric8 client's timeouts and retries run on. {@link #close()} (when the cluster closes) has every
 * open watch deliver its close, lets pending deliveries finish and stops those threads; later requests fail as a
 * refused connection would.
 */
public final class InProcessTransport implements InProcessServer, AutoCloseable {

  /**
   * How fabric8 7.8.0 names the threads of its shared scheduler ({@code Utils.schedule}, a
   * {@code CachedSingleThreadScheduler}); pinned by a test that sends a request from that thread.
   */
  static final String FABRIC8_SCHEDULER_THREAD = "CachedSingleThreadScheduler-";

  private final RequestPipeline pipeline;
  private final String masterUrl;
  private final WatchDelivery delivery;
  private final InProcessHttpClientFactory factory;
  private volatile boolean closed;

  /**
   * Creates the transport of one cluster.
   *
   * @param pipeline the cluster's request pipeline
   * @param name the cluster's name, e.g. {@code ctk-fake-3}: delivery threads are {@code <name>-watch-<n>}, and the
   *     master URL in-process clients show is {@code http://<name>.invalid}
   */
  public InProcessTransport(RequestPipeline pipeline, String name) {
    this.pipeline = pipeline;
    this.masterUrl = "http://" + name + ".invalid";
    this.delivery = new WatchDelivery(name);
    this.factory = new InProcessHttpClientFactory(this);
  }

  /** The factory for fabric8's {@code KubernetesClientBuilder.withHttpClientFactory}. */
  public HttpClient.Factory factory() {
    return factory;
  }

  @Override
  public String masterUrl() {
    return masterUrl;
  }

  @Override
  public CompletableFuture<HttpResponse<AsyncBody>> answer(StandardHttpRequest request,
      AsyncBody.Consumer<List<ByteBuffer>> consumer, ClientWatches watches) {
    return send(request, false,
        (api, deliveryThreads) -> new InProcessExchanges.Request(request, api, consumer, deliveryThreads, watches));
  }

  @Override
  public CompletableFuture<WebSocketResponse> openWebSocket(StandardHttpRequest request, WebSocket.Listener listener,
      ClientWatches watches) {
    return send(request, true,
        (api, deliveryThreads) -> new InProcessExchanges.Upgrade(request, api, listener, deliveryThreads, watches));
  }

  /** From now on requests fail as a refused connection would (the cluster is closing). */
  public void refuseRequests() {
    closed = true;
  }

  /**
   * Refuses further requests, has every open watch deliver its close now (what it still queued is discarded), lets
   * the deliveries under way finish and stops the threads.
   */
  @Override
  public void close() {
    closed = true;
    delivery.close();
  }

  /** A request of an open client: refused once the cluster is closed, else handed to the pipeline. */
  private <A> CompletableFuture<A> send(StandardHttpRequest request, boolean webSocket,
      BiFunction<ApiRequest, WatchDelivery, InProcessExchanges.Exchange<A>> exchangeFor) {
    if (closed) {
      return CompletableFuture.failedFuture(refused(request));
    }
    InProcessExchanges.Exchange<A> exchange =
        exchangeFor.apply(InProcessExchanges.toApiRequest(request, webSocket), delivery);
    handle(exchange);
    return exchange.answer();
  }

  /**
   * Hands the request to the pipeline, unless this thread holds the store's write lock: the request would then run
   * inside the transaction of the write that called it (an admission hook calling the API), so it is answered 400,
   * which fabric8 does not retry (a retry would come from another thread and wait for the lock the hook holds).
   */
  private void handle(InProcessExchanges.Exchange<?> exchange) {
    long sequence = pipeline.journal().receive();
    Instant time = Instant.now();
    if (pipeline.store().isLockedByCurrentThread()) {
      pipeline.reject(exchange, sequence, time, ApiError.badRequest(reentered(exchange.request())));
      return;
    }
    if (Thread.currentThread().getName().startsWith(FABRIC8_SCHEDULER_THREAD)) {
      try {
        exchange.execute(() -> pipeline.handle(exchange, sequence, time));
      } catch (RejectedExecutionException e) {
        exchange.drop(); // the cluster closed meanwhile: as a connection closed under the request
      }
      return;
    }
    pipeline.handle(exchange, sequence, time);
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
}
