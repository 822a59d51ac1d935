package dev.ctk.envtest.internal;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Asks a local etcd for {@code GET /health} over plain HTTP (ctk's etcd listens on {@code
 * 127.0.0.1} only, without TLS).
 *
 * <pre>{@code
 * String problem = new EtcdHealth(2379).check(); // null when {"health":"true"}
 * }</pre>
 */
public final class EtcdHealth {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
  private final URI health;

  /**
   * A check of the etcd on {@code 127.0.0.1:clientPort}.
   *
   * @param clientPort its client port
   */
  public EtcdHealth(int clientPort) {
    this.health = URI.create("http://127.0.0.1:" + clientPort + "/health");
  }

  /**
   * Asks once.
   *
   * @return {@code null} when etcd says it is healthy, else its answer
   * @throws IOException when it does not answer
   * @throws InterruptedException when interrupted
   */
  public String check() throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(health).timeout(REQUEST_TIMEOUT).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    String body = response.body().strip();
    if (response.statusCode() == 200 && body.replace(" ", "").contains("\"health\":\"true\"")) {
      return null;
    }
    return "HTTP " + response.statusCode() + " " + body;
  }
}
