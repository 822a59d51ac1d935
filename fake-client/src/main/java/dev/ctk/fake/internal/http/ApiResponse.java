package dev.ctk.fake.internal.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A complete answer of the {@link ApiDispatcher}: status code, headers and body. The body array is the one the
 * serializer produced and is handed to the {@link ApiExchange} as it is, never copied on the way (a list of 10,000
 * objects is several megabytes). Nothing may change the array once the response is built.
 */
final class ApiResponse {

  private static final String JSON = "application/json";

  private final int code;
  private final String contentType;
  private final boolean noCache;
  private final byte[] body;
  private final String createdName;

  private ApiResponse(int code, String contentType, boolean noCache, byte[] body, String createdName) {
    this.code = code;
    this.contentType = contentType;
    this.noCache = noCache;
    this.body = body;
    this.createdName = createdName;
  }

  /** A JSON answer ({@code Content-Type: application/json} and {@code Cache-Control: no-cache, private}, as kube). */
  static ApiResponse json(int code, byte[] body) {
    return new ApiResponse(code, JSON, true, body, null);
  }

  /** {@code 204 No Content}: no body and no {@code Content-Type}, as kube answers the log of an unscheduled Pod. */
  static ApiResponse noContent() {
    return new ApiResponse(204, null, false, new byte[0], null);
  }

  /** An answer of another media type, with only its {@code Content-Type} header. */
  static ApiResponse of(int code, String contentType, byte[] body) {
    return new ApiResponse(code, contentType, false, body, null);
  }

  /**
   * The same answer, told the name of the object a create stored (the journal reads that object's generation
   * without parsing the body back).
   */
  ApiResponse created(String name) {
    return new ApiResponse(code, contentType, noCache, body, name);
  }

  /** The name of the object a create stored, or {@code null} for every other answer. */
  String createdName() {
    return createdName;
  }

  int code() {
    return code;
  }

  /** The body bytes themselves (not a copy), empty for none. */
  byte[] body() {
    return body;
  }

  /**
   * A new header map: {@code content-type}, then {@code cache-control} for JSON answers (lower-case names, as these
   * answers always carried them).
   */
  Map<String, List<String>> headers() {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    if (contentType != null) {
      headers.put("content-type", List.of(contentType));
    }
    if (noCache) {
      headers.put("cache-control", List.of("no-cache, private"));
    }
    return headers;
  }
}
