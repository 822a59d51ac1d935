package dev.ctk.fake.internal.http;

import dev.ctk.fake.ApiRequestRecord;
import dev.ctk.fake.internal.fault.FaultAction;
import dev.ctk.fake.internal.fault.FaultEngine;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ObjectStore;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.vertx.ServerWebSocketHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The fake API server's HTTP endpoint: its own Vert.x instance and HTTP/1.1 server (plain HTTP, websocket
 * sub-protocols as mockwebserver sets them). Every request is handled in the same steps: take its journal sequence
 * number on arrival, read its body, describe it as a journal record, let the {@link FaultEngine} decide whether a
 * fault rule fires (an error Status, a delay, a dropped connection), then serve it: HTTP-streaming watches by
 * {@link ChunkedWatchStream}, everything else, websocket watches included, by ctk's {@link ApiDispatcher} (its
 * answers are written here, websocket upgrades through mockwebserver's {@link ServerWebSocketHandler}). The journal
 * entry is added before the answer is written, so a client that has its answer finds its request in the journal.
 */
public final class FakeHttpServer implements AutoCloseable {

  private static final List<String> WEBSOCKET_SUB_PROTOCOLS =
      List.of("v1.channel.k8s.io", "v2.channel.k8s.io", "v3.channel.k8s.io", "v4.channel.k8s.io");
  private static final long STOP_SECONDS = 10;
  private static final java.util.Set<HttpMethod> SERVED_METHODS = java.util.Set.of(HttpMethod.GET, HttpMethod.POST,
      HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);

  private final ObjectStore store;
  private final RequestJournal journal;
  private final FaultEngine faults;
  private ApiDispatcher dispatcher;
  private ChunkedWatchStream httpWatches;
  private final String host;
  private final int requestedPort;
  private Vertx vertx;
  private HttpServer server;
  private volatile int port;

  /**
   * Creates a server (not started).
   *
   * @param store the storage it serves
   * @param journal where answered requests are recorded
   * @param faults the fault rules every request is checked against
   * @param host interface to bind
   * @param port port to bind, 0 for a free one
   */
  public FakeHttpServer(ObjectStore store, RequestJournal journal, FaultEngine faults, String host, int port) {
    this.store = store;
    this.journal = journal;
    this.faults = faults;
    this.host = host;
    this.requestedPort = port;
  }

  /**
   * Binds and starts serving.
   *
   * @throws ListenException when the port is in use or the host cannot be listened on
   */
  public synchronized void start() throws ListenException {
    vertx = Vertx.vertx(new VertxOptions()
        .setEventLoopPoolSize(2)
        .setWorkerPoolSize(1)
        .setInternalBlockingPoolSize(1)
        .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
            .setClassPathResolvingEnabled(false)));
    HttpServerOptions options = new HttpServerOptions()
        .setHost(host)
        .setPort(requestedPort)
        .setWebSocketSubProtocols(WEBSOCKET_SUB_PROTOCOLS)
        .setHandle100ContinueAutomatically(true)
        .setHttp2ClearTextEnabled(false)
        .setMaxInitialLineLength(64 * 1024)
        .setMaxHeaderSize(64 * 1024);
    dispatcher = new ApiDispatcher(vertx, store, this::address);
    httpWatches = new ChunkedWatchStream(vertx, store);
    server = vertx.createHttpServer(options);
    server.requestHandler(request -> {
      if (!SERVED_METHODS.contains(request.method())) {
        request.response().setStatusCode(405).putHeader("Content-Type", "application/json")
            .end(JsonCodec.write(ApiError.methodNotAllowed(
                "the server does not allow this method on the requested resource").toStatus()));
      } else {
        receive(request);
      }
    });
    try {
      port = await(server.listen()).actualPort();
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      stopVertx();
      throw new ListenException(host, requestedPort, cause);
    }
  }

  /** The bound port. */
  public int port() {
    return port;
  }

  /** The bound host. */
  public String host() {
    return host;
  }

  /** {@code host:port}. */
  public String address() {
    return host + ":" + port;
  }

  /** Stops accepting connections, closes open connections and stops every Vert.x thread. Idempotent. */
  @Override
  public synchronized void close() {
    if (server != null) {
      try {
        await(server.close());
      } catch (RuntimeException e) {
        // closing anyway: Vert.x closes what is left below
      }
      server = null;
    }
    stopVertx();
  }

  private void stopVertx() {
    if (vertx != null) {
      try {
        VertxInternal internal = (VertxInternal) vertx;
        await(vertx.close());
        // Vert.x completes close() before its Netty threads have exited; wait for them so that close() leaves no
        // thread of this server behind.
        internal.getEventLoopGroup().terminationFuture().awaitUninterruptibly(STOP_SECONDS, TimeUnit.SECONDS);
        internal.getAcceptorEventLoopGroup().terminationFuture()
            .awaitUninterruptibly(STOP_SECONDS, TimeUnit.SECONDS);
      } finally {
        vertx = null;
      }
    }
  }

  /**
   * A request arrived: takes its sequence number and time, reads its body (a websocket upgrade is paused instead,
   * until it is upgraded or refused), then decides faults and serves it.
   */
  private void receive(HttpServerRequest request) {
    long sequence = journal.receive();
    Instant time = Instant.now();
    if (isUpgrade(request)) {
      request.pause();
      decide(request, sequence, time, null);
      return;
    }
    request.body().onSuccess(body -> decide(request, sequence, time, body == null ? null : body.getBytes()));
    request.resume();
  }

  private void decide(HttpServerRequest request, long sequence, Instant time, byte[] body) {
    ApiRequest api = ApiRequest.from(request, body);
    ApiRequestRecord pending = api.describe(sequence, time, store.registry());
    Optional<FaultEngine.Fired> fired;
    try {
      fired = faults.decide(pending);
    } catch (RuntimeException e) {
      // a pattern's where(..) condition threw: answer 500 naming it rather than leaving the client hanging
      ApiError error = ApiError.internal("ctk fault rule failed on " + pending.describeRequest() + ": " + e);
      journal.record(api, pending, error.code(), false, null, transport(api));
      refuse(request, error, null);
      return;
    }
    if (fired.isEmpty()) {
      serve(request, api, pending, null);
      return;
    }
    FaultAction action = fired.get().action();
    String fault = action.description();
    if (action instanceof FaultAction.Respond respond) {
      ApiError error = respond.error().apply(api.faultTarget(store.registry()));
      journal.record(api, pending, error.code(), false, fault, transport(api));
      refuse(request, error, respond.retryAfterSeconds());
    } else if (action instanceof FaultAction.Delay delay) {
      vertx.setTimer(Math.max(1, delay.delay().toMillis()), id -> serve(request, api, pending, fault));
    } else {
      journal.record(api, pending, 0, false, fault, transport(api));
      request.connection().close();
    }
  }

  private void serve(HttpServerRequest request, ApiRequest api, ApiRequestRecord pending, String fault) {
    if (PreparedWatch.isWatch(api) && !api.isWebSocketUpgrade()) {
      httpWatches.handle(request, api, code -> journal.record(api, pending, code, false, fault, "http-watch"));
      return;
    }
    ApiDispatcher.Answer answer = dispatcher.dispatch(api);
    MockResponse response = answer.response();
    journal.record(api, pending, response.code(), answer.changed(), fault, answer.generation(),
        answer.transport());
    if (response.getWebSocketListener() != null) {
      RecordedRequest recorded = new RecordedRequest(request.version().alpnName().toUpperCase(Locale.ROOT),
          io.fabric8.mockwebserver.dsl.HttpMethod.fromVertx(request.method()), request.uri(),
          Headers.builder().addAll(request.headers()).build(), new Buffer((byte[]) null));
      request.toWebSocket()
          .onFailure(e -> {
            if (!request.response().headWritten()) {
              request.response().setStatusCode(500).setStatusMessage(String.valueOf(e.getMessage())).end();
            }
          })
          .onSuccess(new ServerWebSocketHandler(recorded, response));
      return;
    }
    request.resume();
    HttpServerResponse out = request.response();
    out.setStatusCode(response.code());
    response.getHeaders().toMultimap().forEach((key, values) -> out.headers().add(key, values));
    if (response.getBody() != null && response.getBody().size() > 0) {
      out.end(io.vertx.core.buffer.Buffer.buffer(response.getBody().getBytes()));
    } else {
      out.end();
    }
  }

  /** Answers an error Status instead of serving the request (a websocket upgrade is refused with it). */
  private static void refuse(HttpServerRequest request, ApiError error, Integer retryAfterSeconds) {
    request.resume();
    HttpServerResponse out = request.response().setStatusCode(error.code())
        .putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "no-cache, private");
    if (retryAfterSeconds != null) {
      out.putHeader("Retry-After", Integer.toString(retryAfterSeconds));
    }
    out.end(JsonCodec.write(error.toStatus()));
  }

  private static String transport(ApiRequest api) {
    if (!PreparedWatch.isWatch(api)) {
      return "http";
    }
    return api.isWebSocketUpgrade() ? "websocket-watch" : "http-watch";
  }

  private static boolean isUpgrade(HttpServerRequest request) {
    String upgrade = request.getHeader("Upgrade");
    return upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket");
  }

  private static <T> T await(Future<T> future) {
    CompletableFuture<T> done = new CompletableFuture<>();
    future.onComplete(r -> {
      if (r.succeeded()) {
        done.complete(r.result());
      } else {
        done.completeExceptionally(r.cause());
      }
    });
    try {
      return done.get(STOP_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for Vert.x", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("Vert.x did not answer within " + STOP_SECONDS + "s", e);
    }
  }
}
