package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.status.ApiError;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The fake API server's HTTP endpoint: an HTTP/1.1 server (plain HTTP, websocket sub-protocols as mockwebserver
 * sets them) on the JVM's shared Vert.x instance ({@link SharedVertx}), on a port no other fake of the JVM holds.
 * Every request takes its journal sequence number on arrival, has its body read (a websocket upgrade is paused
 * instead) and goes through the cluster's {@link RequestPipeline} as a {@link VertxExchange}: the same steps as
 * requests of the in-process transport.
 */
public final class FakeHttpServer implements AutoCloseable {

  private static final List<String> WEBSOCKET_SUB_PROTOCOLS =
      List.of("v1.channel.k8s.io", "v2.channel.k8s.io", "v3.channel.k8s.io", "v4.channel.k8s.io");
  private static final long STOP_SECONDS = 10;
  private static final long PORT_FREE_MILLIS = 2_000;
  private static final Set<HttpMethod> SERVED_METHODS = Set.of(HttpMethod.GET, HttpMethod.POST,
      HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);

  private final RequestPipeline pipeline;
  private final RequestJournal journal;
  private final String host;
  private final int requestedPort;
  private Vertx vertx;
  private HttpServer server;
  /** The connections the listener accepted and that are still open. */
  private final Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
  private volatile int port;

  /**
   * Creates a server (not started).
   *
   * @param pipeline the steps every request goes through
   * @param host interface to bind
   * @param port port to bind, 0 for a free one
   */
  public FakeHttpServer(RequestPipeline pipeline, String host, int port) {
    this.pipeline = pipeline;
    this.journal = pipeline.journal();
    this.host = host;
    this.requestedPort = port;
  }

  /**
   * The most header bytes a request may carry: kube-apiserver's (Go's {@code http.DefaultMaxHeaderBytes}, 1 MiB), so
   * that a long token or cookie kube serves is served here too; beyond it, Go's 431 with its text.
   */
  static final int MAX_HEADER_BYTES = 1 << 20;

  /** Go's answer to a request whose headers are over its limit: a text body, and the connection closed. */
  static final String HEADERS_TOO_LARGE = "431 Request Header Fields Too Large";

  /**
   * A request Vert.x could not decode: headers over {@link #MAX_HEADER_BYTES} get Go's 431 with its text (Vert.x
   * alone sends no body); anything else Vert.x's own answer.
   */
  private static void invalidRequest(io.vertx.core.http.HttpServerRequest request) {
    if (request.decoderResult().cause() instanceof io.netty.handler.codec.http.TooLongHttpHeaderException) {
      request.response().setStatusCode(431).putHeader("Content-Type", "text/plain; charset=utf-8")
          .putHeader("Connection", "close").end(HEADERS_TOO_LARGE);
      return;
    }
    io.vertx.core.http.HttpServerRequest.DEFAULT_INVALID_REQUEST_HANDLER.handle(request);
  }

  /**
   * Binds and starts serving.
   *
   * @throws ListenException when the port is in use or the host cannot be listened on
   */
  public synchronized void start() throws ListenException {
    if (requestedPort != 0) {
      try {
        SharedVertx.claim(host, requestedPort);
      } catch (java.net.BindException e) {
        throw new ListenException(host, requestedPort, e);
      }
    }
    vertx = SharedVertx.servers();
    HttpServerOptions options = new HttpServerOptions()
        .setHost(host)
        .setPort(requestedPort)
        .setWebSocketSubProtocols(WEBSOCKET_SUB_PROTOCOLS)
        .setHandle100ContinueAutomatically(true)
        .setHttp2ClearTextEnabled(false)
        .setMaxInitialLineLength(64 * 1024)
        .setMaxHeaderSize(MAX_HEADER_BYTES)
        // a websocket watch the fake ends is closed once its close frame is written, as kube-apiserver closes it:
        // Vert.x would wait up to 10 s for the client's close frame, which fabric8's client, paused between events,
        // may never send, and that kept the closed fake in memory, and its close() waiting, that long. A fake that
        // closes while a client has stopped reading drops what that client's socket still had to write.
        .setWebSocketClosingTimeout(0);
    server = vertx.createHttpServer(options);
    server.invalidRequestHandler(FakeHttpServer::invalidRequest);
    server.requestHandler(request -> {
      if (!SERVED_METHODS.contains(request.method())) {
        request.response().setStatusCode(405).putHeader("Content-Type", "application/json")
            .end(JsonCodec.write(ApiError.methodNotAllowed(
                "the server does not allow this method on the requested resource").toStatus()));
      } else {
        receive(request);
      }
    });
    server.connectionHandler(connection -> {
      connections.add(connection);
      connection.closeHandler(closed -> connections.remove(connection));
    });
    try {
      port = await(server.listen()).actualPort();
      if (requestedPort == 0) {
        SharedVertx.claimed(host, port);   // an explicit port was claimed before listening
      }
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      stopListening(requestedPort, false);   // a bind that timed out may still complete: close it too
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

  /**
   * Stops accepting connections and closes the open ones, waiting until they are closed; the shared Vert.x instance
   * and its threads stay for the next server. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (server != null) {
      stopListening(port, requestedPort != 0);
    }
  }

  /**
   * Closes the listener and every connection it accepted. The port is freed for another fake only once the listener
   * is known closed; when Vert.x does not confirm it (within 10 s), the port stays claimed for the life of the JVM.
   * With {@code awaitFree} (the close of a fake that listened on a port the test chose; not a failed start, whose
   * port another process holds) it also waits until the port can be bound again.
   */
  private void stopListening(int claimedPort, boolean awaitFree) {
    HttpServer closing = server;
    server = null;
    boolean closed;
    try {
      await(closing.close());
      closed = true;
    } catch (RuntimeException e) {
      closed = false;
    }
    for (HttpConnection connection : List.copyOf(connections)) {
      try {
        await(connection.close());
      } catch (RuntimeException e) {
        // already closing, or closed by the client meanwhile
      }
    }
    connections.clear();
    if (closed && claimedPort != 0) {
      if (awaitFree) {
        awaitPortFree(claimedPort);
      }
      SharedVertx.release(host, claimedPort);
    }
  }

  /**
   * Waits (at most {@value #PORT_FREE_MILLIS} ms) until the operating system lets a socket bind the port again: the
   * listener's socket is released a moment after Vert.x reports it closed, and a test that starts a fake on the same
   * port right after closing one must not find it taken. A port still taken then (another process bound it) is left
   * to the next bind, which reports it.
   */
  private void awaitPortFree(int freedPort) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PORT_FREE_MILLIS);
    while (!bindable(freedPort) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private boolean bindable(int freedPort) {
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(host, freedPort));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * A request arrived: takes its sequence number and time, reads its body (a websocket upgrade is paused instead,
   * until it is upgraded or refused), then hands it to the pipeline.
   */
  private void receive(HttpServerRequest request) {
    long sequence = journal.receive();
    Instant time = Instant.now();
    Vertx current = vertx;
    Context context = Vertx.currentContext() != null ? Vertx.currentContext() : current.getOrCreateContext();
    if (isUpgrade(request)) {
      request.pause();
      EventLoopWrites.handling(() -> pipeline.handle(
          new VertxExchange(current, context, request, ApiRequest.from(request, null)), sequence, time));
      return;
    }
    request.body().onSuccess(body -> EventLoopWrites.handling(() -> pipeline.handle(new VertxExchange(current,
        context, request, ApiRequest.from(request, body == null ? null : body.getBytes())), sequence, time)));
    request.resume();
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
