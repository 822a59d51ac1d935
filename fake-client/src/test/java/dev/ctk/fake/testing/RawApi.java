package dev.ctk.fake.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Plain HTTP calls against a fake cluster, to check exact status codes and bodies. */
public final class RawApi {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String baseUrl;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  public RawApi(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  /** A response: status code, content type and body. */
  public record Reply(int code, String contentType, String body) {
    public JsonNode json() {
      return RawApi.json(body);
    }
  }

  public Reply get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  public Reply post(String path, String json) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  public Reply put(String path, String json) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(json)));
  }

  public Reply patch(String path, String contentType, String body) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
        .method("PATCH", HttpRequest.BodyPublishers.ofString(body)));
  }

  public Reply delete(String path) {
    return send(HttpRequest.newBuilder(uri(path)).DELETE());
  }

  public Reply delete(String path, String deleteOptions) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .method("DELETE", HttpRequest.BodyPublishers.ofString(deleteOptions)));
  }

  /** A GET with one more header, e.g. a very long one. */
  public Reply get(String path, String header, String value) {
    return send(HttpRequest.newBuilder(uri(path)).header(header, value).GET());
  }

  /** Any method with a body of bytes, e.g. a protobuf envelope. */
  public Reply send(String method, String path, String contentType, byte[] body) {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
        .method(method, HttpRequest.BodyPublishers.ofByteArray(body)));
  }

  /** Opens an HTTP-streaming watch; lines are collected in the background. */
  public WatchLines watch(String pathWithQuery) {
    return new WatchLines(http, uri(pathWithQuery));
  }

  public static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + text, e);
    }
  }

  private URI uri(String path) {
    return URI.create(baseUrl + path);
  }

  /** Sends and reads the whole body, bounded: a response that never ends (e.g. served as a watch) fails the test. */
  private Reply send(HttpRequest.Builder request) {
    HttpRequest built = request.timeout(Duration.ofSeconds(10)).build();
    try {
      HttpResponse<String> response = http.sendAsync(built, HttpResponse.BodyHandlers.ofString())
          .get(15, TimeUnit.SECONDS);
      return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
          response.body());
    } catch (ExecutionException e) {
      throw new IllegalStateException(built.method() + " " + built.uri() + " failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(built.method() + " " + built.uri() + " did not complete within 15s (a response "
          + "that never ends, such as a watch?)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
