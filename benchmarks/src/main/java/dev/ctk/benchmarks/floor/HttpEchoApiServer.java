package dev.ctk.benchmarks.floor;

import dev.ctk.fake.internal.http.SharedVertx;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link EchoApiServer}'s answers over loopback HTTP: a Vert.x listener on {@code 127.0.0.1} and a free port that
 * answers what the echo server answers, with the same text work (a ConfigMap list that is always empty, a websocket
 * watch kept until the client closes it, a create echoed with a resourceVersion, the namespace and the given
 * metadata spliced in, and sent as ADDED to every open watch). Its clients are fabric8's Vert.x HTTP client on the
 * JVM's shared client instance, as ctk's fake's HTTP clients are ({@link SharedVertx#clients()}). A create-and-see
 * against it costs what fabric8's client and informer, HTTP over loopback and the event loops cost: the floor of any
 * fake reached over HTTP, as {@link EchoApiServer} is the floor of one reached in-process.
 *
 * <pre>{@code
 * try (HttpEchoApiServer server = HttpEchoApiServer.start(KubeMetadata.fields());
 *     KubernetesClient client = server.newClient()) {
 *   client.configMaps().resource(configMap).create();   // over HTTP, echoed with resourceVersion "2"
 * }
 * }</pre>
 *
 * <p>Its event loops are its own (as many as ctk's fake's listeners have: two, or one per core), so the
 * server's work never queues behind the client's. The ADDED event is written from the event loop that read the
 * create, before the answer; Vert.x hands it to the watch's own event loop when the watch's connection is served by
 * the other one, as ctk's fake hands each event to its watch's event loop. Not a Kubernetes API server either: see
 * {@link EchoApiServer} for what it does not do; in addition it ignores the request's headers (no content type or
 * size check), answers a watch that is not a websocket with 404, a create whose body is not shaped as a JSON object
 * with 400, and has no delivery thread of its own.
 *
 * @since 0.1.0
 */
public final class HttpEchoApiServer implements AutoCloseable {

  private static final int STOP_SECONDS = 10;
  private static final Set<String> WATCH_TRUE = Set.of("1", "t", "T", "true", "TRUE", "True");

  private final AtomicLong resourceVersion = new AtomicLong(1);
  private final List<ServerWebSocket> watches = new CopyOnWriteArrayList<>();
  private final String createdMetadata;
  private final HttpServer server;

  private HttpEchoApiServer(String createdMetadata) {
    this.createdMetadata = createdMetadata;
    this.server = Loops.VERTX.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0)
            .setHttp2ClearTextEnabled(false))
        .webSocketHandler(this::watch)
        .requestHandler(this::answer);
  }

  /**
   * Starts a listener on {@code 127.0.0.1} and a free port that adds {@code fields} to the metadata of every created
   * object.
   *
   * @param fields JSON object members without the braces, as {@link EchoApiServer#answeringCreatesWithMetadata} takes
   *     them
   * @return the listening server; the caller closes it
   * @throws IllegalArgumentException when {@code fields} are not as {@link EchoApiServer#answeringCreatesWithMetadata}
   *     requires
   * @throws IllegalStateException when the listener cannot start
   */
  public static HttpEchoApiServer start(String fields) {
    HttpEchoApiServer echo = new HttpEchoApiServer(EchoApiServer.checkedMetadata(fields));
    try {
      await(echo.server.listen(), "listen on 127.0.0.1");
    } catch (IllegalStateException e) {
      echo.server.close();   // a bind that timed out may still complete: close it too
      throw e;
    }
    return echo;
  }

  /**
   * The server's URL.
   *
   * @return {@code http://127.0.0.1:<port>}
   */
  public String masterUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /**
   * A new fabric8 client of this server over HTTP, namespace {@code default}, with the settings of {@link
   * EchoApiServer#newClient()}, HTTP/1.1 only (as ctk's HTTP clients), and fabric8's Vert.x client on ctk's shared
   * client instance.
   *
   * @return the client; the caller closes it
   */
  public KubernetesClient newClient() {
    return EchoApiServer.newClient(masterUrl(), ClientFactory.FACTORY);
  }

  private void watch(ServerWebSocket socket) {
    if (!EchoApiServer.isConfigMaps(socket.path())) {
      socket.reject(404);
      return;
    }
    watches.add(socket);
    socket.closeHandler(closed -> watches.remove(socket));
  }

  private void answer(HttpServerRequest request) {
    String path = request.path();
    boolean configMaps = EchoApiServer.isConfigMaps(path) && !isWatch(request);
    if (configMaps && request.method() == HttpMethod.GET) {
      respond(request, 200, EchoApiServer.emptyList());
    } else if (configMaps && request.method() == HttpMethod.POST) {
      request.body()
          .onSuccess(body -> created(request, EchoApiServer.namespace(path), body.toString(StandardCharsets.UTF_8)))
          .onFailure(e -> request.connection().close());   // the body never arrived: nobody to answer
    } else {
      respond(request, 404, EchoApiServer.notFound(request.method().name(), request.uri()));
    }
  }

  /** A watch as kube reads {@code watch=}: Go's boolean forms of true. */
  private static boolean isWatch(HttpServerRequest request) {
    String watch = request.getParam("watch");
    return watch != null && WATCH_TRUE.contains(watch);
  }

  /** Answers a create: 400 for a body that cannot be spliced, 500 naming anything else that went wrong. */
  private void created(HttpServerRequest request, String namespace, String body) {
    String problem = EchoApiServer.bodyProblem(body);
    if (problem != null) {
      respond(request, 400, EchoApiServer.badRequest(problem));
      return;
    }
    try {
      respond(request, 201, create(namespace, body));
    } catch (RuntimeException e) {
      if (!request.response().ended()) {
        respond(request, 500, EchoApiServer.internalError("ctk HTTP echo server: the create failed: " + e));
      }
    }
  }

  private byte[] create(String namespace, String body) {
    String object = EchoApiServer.createdObject(namespace, body, resourceVersion.incrementAndGet(), createdMetadata);
    String event = EchoApiServer.addedEvent(object);
    for (ServerWebSocket socket : watches) {
      if (!socket.isClosed()) {
        socket.writeTextMessage(event);
      }
    }
    return object.getBytes(StandardCharsets.UTF_8);
  }

  private static void respond(HttpServerRequest request, int code, byte[] body) {
    request.response().setStatusCode(code).putHeader("Content-Type", "application/json").end(Buffer.buffer(body));
  }

  /** Closes every watch and stops listening. */
  @Override
  public void close() {
    for (ServerWebSocket socket : watches) {
      socket.close();
    }
    watches.clear();
    await(server.close(), "stop listening on " + masterUrl());
  }

  @Override
  public String toString() {
    return "ctk HTTP echo server " + masterUrl() + " (" + watches.size()
        + " open watches)";
  }

  private static <T> T await(Future<T> future, String what) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(STOP_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("ctk HTTP echo server: interrupted while waiting to " + what, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("ctk HTTP echo server: could not " + what + ": " + e.getCause().getMessage(),
          e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("ctk HTTP echo server: Vert.x did not " + what + " within " + STOP_SECONDS
          + "s", e);
    }
  }

  /**
   * The echo servers' own Vert.x instance, with as many event loops as ctk's fakes' listeners have (two, or one per
   * core on a larger machine), on daemon threads; made at the first server.
   */
  private static final class Loops {
    static final Vertx VERTX = Vertx.vertx(new VertxOptions()
        .setEventLoopPoolSize(Math.max(2, Runtime.getRuntime().availableProcessors()))
        .setWorkerPoolSize(1)
        .setUseDaemonThread(true)
        .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
            .setClassPathResolvingEnabled(false)));
  }

  /** fabric8's Vert.x client on ctk's shared client instance, made at the first client. */
  private static final class ClientFactory {
    static final VertxHttpClientFactory FACTORY = new VertxHttpClientFactory(SharedVertx.clients());
  }
}
