package dev.ctk.contract;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Plain HTTP requests to an API server, for what fabric8 hides: status codes, whole {@code Status} bodies, patch
 * content types, query parameters such as {@code dryRun} or {@code fieldManager}, and watch streams read to their
 * end. It sends through the fabric8 client's own HTTP client, so TLS and the admin token are those of the client.
 *
 * <pre>{@code
 * Response r = t.api().patch(t.core("configmaps/web"), RawApi.JSON_PATCH, "[{\"op\":\"test\",...}]");
 * }</pre>
 */
public final class RawApi {

  /** {@code application/json}. */
  public static final String JSON = "application/json";
  /** {@code application/json-patch+json}. */
  public static final String JSON_PATCH = "application/json-patch+json";
  /** {@code application/merge-patch+json}. */
  public static final String MERGE_PATCH = "application/merge-patch+json";
  /** {@code application/strategic-merge-patch+json}. */
  public static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
  /** {@code application/apply-patch+yaml}, server-side apply. */
  public static final String APPLY_PATCH = "application/apply-patch+yaml";

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final long TIMEOUT_SECONDS = 30;

  private final HttpClient http;
  private final String baseUrl;

  RawApi(KubernetesClient client) {
    this.http = client.getHttpClient();
    String master = client.getConfiguration().getMasterUrl();
    this.baseUrl = master.endsWith("/") ? master.substring(0, master.length() - 1) : master;
  }

  /**
   * GET.
   *
   * @param path absolute path with query, e.g. {@code /api/v1/namespaces/ns/configmaps?limit=1}
   * @return the answer
   */
  public Response get(String path) {
    return send("GET", path, null, null);
  }

  /**
   * POST a JSON body.
   *
   * @param path absolute path with query
   * @param json the body
   * @return the answer
   */
  public Response post(String path, String json) {
    return send("POST", path, JSON, json);
  }

  /**
   * PUT a JSON body.
   *
   * @param path absolute path with query
   * @param json the body
   * @return the answer
   */
  public Response put(String path, String json) {
    return send("PUT", path, JSON, json);
  }

  /**
   * PATCH with a content type.
   *
   * @param path absolute path with query
   * @param contentType one of the patch types of this class
   * @param patch the body
   * @return the answer
   */
  public Response patch(String path, String contentType, String patch) {
    return send("PATCH", path, contentType, patch);
  }

  /**
   * DELETE without body.
   *
   * @param path absolute path with query
   * @return the answer
   */
  public Response delete(String path) {
    return send("DELETE", path, null, null);
  }

  /**
   * DELETE with {@code DeleteOptions} as body.
   *
   * @param path absolute path with query
   * @param deleteOptions JSON {@code DeleteOptions}
   * @return the answer
   */
  public Response delete(String path, String deleteOptions) {
    return send("DELETE", path, JSON, deleteOptions);
  }

  /**
   * Reads a watch ({@code ?watch=true} is added) that the server ends after {@code timeoutSeconds}: the events it
   * sent, in order. Each event is {@code {"type":..., "object":...}}.
   *
   * @param path absolute collection path with query, e.g. {@code ...?resourceVersion=12}
   * @param timeoutSeconds the server-side timeout; the whole stream is read until the server closes it
   * @return the events
   */
  public List<JsonNode> watch(String path, int timeoutSeconds) {
    String url = path + (path.contains("?") ? "&" : "?") + "watch=true&timeoutSeconds=" + timeoutSeconds;
    Response r = send("GET", url, null, null);
    if (r.code() != 200) {
      throw new AssertionError("watch " + url + " answered " + r.code() + ": " + r.text());
    }
    List<JsonNode> events = new ArrayList<>();
    try (MappingIterator<JsonNode> it = MAPPER.readerFor(JsonNode.class).readValues(r.text())) {
      while (it.hasNext()) {
        events.add(it.next());
      }
    } catch (IOException e) {
      throw new AssertionError("watch " + url + " sent a stream that is not JSON events: " + r.text(), e);
    }
    return events;
  }

  /**
   * Any request, with the content type as given (e.g. {@code text/plain}, to see a 415).
   *
   * @param method the HTTP method
   * @param path absolute path with query
   * @param contentType the {@code Content-Type}, or {@code null} for no body
   * @param body the body, or {@code null}
   * @return the answer
   */
  public Response send(String method, String path, String contentType, String body) {
    return send(method, path, contentType, body, Map.of());
  }

  /**
   * A GET with more headers, e.g. a very long one.
   *
   * @param path absolute path with query
   * @param headers the headers, by name
   * @return the answer
   */
  public Response get(String path, Map<String, String> headers) {
    return send("GET", path, null, null, headers);
  }

  private Response send(String method, String path, String contentType, String body, Map<String, String> headers) {
    HttpRequest.Builder builder = http.newHttpRequestBuilder()
        .uri(baseUrl + path)
        .method(method, contentType, body)
        .header("Accept", JSON);
    headers.forEach(builder::header);
    HttpRequest request = builder.build();
    try {
      HttpResponse<String> response = http.sendAsync(request, String.class).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      String text = response.body() == null ? "" : response.body();
      return new Response(response.code(), parse(text), text);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(method + " " + path + " was interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(method + " " + baseUrl + path + " got no answer within " + TIMEOUT_SECONDS
          + " s: " + e, e);
    }
  }

  static JsonNode parse(String text) {
    if (text.isBlank()) {
      return MissingNode.getInstance();
    }
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      return MissingNode.getInstance();
    }
  }
}
