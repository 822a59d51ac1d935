package dev.ctk.fake.internal.status;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.version.KubeMinor;

/**
 * A request the fake API server refuses, carrying the {@code Status} body a real kube-apiserver would send:
 * {@code kind: Status, apiVersion: v1, metadata: {}, status: Failure, message, reason, details, code}.
 *
 * <p>Factories mirror kube's {@code k8s.io/apimachinery/pkg/api/errors} constructors so messages, reasons and
 * details have the same shape (for example {@code deployments.apps "web" not found} with details
 * {@code {name: web, group: apps, kind: deployments}}).
 */
public final class ApiError extends RuntimeException {

  private static final long serialVersionUID = 1L;
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  /** The text kube sends when an update lost an optimistic-concurrency race. */
  public static final String OPTIMISTIC_LOCK_MESSAGE =
      "the object has been modified; please apply your changes to the latest version and try again";

  /** The body kube's HTTP mux answers for a path no API handler serves. */
  public static final String PAGE_NOT_FOUND = "404 page not found\n";

  private final int code;
  private final String reason;
  private final transient ObjectNode details;
  private final boolean plainText;
  /** The same error as later minors word it: from that minor on (key), the message and details (value). */
  private final transient java.util.NavigableMap<Integer, ApiError> laterWording = new java.util.TreeMap<>();

  private ApiError(int code, String reason, String message, ObjectNode details) {
    this(code, reason, message, details, false);
  }

  private ApiError(int code, String reason, String message, ObjectNode details, boolean plainText) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
    this.plainText = plainText;
  }

  /**
   * Whether kube answers this error as plain text rather than a {@code Status}: {@link #PAGE_NOT_FOUND}, as
   * {@code text/plain; charset=utf-8}.
   */
  public boolean plainText() {
    return plainText;
  }

  /** HTTP status code. */
  public int code() {
    return code;
  }

  /** {@code Status.reason}, e.g. {@code NotFound}. */
  public String reason() {
    return reason;
  }

  /**
   * Records how kube words this error from a later minor on (e.g. 1.34 prints field values as JSON).
   *
   * @param fromMinor the first minor that words it so, e.g. {@code 34}
   * @param message that minor's message
   * @param laterDetails that minor's details
   * @return this error
   */
  public ApiError wordedFrom(int fromMinor, String message, ObjectNode laterDetails) {
    laterWording.put(fromMinor, new ApiError(code, reason, message, laterDetails, plainText));
    return this;
  }

  /**
   * Records how kube words this error from a later minor on, given as that minor's error.
   *
   * @param fromMinor the first minor that words it so
   * @param later the error as that minor words it (same code and reason)
   * @return this error
   */
  public ApiError wordedFrom(int fromMinor, ApiError later) {
    return wordedFrom(fromMinor, later.getMessage(), later.details == null ? null : later.details.deepCopy());
  }

  /**
   * One error worded by every minor that words it differently: as the oldest emulated minor words it, plus each
   * later minor's wording ({@link #wordedFrom(int, ApiError)}).
   *
   * @param wordedAt the error as a minor words it
   * @param laterMinors the minors from which the wording changes
   * @return the error
   */
  public static ApiError wordedByMinor(java.util.function.IntFunction<ApiError> wordedAt,
      java.util.Collection<Integer> laterMinors) {
    ApiError error = wordedAt.apply(KubeMinor.OLDEST);
    for (int minor : new java.util.TreeSet<>(laterMinors)) {
      error.wordedFrom(minor, wordedAt.apply(minor));
    }
    return error;
  }

  /**
   * The full {@code Status} object as a server of that minor words it.
   *
   * @param minor the Kubernetes minor emulated
   * @return the Status
   */
  public ObjectNode toStatus(KubeMinor minor) {
    java.util.Map.Entry<Integer, ApiError> later = laterWording.floorEntry(minor.minor());
    return later == null ? toStatus() : later.getValue().toStatus();
  }

  /** The full {@code Status} object, ready to serialize, as the oldest emulated minor words it. */
  public ObjectNode toStatus() {
    ObjectNode status = JSON.objectNode();
    status.put("kind", "Status");
    status.put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure");
    status.put("message", getMessage());
    if (reason != null && !reason.isEmpty()) {
      status.put("reason", reason);
    }
    if (details != null) {
      status.set("details", details.deepCopy());
    }
    status.put("code", code);
    return status;
  }

  /** 404: {@code configmaps "web" not found}. */
  public static ApiError notFound(ResourceName type, String name) {
    return notFound(type.group(), type.plural(), name);
  }

  /** 404 for a group/resource and name, e.g. {@code namespaces "x" not found}. */
  public static ApiError notFound(String group, String plural, String name) {
    return new ApiError(404, "NotFound", qualified(group, plural) + " \"" + name + "\" not found",
        details(name, group, plural));
  }

  /** 404 for a path no resource serves: kube's {@code the server could not find the requested resource}. */
  public static ApiError unknownResource() {
    return new ApiError(404, "NotFound", "the server could not find the requested resource", JSON.objectNode());
  }

  /**
   * 404 for a path outside every API group kube-apiserver serves itself (an unknown group, a version or resource
   * of a CRD's group that no CRD serves, a path outside {@code /api} and {@code /apis}): kube's HTTP mux answers
   * {@value #PAGE_NOT_FOUND} as plain text, not a {@code Status} ({@link #plainText()}).
   */
  public static ApiError pageNotFound() {
    return new ApiError(404, "NotFound", PAGE_NOT_FOUND.strip(), null, true);
  }

  /** 409 AlreadyExists: {@code configmaps "web" already exists}. */
  public static ApiError alreadyExists(ResourceName type, String name) {
    return new ApiError(409, "AlreadyExists", type.qualifiedResource() + " \"" + name + "\" already exists",
        details(name, type.group(), type.plural()));
  }

  /** 409 Conflict: {@code Operation cannot be fulfilled on configmaps "web": <why>}. */
  public static ApiError conflict(ResourceName type, String name, String why) {
    return new ApiError(409, "Conflict",
        "Operation cannot be fulfilled on " + type.qualifiedResource() + " \"" + name + "\": " + why,
        details(name, type.group(), type.plural()));
  }

  /**
   * 409 Conflict on a group and resource as kube names it in that message; kube's delete preconditions name the
   * kind there ({@code Operation cannot be fulfilled on Deployment.apps "web": <why>}, details kind
   * {@code Deployment}).
   *
   * @param group API group, {@code ""} for core
   * @param resource the resource or kind kube prints, e.g. {@code configmaps} or {@code ConfigMap}
   */
  public static ApiError conflict(String group, String resource, String name, String why) {
    return new ApiError(409, "Conflict",
        "Operation cannot be fulfilled on " + qualified(group, resource) + " \"" + name + "\": " + why,
        details(name, group, resource));
  }

  /** 400 BadRequest with the given message and no details. */
  public static ApiError badRequest(String message) {
    return new ApiError(400, "BadRequest", message, null);
  }

  /** 405 MethodNotAllowed, as kube answers a verb a resource does not serve. */
  public static ApiError methodNotAllowed(String message) {
    return new ApiError(405, "MethodNotAllowed", message, JSON.objectNode());
  }

  /** 410 Expired (a watch or continue token older than the retained history). */
  public static ApiError expired(String message) {
    return new ApiError(410, "Expired", message, null);
  }

  /**
   * 504 Timeout for a list at a resourceVersion the server has not reached yet, as kube's watch cache answers once its
   * wait for that version runs out:
   * {@code Timeout: Too large resource version: 105, current: 5}, one {@code ResourceVersionTooLarge} cause and
   * {@code retryAfterSeconds: 1}.
   */
  public static ApiError tooLargeResourceVersion(long requested, long current) {
    ObjectNode details = JSON.objectNode();
    details.putArray("causes").addObject().put("reason", "ResourceVersionTooLarge")
        .put("message", "Too large resource version");
    details.put("retryAfterSeconds", 1);
    return new ApiError(504, "Timeout", "Timeout: Too large resource version: " + requested + ", current: "
        + current, details);
  }

  /** 415 UnsupportedMediaType. */
  public static ApiError unsupportedMediaType(String message) {
    return new ApiError(415, "UnsupportedMediaType", message, null);
  }

  /** 406 NotAcceptable. */
  public static ApiError notAcceptable(String message) {
    return new ApiError(406, "NotAcceptable", message, null);
  }

  /** 413 RequestEntityTooLarge: {@code Request entity too large: limit is <bytes>}, as kube reads an oversized body. */
  public static ApiError requestEntityTooLarge(long limitBytes) {
    return new ApiError(413, "RequestEntityTooLarge", "Request entity too large: limit is " + limitBytes, null);
  }

  /** 500 InternalError: {@code Internal error occurred: <message>}. */
  public static ApiError internal(String message) {
    ObjectNode details = JSON.objectNode();
    details.putArray("causes").addObject().put("message", message);
    return new ApiError(500, "InternalError", "Internal error occurred: " + message, details);
  }

  /**
   * An error kube-apiserver reports without a reason (storage-level errors it did not translate), e.g. 500
   * {@code resourceVersion should not be set on objects to be created}.
   */
  public static ApiError untranslated(int code, String message) {
    return new ApiError(code, "", message, null);
  }

  /** An error with a status code and reason decided elsewhere (for example by a patch engine). */
  public static ApiError of(int code, String reason, String message) {
    return new ApiError(code, reason, message, null);
  }

  /** An error with a status code, reason and details ({@code name, group, kind, causes}) decided elsewhere. */
  public static ApiError of(int code, String reason, String message, ObjectNode details) {
    return new ApiError(code, reason, message, details);
  }

  /**
   * An error as kube's {@code NewGenericServerResponse} makes it without a cause (e.g. a JSON patch operation that
   * cannot be applied: 422 Invalid, kube's generic message, {@code details: {}}).
   */
  public static ApiError genericServerResponse(int code, String reason, String message) {
    return new ApiError(code, reason, message, JSON.objectNode());
  }

  /**
   * 422 Invalid: {@code <qualifiedKind> "<name>" is invalid: <field>: <cause>} with one cause.
   *
   * @param group API group of the kind, {@code ""} for core
   * @param kindName the kind as kube prints it in this message ({@code ConfigMap}, or a resource plural for
   *     storage-level checks)
   * @param name object name
   * @param field the field path, e.g. {@code metadata.resourceVersion}
   * @param causeReason kube's cause type, e.g. {@code FieldValueInvalid}
   * @param causeMessage the cause text, e.g. {@code Invalid value: 0x0: must be specified for an update}
   */
  public static ApiError invalid(String group, String kindName, String name, String field, String causeReason,
      String causeMessage) {
    String qualifiedKind = group.isEmpty() ? kindName : kindName + "." + group;
    ObjectNode details = details(name, group, kindName);
    ArrayNode causes = details.putArray("causes");
    causes.addObject().put("reason", causeReason).put("message", causeMessage).put("field", field);
    return new ApiError(422, "Invalid",
        qualifiedKind + " \"" + name + "\" is invalid: " + field + ": " + causeMessage, details);
  }

  /**
   * 422 Invalid with a message and details (name, group, kind, causes) already built, for validation passes that
   * find several field errors at once.
   */
  public static ApiError invalid(String message, ObjectNode details) {
    return new ApiError(422, "Invalid", message, details);
  }

  private static String qualified(String group, String plural) {
    return group.isEmpty() ? plural : plural + "." + group;
  }

  private static ObjectNode details(String name, String group, String kind) {
    ObjectNode details = JSON.objectNode();
    details.put("name", name);
    if (!group.isEmpty()) {
      details.put("group", group);
    }
    details.put("kind", kind);
    return details;
  }
}
