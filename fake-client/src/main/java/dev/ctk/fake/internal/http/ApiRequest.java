package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.fault.FaultTarget;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.values.ApiRequestRecord;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One HTTP request as the fake API server's handlers see it, whichever way it arrived (through mockwebserver's
 * request handler, or directly from Vert.x for streaming watches).
 *
 * @param method upper-case HTTP method
 * @param path the decoded path, without query
 * @param query decoded query parameters
 * @param headers request headers, names lower-cased (multiple values joined with a comma)
 * @param body the request body ({@code null} when none)
 * @param parsedPath the resource parts of {@code path}, parsed once when the request is built ({@code null} for
 *     discovery and every other path that names no resource); read it through {@link #resourcePath()}
 */
public record ApiRequest(String method, String path, Map<String, List<String>> query, Map<String, String> headers,
    byte[] body, ResourcePath parsedPath) {

  /** From a request mockwebserver recorded. */
  public static ApiRequest from(RecordedRequest request) {
    Map<String, String> headers = new TreeMap<>();
    request.getHeaders().toMultimap().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
    byte[] body = request.getBody() == null ? null : request.getBody().getBytes();
    return of(request.getMethod(), request.getPath(), headers, body);
  }

  /** From a Vert.x request whose body is not read (GET watches). */
  public static ApiRequest from(HttpServerRequest request) {
    return from(request, null);
  }

  /** From a Vert.x request and its body ({@code null} or empty when none). */
  public static ApiRequest from(HttpServerRequest request, byte[] body) {
    Map<String, String> headers = new TreeMap<>();
    request.headers().forEach(e -> headers.merge(e.getKey().toLowerCase(Locale.ROOT), e.getValue(),
        (a, b) -> a + "," + b));
    return of(request.method().name(), request.uri(), headers, body == null || body.length == 0 ? null : body);
  }

  /**
   * Builds a request from its parts.
   *
   * @param method HTTP method
   * @param uri path and query, percent-encoded
   * @param headers header names in lower case
   * @param body body bytes or {@code null}
   * @return the request
   */
  public static ApiRequest of(String method, String uri, Map<String, String> headers, byte[] body) {
    QueryStringDecoder decoder = new QueryStringDecoder(uri, StandardCharsets.UTF_8);
    String path = decoder.path();
    return new ApiRequest(method.toUpperCase(Locale.ROOT), path, decoder.parameters(), headers, body,
        ResourcePath.parse(path).orElse(null));
  }

  /**
   * The resource the path names, parsed once for every step that needs it (routing, the journal, faults, watches).
   *
   * @return the parts, or empty for discovery and every other path that names no resource
   */
  public Optional<ResourcePath> resourcePath() {
    return Optional.ofNullable(parsedPath);
  }

  /** The first value of a query parameter, or {@code null}. */
  public String param(String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** A header value (name in any case), or {@code null}. */
  public String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }

  /** The media type of the body, lower-case and without parameters ({@code ""} when absent). */
  public String contentType() {
    String value = header("content-type");
    if (value == null) {
      return "";
    }
    int semicolon = value.indexOf(';');
    return (semicolon < 0 ? value : value.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
  }

  /** Whether the body is absent or empty. */
  public boolean hasNoBody() {
    return body == null || body.length == 0;
  }

  /** Whether the query asks for a watch, read as kube reads a boolean ({@code QueryBoolean}). */
  public boolean watchParam() {
    return dev.ctk.fake.internal.common.QueryBoolean.parse(param("watch"));
  }

  /** Whether this is a websocket upgrade request. */
  public boolean isWebSocketUpgrade() {
    String upgrade = header("upgrade");
    return upgrade != null && upgrade.equalsIgnoreCase("websocket");
  }

  /**
   * The journal record of this request as received, before it is answered (code 0, not changed, no fault, no
   * generation): the verb as kube derives it, the resource from the path, the patch type from the content type,
   * the body's resourceVersion for updates and patches, the client from {@code User-Agent}.
   */
  public ApiRequestRecord describe(long sequence, Instant time, ResourceRegistry registry) {
    Optional<ResourcePath> parsed = resourcePath();
    String verb = verb(parsed.orElse(null));
    String kind = null;
    String resource = path;
    String namespace = null;
    String name = null;
    String subresource = null;
    if (parsed.isPresent()) {
      ResourcePath p = parsed.get();
      resource = p.resource();
      kind = type(p, registry).map(ResourceType::kind).orElse(null);
      namespace = p.namespace();
      name = p.name();
      subresource = p.subresource();
    }
    boolean selects = verb.equals("list") || verb.equals("watch") || verb.equals("deletecollection");
    return ApiRequestRecord.builder().sequence(sequence).time(time).verb(verb).kind(kind).resource(resource)
        .namespace(namespace).name(name).subresource(subresource)
        .patchType(verb.equals("patch") ? patchType() : null).fieldManager(param("fieldManager"))
        .labelSelector(selects ? param("labelSelector") : null).fieldSelector(selects ? param("fieldSelector") : null)
        .bodyResourceVersion(verb.equals("update") || verb.equals("patch") ? bodyResourceVersion() : null)
        .client(header("user-agent")).build();
  }

  /** What an error answer for this request names: its resource and object. */
  public FaultTarget faultTarget(ResourceRegistry registry) {
    Optional<ResourcePath> parsed = resourcePath();
    if (parsed.isEmpty()) {
      return new FaultTarget("", path, null, "");
    }
    ResourcePath p = parsed.get();
    Optional<ResourceType> type = type(p, registry);
    String name = p.name() != null ? p.name() : bodyName();
    return new FaultTarget(type.map(ResourceType::group).orElse(p.group()), p.resource(),
        type.map(ResourceType::kind).orElse(null), name);
  }

  private String verb(ResourcePath p) {
    boolean named = p != null && p.name() != null;
    return switch (method) {
      case "GET" -> watchParam() || isWebSocketUpgrade() || (p != null && p.legacyWatch()) ? "watch"
          : named || p == null ? "get" : "list";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> named ? "delete" : "deletecollection";
      default -> method.toLowerCase(Locale.ROOT);
    };
  }

  private static Optional<ResourceType> type(ResourcePath p, ResourceRegistry registry) {
    try {
      return registry.byPath(p.group(), p.version(), p.resource());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private String patchType() {
    return switch (contentType()) {
      case "application/json-patch+json" -> "json";
      case "application/merge-patch+json" -> "merge";
      case "application/strategic-merge-patch+json" -> "strategic-merge";
      case "application/apply-patch+yaml", "application/apply-patch+cbor" -> "apply";
      default -> null;
    };
  }

  /**
   * metadata.resourceVersion of the body; for a JSON patch, the value a test or replace sets it to. A JSON object is
   * read as a stream (its other fields skipped, no tree built: the request's handler decodes the body itself); a JSON
   * patch, YAML and protobuf bodies are decoded. A skipped string is not held to Jackson's length limit (20 million
   * characters); such a body is far over kube's 3 MiB, which the handler refuses with 413.
   */
  private String bodyResourceVersion() {
    if (hasNoBody()) {
      return null;
    }
    String contentType = contentType();
    if (!contentType.contains("yaml") && !contentType.contains("protobuf") && !contentType.contains("cbor")) {
      try (JsonParser parser = JsonCodec.JSON.createParser(body)) {
        JsonToken first = parser.nextToken();
        if (first == JsonToken.START_OBJECT) {
          return metadataResourceVersion(parser);
        }
        if (first != JsonToken.START_ARRAY) {
          return null;
        }
      } catch (IOException | RuntimeException e) {
        return null;   // a body that does not decode: the record has no resourceVersion (the handler answers 400)
      }
    }
    JsonNode body = bodyTree();
    if (body == null) {
      return null;
    }
    if (body.isArray()) {
      String found = null;
      for (JsonNode op : body) {
        String kind = op.path("op").asText("");
        if ((kind.equals("test") || kind.equals("replace")) && op.path("path").asText("")
            .equals("/metadata/resourceVersion") && op.path("value").isValueNode() && !op.path("value").isNull()) {
          found = op.path("value").asText();
        }
      }
      return found;
    }
    JsonNode rv = body.path("metadata").path("resourceVersion");
    return rv.isValueNode() && !rv.isNull() && !rv.asText().isEmpty() ? rv.asText() : null;
  }

  /**
   * The resourceVersion of the object the parser is in (just after its '{'), as a tree would give it: the last
   * {@code metadata} and the last {@code resourceVersion} in it win, and only a scalar that is not null or empty
   * counts. Reads to the end of the object, so a malformed body is no more accepted here than by a tree's read.
   */
  private static String metadataResourceVersion(JsonParser parser) throws IOException {
    JsonNode found = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      JsonToken value = parser.nextToken();
      if (!field.equals("metadata")) {
        parser.skipChildren();
        continue;
      }
      found = null;
      if (value != JsonToken.START_OBJECT) {
        parser.skipChildren();
        continue;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken member = parser.nextToken();
        if (name.equals("resourceVersion")) {
          found = member.isScalarValue() ? parser.readValueAsTree() : null;
        }
        parser.skipChildren();
      }
    }
    return found != null && !found.isNull() && !found.asText().isEmpty() ? found.asText() : null;
  }

  private String bodyName() {
    JsonNode body = bodyTree();
    JsonNode name = body == null ? null : body.path("metadata").path("name");
    return name != null && name.isTextual() ? name.asText() : "";
  }

  private JsonNode bodyTree() {
    if (hasNoBody()) {
      return null;
    }
    try {
      return JsonCodec.readTree(this, "");
    } catch (RuntimeException e) {
      // ApiError for bodies that do not decode: the record then has no resourceVersion or name
      return null;
    }
  }

  @Override
  public String toString() {
    return method + " " + path;
  }
}
