package dev.ctk.benchmarks.floor;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.inprocess.ClientWatches;
import dev.ctk.fake.internal.inprocess.InProcessHttpClientFactory;
import dev.ctk.fake.internal.inprocess.InProcessResponse;
import dev.ctk.fake.internal.inprocess.InProcessServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import io.fabric8.kubernetes.client.http.WebSocketUpgradeResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An API server that does (almost) no work, reached by fabric8 clients without sockets through the same
 * {@link HttpClient.Factory} as ctk's in-process transport ({@link InProcessHttpClientFactory}, which this server
 * plugs into as its {@link InProcessServer}): the floor under every fake that is used through fabric8's client and
 * informer. Timing a
 * create-and-see against it measures fabric8's client (request building, interceptors, Jackson serialization of the
 * request and deserialization of the answer), fabric8's informer (watch event decoding, store update, handler
 * dispatch on fabric8's executor) and the JVM's thread hand-offs up to the waiting writer; the server's own share is
 * a string search and two concatenations.
 *
 * <p>What it answers, for ConfigMaps in any namespace ({@code /api/v1/namespaces/<ns>/configmaps}):
 * <ul>
 *   <li>GET (a list): an empty {@code ConfigMapList} with {@code metadata.resourceVersion "1"}, or the bytes given
 *       to {@link #answeringListsWith}, precomputed, whatever the query;
 *   <li>a websocket watch: accepted at once, {@code onOpen}, then kept until the client closes it;
 *   <li>POST (a create): {@code 201} with the request body itself, with a {@code resourceVersion} from a counter,
 *       the fields given to {@link #answeringCreatesWithMetadata} if any, and (fabric8 sends none) the path's
 *       {@code namespace} spliced in as the first fields of {@code metadata}
 *       (text search and concatenation, no JSON parse). Before answering, on the writer's own thread (for a server
 *       from {@link #startWithDeliveryThread()}: handed to its delivery thread, in create order), every open
 *       watch of every namespace gets {@code {"type":"ADDED","object":<that object>}}. fabric8's informer needs no
 *       more: it keys its store by namespace and name, compares resourceVersions and takes the last one as where
 *       to resume its watch; it reads no uid;
 *   <li>a POST whose body is not shaped as a JSON object (from '{' to '}'; it is never parsed): {@code 400} with a
 *       {@code Status} body quoting it;
 *   <li>anything else: {@code 404} with a {@code Status} body.
 * </ul>
 *
 * <pre>{@code
 * try (EchoApiServer server = EchoApiServer.start(); KubernetesClient client = server.newClient()) {
 *   client.configMaps().resource(configMap).create();   // echoed, with resourceVersion "2"
 * }
 * }</pre>
 *
 * <p>It is not a Kubernetes API server: it stores nothing (a list after creates is still empty, a GET of a created
 * object is 404), checks nothing (no name or conflict check, no defaulting, no uid or creationTimestamp of its
 * own), ignores watch options and the websocket's demand (events are handed over whether or not the client asked for
 * the next one), and never closes a watch itself except when it is closed.
 *
 * @since 0.1.0
 */
public final class EchoApiServer implements InProcessServer, AutoCloseable {

  private static final AtomicInteger SERVERS = new AtomicInteger();

  /** One for every client of every echo server, as ctk's fake shares one: Jackson stays warm between servers. */
  private static final KubernetesSerialization CLIENT_SERIALIZATION = new KubernetesSerialization();

  private static final String NAMESPACES = "/api/v1/namespaces/";
  private static final String CONFIGMAPS = "/configmaps";
  private static final String METADATA = "\"metadata\":{";
  private static final String NAMESPACE = "\"namespace\":";
  private static final byte[] EMPTY_LIST = ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\","
      + "\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[]}").getBytes(StandardCharsets.UTF_8);
  private static final Map<String, List<String>> JSON = Map.of("Content-Type", List.of("application/json"));
  private static final ObjectMapper CHECK = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final String masterUrl;
  private final InProcessHttpClientFactory factory;
  private final AtomicLong resourceVersion = new AtomicLong(1);
  private final List<EchoWebSocket> watches = new CopyOnWriteArrayList<>();
  private volatile boolean closed;
  private volatile byte[] list = EMPTY_LIST;
  private volatile String createdMetadata = "";
  private final ExecutorService delivery;

  private EchoApiServer(String name, boolean deliveryThread) {
    this.masterUrl = "http://" + name + ".invalid";
    this.factory = new InProcessHttpClientFactory(this);
    this.delivery = deliveryThread ? Executors.newSingleThreadExecutor(runnable -> {
      Thread thread = new Thread(runnable, name + "-delivery");
      thread.setDaemon(true);
      return thread;
    }) : null;
  }

  /**
   * A new, empty echo server (nothing runs until a client sends a request).
   *
   * @return the server; the caller closes it
   */
  public static EchoApiServer start() {
    return new EchoApiServer("ctk-echo-" + SERVERS.incrementAndGet(), false);
  }

  /**
   * A new, empty echo server that hands its ADDED events to the watches on a thread of its own (one per server, in
   * create order) instead of the writer's: the floor of a server whose watch events reach the client on another
   * thread than the write, as a real API server's do and ctk's fake's do. The difference between the two floors is
   * the cost of that one thread hand-off.
   *
   * @return the server; the caller closes it (which stops its thread)
   */
  public static EchoApiServer startWithDeliveryThread() {
    return new EchoApiServer("ctk-echo-" + SERVERS.incrementAndGet(), true);
  }

  /**
   * Answers every later GET with {@code body} instead of the empty list: the floor of a LIST, given the bytes another
   * server answered.
   *
   * @param body a list answer, e.g. captured from ctk's fake
   * @return this server
   */
  public EchoApiServer answeringListsWith(byte[] body) {
    this.list = body.clone();
    return this;
  }

  /**
   * Adds {@code fields} to the metadata of every later created object, in its answer and its ADDED event, after the
   * resourceVersion: e.g. the {@code uid}, {@code creationTimestamp} and {@code managedFields} another server gave
   * the same object, so that the client decodes an object of the size and shape kube answers. The text is spliced
   * in as given, the same for every object (fabric8's informer reads neither the uid nor the managedFields).
   *
   * @param fields JSON object members without the braces, e.g. {@code "uid":"1f0e...","creationTimestamp":"..."};
   *     not {@code resourceVersion} or {@code namespace}, which the server sets itself
   * @return this server
   * @throws IllegalArgumentException when {@code fields} wrapped in braces is not one JSON object, is empty, or
   *     names {@code resourceVersion} or {@code namespace}
   */
  public EchoApiServer answeringCreatesWithMetadata(String fields) {
    this.createdMetadata = checkedMetadata(fields);
    return this;
  }

  /**
   * {@code fields} checked as {@link #answeringCreatesWithMetadata} requires, with a leading comma.
   *
   * @throws IllegalArgumentException as {@link #answeringCreatesWithMetadata} says
   */
  static String checkedMetadata(String fields) {
    JsonNode members;
    try {
      members = CHECK.readTree("{" + fields + "}");
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("ctk echo server: the metadata fields to add to created objects ('"
          + fields + "') are not JSON object members: " + e.getOriginalMessage() + ". Give them without braces and "
          + "without a leading or trailing comma, e.g. \"uid\":\"1f0e\",\"creationTimestamp\":\"2026-11-27T12:00:00Z\"",
          e);
    }
    if (members.isEmpty()) {
      throw new IllegalArgumentException("ctk echo server: no metadata fields given to add to created objects; "
          + "leave answeringCreatesWithMetadata out to echo them as sent");
    }
    for (String own : List.of("resourceVersion", "namespace")) {
      if (members.has(own)) {
        throw new IllegalArgumentException("ctk echo server: the metadata fields to add to created objects name "
            + own + ", which the server sets itself (resourceVersion from a counter; namespace from the path when the "
            + "body has none): leave it out of '" + fields + "'");
      }
    }
    return "," + fields;
  }

  /**
   * The factory for fabric8's {@code KubernetesClientBuilder.withHttpClientFactory}.
   *
   * @return the factory of this server's clients
   */
  public HttpClient.Factory httpClientFactory() {
    return factory;
  }

  /**
   * The master URL of this server's clients: a host under {@code .invalid}, so that a client built with it but
   * without {@link #httpClientFactory()} fails at once instead of reaching another server.
   *
   * @return e.g. {@code http://ctk-echo-1.invalid}
   */
  @Override
  public String masterUrl() {
    return masterUrl;
  }

  /**
   * A new fabric8 client of this server, namespace {@code default}, with the settings of ctk's fake clients
   * (timeouts; no retries; HTTP/1.1; nothing read from the machine's kubeconfig) and one JVM-wide serialization.
   *
   * @return the client; the caller closes it
   */
  public KubernetesClient newClient() {
    return newClient(masterUrl, factory);
  }

  /**
   * A fabric8 client of an echo server, namespace {@code default}, with the settings of ctk's fake clients
   * (timeouts; no retries; HTTP/1.1; nothing read from the machine's kubeconfig) and one JVM-wide serialization.
   */
  static KubernetesClient newClient(String masterUrl, HttpClient.Factory factory) {
    Config config = new ConfigBuilder(Config.empty())
        .withMasterUrl(masterUrl)
        .withNamespace("default")
        .withConnectionTimeout(5_000)
        .withRequestTimeout(10_000)
        .withRequestRetryBackoffLimit(0)
        .withRequestRetryBackoffInterval(100)
        .withWatchReconnectInterval(100)
        .withWatchReconnectLimit(-1)
        .withHttp2Disable(true)
        .build();
    return new KubernetesClientBuilder()
        .withKubernetesSerialization(CLIENT_SERIALIZATION)
        .withConfig(config)
        .withHttpClientFactory(factory)
        .build();
  }

  /** Answers a request that is not a websocket, on the caller's thread. */
  @Override
  public CompletableFuture<HttpResponse<AsyncBody>> answer(StandardHttpRequest request,
      AsyncBody.Consumer<List<ByteBuffer>> consumer, ClientWatches clientWatches) {
    if (closed) {
      return CompletableFuture.failedFuture(refused(request));
    }
    String path = request.uri().getRawPath();
    if (isConfigMaps(path)) {
      if ("GET".equals(request.method())) {
        return respond(request, 200, list, consumer);
      }
      if ("POST".equals(request.method())) {
        String body = body(request);
        String problem = bodyProblem(body);
        if (problem != null) {
          return respond(request, 400, badRequest(problem), consumer);
        }
        return respond(request, 201, create(namespace(path), body), consumer);
      }
    }
    return respond(request, 404, notFound(request.method(), request.uri().getRawPath()), consumer);
  }

  /** Opens a websocket watch of ConfigMaps; anything else is refused as an upgrade answered 404. */
  @Override
  public CompletableFuture<WebSocketResponse> openWebSocket(StandardHttpRequest request, WebSocket.Listener listener,
      ClientWatches clientWatches) {
    if (closed) {
      return CompletableFuture.failedFuture(refused(request));
    }
    if (!isConfigMaps(request.uri().getRawPath())) {
      return CompletableFuture.completedFuture(new WebSocketResponse(new WebSocketUpgradeResponse(request, 404),
          new ProtocolException("Expected HTTP 101 response but was '404'")));
    }
    EchoWebSocket socket = new EchoWebSocket(listener, this);
    listener.onOpen(socket);
    watches.add(socket);
    clientWatches.add(socket::isClosed, () -> socket.sendClose(1000, "client closed"));
    return CompletableFuture.completedFuture(new WebSocketResponse(new WebSocketUpgradeResponse(request), socket));
  }

  /** The watch is closed: it gets no more events. */
  void forget(EchoWebSocket socket) {
    watches.remove(socket);
  }

  /**
   * The object with the next resourceVersion, the fields given to {@link #answeringCreatesWithMetadata} if any, and
   * the namespace of the path when the body has none, spliced into its metadata as text, sent as ADDED to every
   * watch on this thread (or handed to the delivery thread), then returned as the answer's bytes. With several
   * writers at once, events may reach the watches out of resourceVersion order (the counter and the send are not one
   * step); the benchmarks write from one thread.
   */
  private byte[] create(String namespace, String body) {
    String object = createdObject(namespace, body, resourceVersion.incrementAndGet(), createdMetadata);
    String event = addedEvent(object);
    if (delivery == null) {
      sendToEveryWatch(event);
    } else {
      try {
        delivery.execute(() -> sendToEveryWatch(event));
      } catch (RejectedExecutionException e) {
        // closed meanwhile: its watches are closed, there is no one to send to
      }
    }
    return object.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The created object: {@code body} with {@code resourceVersion}, {@code createdMetadata} (from {@link
   * #checkedMetadata}, or empty) and, when the body has none, the path's namespace spliced into its metadata as text.
   * The caller has checked the body with {@link #bodyProblem} (both servers answer 400 before they get here).
   */
  static String createdObject(String namespace, String body, long resourceVersion, String createdMetadata) {
    String fields = "\"resourceVersion\":\"" + resourceVersion + "\"" + createdMetadata;
    if (!body.contains(NAMESPACE)) {
      fields = fields + "," + NAMESPACE + "\"" + namespace + "\"";
    }
    int at = body.indexOf(METADATA);
    if (at < 0) {
      return "{" + METADATA + fields + "}" + (body.equals("{}") ? "" : ",") + body.substring(1);
    }
    int end = at + METADATA.length();
    String separator = body.charAt(end) == '}' ? "" : ",";
    return body.substring(0, end) + fields + separator + body.substring(end);
  }

  /**
   * Why a create's body cannot be spliced, or {@code null} when it can: its shape only (from '{' to '}'), not
   * whether it is JSON, which the echo servers never parse.
   */
  static String bodyProblem(String body) {
    if (body.length() >= 2 && body.startsWith("{") && body.endsWith("}")) {
      return null;
    }
    return "ctk echo server: a create's body must be the JSON object fabric8 sends (from '{' to '}'), was: '"
        + (body.length() > 80 ? body.substring(0, 80) + "..." : body) + "'";
  }

  /** The ADDED watch event of {@code object}. */
  static String addedEvent(String object) {
    return "{\"type\":\"ADDED\",\"object\":" + object + "}";
  }

  private void sendToEveryWatch(String event) {
    for (EchoWebSocket socket : watches) {
      socket.send(event);
    }
  }

  /** The empty ConfigMap list every GET is answered with (a copy). */
  static byte[] emptyList() {
    return EMPTY_LIST.clone();
  }

  /** The namespace of a path {@link #isConfigMaps} accepted. */
  static String namespace(String path) {
    return path.substring(NAMESPACES.length(), path.length() - CONFIGMAPS.length());
  }

  /** Whether {@code path} is {@code /api/v1/namespaces/<namespace>/configmaps}, the only collection served. */
  static boolean isConfigMaps(String path) {
    return path.startsWith(NAMESPACES) && path.endsWith(CONFIGMAPS)
        && path.indexOf('/', NAMESPACES.length()) == path.length() - CONFIGMAPS.length();
  }

  private static String body(StandardHttpRequest request) {
    StandardHttpRequest.BodyContent content = request.body();
    if (content instanceof StandardHttpRequest.StringBodyContent text) {
      return text.getContent();
    }
    if (content instanceof StandardHttpRequest.ByteArrayBodyContent bytes) {
      return new String(bytes.getContent(), StandardCharsets.UTF_8);
    }
    throw new IllegalArgumentException("ctk echo server: POST " + request.uri().getRawPath() + " came with a "
        + (content == null ? "missing body" : content.getClass().getSimpleName())
        + ", expected the JSON text fabric8's create sends (a string or byte array body)");
  }

  /** A 404 Status naming what is served. */
  static byte[] notFound(String method, String path) {
    return status(404, "NotFound", method + " " + path + " is not served by ctk's echo server "
        + "(it answers only GET, POST and websocket watches of /api/v1/namespaces/<namespace>/configmaps)");
  }

  /** A 400 Status with {@code message}. */
  static byte[] badRequest(String message) {
    return status(400, "BadRequest", message);
  }

  /** A 500 Status with {@code message}. */
  static byte[] internalError(String message) {
    return status(500, "InternalError", message);
  }

  private static byte[] status(int code, String reason, String message) {
    ObjectNode status = CHECK.createObjectNode().put("apiVersion", "v1").put("kind", "Status");
    status.putObject("metadata");
    status.put("status", "Failure").put("message", message).put("reason", reason).put("code", code);
    try {
      return CHECK.writeValueAsBytes(status);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("ctk echo server: cannot write a Status: " + e.getOriginalMessage(), e);
    }
  }

  private static CompletableFuture<HttpResponse<AsyncBody>> respond(StandardHttpRequest request, int code,
      byte[] body, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    return CompletableFuture.completedFuture(InProcessResponse.complete(request, code, JSON, body, consumer));
  }

  private IOException refused(StandardHttpRequest request) {
    return new IOException("Connection refused: ctk's echo server " + masterUrl + " is closed ("
        + request.method() + " " + request.uri().getRawPath() + ")");
  }

  /** Refuses further requests; every open watch gets {@code onClose(1000, "")}. */
  @Override
  public void close() {
    closed = true;
    if (delivery != null) {
      delivery.shutdown();   // the thread ends after the events handed over (dropped once their watch is closed)
    }
    for (EchoWebSocket socket : watches) {
      socket.serverClosed();
    }
    watches.clear();
  }

  @Override
  public String toString() {
    return "ctk echo server " + masterUrl + " (" + watches.size() + " open watches)";
  }
}
