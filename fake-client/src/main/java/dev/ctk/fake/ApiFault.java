package dev.ctk.fake;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.fault.FaultAction;
import dev.ctk.fake.internal.status.ApiError;
import java.time.Duration;
import java.util.Objects;

/**
 * What the fake API server answers when a fault rule fires ({@link ApiFaults}): a kube error {@code Status}, a
 * delay before the normal answer, a dropped connection, or a read from an older state ({@link #staleRead}).
 * Immutable.
 *
 * <pre>{@code
 * cluster.faults().when(RequestPattern.update("ConfigMap")).once().answer(ApiFault.conflict());
 * cluster.faults().when(RequestPattern.list("Pod")).answer(ApiFault.tooManyRequests(Duration.ofSeconds(2)));
 * cluster.faults().when(RequestPattern.get("Secret")).once().answer(ApiFault.dropConnection());
 * }</pre>
 *
 * <p>Error answers are {@code Status} objects shaped as kube-apiserver shapes them (code, reason, message,
 * details), so clients parse them as they would a real server's. On a watch request the error answers the watch
 * itself: an HTTP-streaming watch gets that status instead of its stream, a websocket watch's upgrade is refused
 * with it.
 *
 * @since 0.1.0
 */
public final class ApiFault {

  /** The message kube-apiserver sends with a 429 when it sheds load. */
  public static final String TOO_MANY_REQUESTS_MESSAGE = "Too many requests, please try again later.";

  /** The message of {@link #serviceUnavailable()}. */
  public static final String SERVICE_UNAVAILABLE_MESSAGE = "the server is currently unable to handle the request";

  private final FaultAction action;

  private ApiFault(FaultAction action) {
    this.action = action;
  }

  /**
   * 409 Conflict, with kube's optimistic-lock message for the object the request addresses, e.g.
   * {@code Operation cannot be fulfilled on configmaps "web": the object has been modified; please apply your changes
   * to the latest version and try again} (details: name, group, kind = the resource). A create names the object of
   * its body.
   *
   * @return the fault
   */
  public static ApiFault conflict() {
    return new ApiFault(new FaultAction.Respond("409 Conflict",
        t -> ApiError.conflict(t.group(), t.resource(), t.name(), ApiError.OPTIMISTIC_LOCK_MESSAGE), null));
  }

  /**
   * 422 Invalid, as kube's validation answers: {@code ConfigMap "web" is invalid: <message>} (for a kind of a named
   * group, {@code Deployment.apps "web" ...}), details name, group, kind and one cause carrying {@code message}.
   *
   * @param message what is invalid, e.g. {@code spec.replicas: Invalid value: -1: must be greater than or equal to 0}
   * @return the fault
   * @throws NullPointerException when {@code message} is null
   */
  public static ApiFault invalid(String message) {
    String text = requireText(message, "invalid", "message");
    return new ApiFault(new FaultAction.Respond("422 Invalid: " + text, t -> {
      String kind = t.kind() == null ? t.resource() : t.kind();
      ObjectNode details = JsonNodeFactory.instance.objectNode();
      details.put("name", t.name());
      if (!t.group().isEmpty()) {
        details.put("group", t.group());
      }
      details.put("kind", kind);
      details.putArray("causes").addObject().put("message", text);
      String qualifiedKind = t.group().isEmpty() ? kind : kind + "." + t.group();
      return ApiError.invalid(qualifiedKind + " \"" + t.name() + "\" is invalid: " + text, details);
    }, null));
  }

  /**
   * 429 TooManyRequests, as kube-apiserver sheds load: message {@value #TOO_MANY_REQUESTS_MESSAGE}, a
   * {@code Retry-After} header and {@code details.retryAfterSeconds} in whole seconds, rounded up, at least 1.
   * (kube's own load shedding sends the same code, header and message as {@code text/plain}; the fake sends a
   * {@code Status}, which clients read the same way.)
   *
   * @param retryAfter how long the client should wait; zero or less than a second becomes 1 second
   * @return the fault
   * @throws IllegalArgumentException when {@code retryAfter} is negative
   */
  public static ApiFault tooManyRequests(Duration retryAfter) {
    Objects.requireNonNull(retryAfter, "ApiFault.tooManyRequests: retryAfter is null");
    if (retryAfter.isNegative()) {
      throw new IllegalArgumentException("ApiFault.tooManyRequests: retryAfter must not be negative, was "
          + retryAfter + ". Use Duration.ofSeconds(1) or more.");
    }
    long millis = retryAfter.toMillis();
    int seconds = (int) Math.max(1, Math.min(Integer.MAX_VALUE, (millis + 999) / 1000));
    return new ApiFault(new FaultAction.Respond("429 TooManyRequests (Retry-After: " + seconds + ")", t -> {
      ObjectNode details = JsonNodeFactory.instance.objectNode();
      details.put("retryAfterSeconds", seconds);
      return ApiError.of(429, "TooManyRequests", TOO_MANY_REQUESTS_MESSAGE, details);
    }, seconds));
  }

  /**
   * 500 InternalError, as kube wraps storage failures: {@code Internal error occurred: <message>}, with one cause
   * carrying {@code message}.
   *
   * @param message the error, e.g. {@code etcdserver: request timed out}
   * @return the fault
   */
  public static ApiFault internalError(String message) {
    String text = requireText(message, "internalError", "message");
    return new ApiFault(new FaultAction.Respond("500 InternalError: " + text, t -> ApiError.internal(text), null));
  }

  /**
   * 503 ServiceUnavailable: {@value #SERVICE_UNAVAILABLE_MESSAGE}.
   *
   * @return the fault
   */
  public static ApiFault serviceUnavailable() {
    return new ApiFault(new FaultAction.Respond("503 ServiceUnavailable",
        t -> ApiError.of(503, "ServiceUnavailable", SERVICE_UNAVAILABLE_MESSAGE), null));
  }

  /**
   * Any error {@code Status}: code, reason and message as given, no details. For example a 410 on a watch, which
   * makes an informer relist: {@code ApiFault.status(410, "Expired", "too old resource version: 5 (12)")}.
   *
   * @param code an HTTP error code, 400 to 599
   * @param reason kube's reason, e.g. {@code Forbidden} ({@code ""} for none)
   * @param message the message
   * @return the fault
   * @throws IllegalArgumentException when {@code code} is not an error code
   */
  public static ApiFault status(int code, String reason, String message) {
    if (code < 400 || code > 599) {
      throw new IllegalArgumentException("ApiFault.status: code must be an HTTP error code between 400 and 599, "
          + "was " + code + ". Use ApiFault.delay(..) to answer normally after a pause.");
    }
    Objects.requireNonNull(reason, "ApiFault.status: reason is null (use \"\" for none)");
    Objects.requireNonNull(message, "ApiFault.status: message is null");
    String description = code + (reason.isEmpty() ? "" : " " + reason) + ": " + message;
    return new ApiFault(new FaultAction.Respond(description, t -> ApiError.of(code, reason, message), null));
  }

  /**
   * Waits, then serves the request normally. The request is processed when the delay ends, so a delayed GET
   * answers the state at the end of the delay and a delayed write is committed then; requests received meanwhile
   * are served first. A delayed watch opens (and starts from its resourceVersion) after the delay. The journal
   * records the request (with its receive time and sequence) when it is answered.
   *
   * <p>The delay is real time (a Vert.x timer of the fake server), also in tests on virtual time: advancing a
   * {@code VirtualTime} does not end it, and a test waits for a delayed request in real time.
   *
   * @param delay how long, positive
   * @return the fault
   * @throws IllegalArgumentException when {@code delay} is zero or negative
   */
  public static ApiFault delay(Duration delay) {
    Objects.requireNonNull(delay, "ApiFault.delay: delay is null");
    if (delay.isZero() || delay.isNegative()) {
      throw new IllegalArgumentException("ApiFault.delay: delay must be positive, was " + delay
          + ". Use a positive Duration such as Duration.ofMillis(200).");
    }
    return new ApiFault(new FaultAction.Delay(delay));
  }

  /**
   * Closes the connection without an answer. Clients see an I/O error (fabric8: a
   * {@code KubernetesClientException} caused by an {@code IOException}); nothing is processed or stored. The journal
   * records code 0.
   *
   * @return the fault
   */
  public static ApiFault dropConnection() {
    return new ApiFault(new FaultAction.Drop());
  }

  /**
   * Serves a GET or LIST as the store was at {@code resourceVersion}, as a lagging apiserver cache would (a
   * restarted controller's first list, a read served from a watch cache behind etcd). A LIST answers the items that
   * existed then, as they were then, with the same namespace, label and field selectors and paging
   * ({@code limit}/{@code continue}) as a normal list, and {@code metadata.resourceVersion} = {@code resourceVersion}
   * (so a client that then watches from it receives every change after it, in order: an informer catches up); a GET
   * answers the object as it was then, or 404 NotFound ({@code configmaps "web" not found}) when it did not exist
   * then. The old state is rebuilt from the current one by rolling back the fake's watch history
   * ({@link FakeCluster.Builder#withWatchHistoryLimit(int)}): when the history no longer reaches back to
   * {@code resourceVersion}, the request is answered 410 Expired {@code too old resource version: <resourceVersion>
   * (<oldest resourceVersion it reaches>)}, as kube answers a compacted resourceVersion; a resourceVersion the
   * cluster has not reached yet is answered 504 {@code Timeout: Too large resource version: <n>, current: <m>}.
   *
   * <p>The fault acts only on GET and LIST of resources: a rule with this fault does not fire on the other requests
   * its pattern matches (watches, writes, discovery): they are served normally (and not counted as the rule's
   * matching calls), later rules may fire on them, and they leave no {@link dev.ctk.fake.values.FaultFiring}. The journal shows the
   * requests it answered with fault {@code stale read at resourceVersion <n>}.
   *
   * <pre>{@code
   * String before = cluster.resourceVersion();
   * client.configMaps().resource(webV2).update();
   * cluster.faults().when(RequestPattern.list("ConfigMap")).once().answer(ApiFault.staleRead(before));
   * client.configMaps().inNamespace("default").list();   // web as it was before the update, resourceVersion before
   * }</pre>
   *
   * @param resourceVersion a resourceVersion of this cluster, a positive integer (as
   *     {@link FakeCluster#resourceVersion()} returns it)
   * @return the fault
   * @throws NullPointerException when {@code resourceVersion} is null
   * @throws IllegalArgumentException when {@code resourceVersion} is not a positive integer
   * @since 0.1.0
   */
  public static ApiFault staleRead(String resourceVersion) {
    Objects.requireNonNull(resourceVersion, "ApiFault.staleRead: resourceVersion is null");
    long rv = 0;
    if (resourceVersion.matches("[1-9][0-9]{0,17}")) {
      rv = Long.parseLong(resourceVersion);
    }
    if (rv < 1) {
      throw new IllegalArgumentException("ApiFault.staleRead: resourceVersion must be a positive integer, as "
          + "FakeCluster.resourceVersion() returns it, was \"" + resourceVersion + "\". Read "
          + "cluster.resourceVersion() when the state a stale read should show is current.");
    }
    return new ApiFault(new FaultAction.StaleRead(rv));
  }

  FaultAction action() {
    return action;
  }

  /**
   * The fault as the journal shows it, e.g. {@code 409 Conflict} or {@code delay 2s}.
   *
   * @return the description
   */
  @Override
  public String toString() {
    return action.description();
  }

  private static String requireText(String value, String method, String what) {
    return Objects.requireNonNull(value, "ApiFault." + method + ": " + what + " is null");
  }
}
