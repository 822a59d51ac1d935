package dev.ctk.fake.internal.http;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 */
public record ApiRequest(String method, String path, Map<String, List<String>> query, Map<String, String> headers,
    byte[] body) {

  /** From a request mockwebserver recorded. */
  public static ApiRequest from(RecordedRequest request) {
    Map<String, String> headers = new TreeMap<>();
    request.getHeaders().toMultimap().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
    byte[] body = request.getBody() == null ? null : request.getBody().getBytes();
    return of(request.getMethod(), request.getPath(), headers, body);
  }

  /** From a Vert.x request whose body is not read (GET watches). */
  public static ApiRequest from(HttpServerRequest request) {
    Map<String, String> headers = new TreeMap<>();
    request.headers().forEach(e -> headers.merge(e.getKey().toLowerCase(Locale.ROOT), e.getValue(),
        (a, b) -> a + "," + b));
    return of(request.method().name(), request.uri(), headers, null);
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
    return new ApiRequest(method.toUpperCase(Locale.ROOT), decoder.path(), decoder.parameters(), headers, body);
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

  /** Whether the query asks for a watch ({@code watch=true} or {@code watch=1}). */
  public boolean watchParam() {
    String watch = param("watch");
    return watch != null && (watch.equalsIgnoreCase("true") || watch.equals("1"));
  }

  /** Whether this is a websocket upgrade request. */
  public boolean isWebSocketUpgrade() {
    String upgrade = header("upgrade");
    return upgrade != null && upgrade.equalsIgnoreCase("websocket");
  }

  @Override
  public String toString() {
    return method + " " + path;
  }
}
