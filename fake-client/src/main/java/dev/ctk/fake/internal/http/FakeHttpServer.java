package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ObjectStore;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.vertx.HttpServerRequestHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The fake API server's HTTP endpoint: its own Vert.x instance and HTTP/1.1 server (plain HTTP, websocket
 * sub-protocols as mockwebserver sets them), whose request handler sends HTTP-streaming watches to
 * {@link ChunkedWatchStream} and everything else, websocket watches included, to mockwebserver's
 * {@link HttpServerRequestHandler} with ctk's {@link ApiDispatcher}.
 */
public final class FakeHttpServer implements AutoCloseable {

  private static final List<String> WEBSOCKET_SUB_PROTOCOLS =
      List.of("v1.channel.k8s.io", "v2.channel.k8s.io", "v3.channel.k8s.io", "v4.channel.k8s.io");
  private static final long STOP_SECONDS = 10;
  private static final java.util.Set<HttpMethod> SERVED_METHODS = java.util.Set.of(HttpMethod.GET, HttpMethod.POST,
      HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);

  private final ObjectStore store;
  private final RequestJournal journal;
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
   * @param host interface to bind
   * @param port port to bind, 0 for a free one
   */
  public FakeHttpServer(ObjectStore store, RequestJournal journal, String host, int port) {
    this.store = store;
    this.journal = journal;
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
    ApiDispatcher dispatcher = new ApiDispatcher(vertx, store, journal, this::address);
    HttpServerRequestHandler mockHandler = new HttpServerRequestHandler(vertx) {
      @Override
      protected MockResponse onHttpRequest(RecordedRequest request) {
        return dispatcher.dispatch(request);
      }
    };
    ChunkedWatchStream httpWatches = new ChunkedWatchStream(vertx, store, journal);
    server = vertx.createHttpServer(options);
    server.requestHandler(request -> {
      if (!SERVED_METHODS.contains(request.method())) {
        request.response().setStatusCode(405).putHeader("Content-Type", "application/json")
            .end(JsonCodec.write(ApiError.methodNotAllowed(
                "the server does not allow this method on the requested resource").toStatus()));
      } else if (isHttpWatch(request)) {
        httpWatches.handle(request);
      } else {
        mockHandler.handle(request);
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

  private static boolean isHttpWatch(HttpServerRequest request) {
    if (request.method() != HttpMethod.GET) {
      return false;
    }
    String upgrade = request.getHeader("Upgrade");
    if (upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket")) {
      return false;
    }
    // decided exactly as the dispatcher decides (PreparedWatch.isWatch): the watch parameter, or the legacy
    // /watch/ segment right after the group version; "watch" as a namespace or object name is not a watch
    String watch = request.getParam("watch");
    if (watch != null && (watch.equalsIgnoreCase("true") || watch.equals("1"))) {
      return true;
    }
    return ResourcePath.parse(request.path()).map(ResourcePath::legacyWatch).orElse(false);
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
