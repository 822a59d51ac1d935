package dev.ctk.envtest.internal;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Asks a kube-controller-manager that ctk started (a child process, or a container) for {@code GET /healthz} on its
 * secure port. Its serving certificate is one it made itself at start, so it is not verified: it is ctk's own
 * process, on loopback or a port its Docker engine published, and the answer carries nothing secret.
 *
 * <pre>{@code
 * String problem = new ControllerManagerHealth(10257).check(); // null when it answers "ok"
 * }</pre>
 */
public final class ControllerManagerHealth {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

  private final HttpClient http;
  private final URI healthz;

  /**
   * A check of the kube-controller-manager serving on {@code 127.0.0.1:securePort}.
   *
   * @param securePort its secure port
   */
  public ControllerManagerHealth(int securePort) {
    this("127.0.0.1", securePort);
  }

  /**
   * A check of the kube-controller-manager serving on {@code host:port} (a container's published port).
   *
   * @param host the host, bracketed when an IPv6 address
   * @param port the port
   */
  public ControllerManagerHealth(String host, int port) {
    this.healthz = URI.create("https://" + host + ":" + port + "/healthz");
    // HTTP/1.1: over HTTP/2 a Go 1.3x server answered the JDK client's first request with GOAWAY
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT)
        .sslContext(trustingItsOwnCertificate()).build();
  }

  /**
   * Asks once.
   *
   * @return {@code null} when it says {@code ok}, else its answer
   * @throws IOException when it does not answer
   * @throws InterruptedException when interrupted
   */
  public String check() throws IOException, InterruptedException {
    HttpResponse<String> response = http.send(
        HttpRequest.newBuilder(healthz).timeout(REQUEST_TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
    String body = response.body().strip();
    return response.statusCode() == 200 && body.equals("ok") ? null : "HTTP " + response.statusCode() + " " + body;
  }

  private static SSLContext trustingItsOwnCertificate() {
    TrustManager trustAll = new X509TrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) {
        // not a server
      }

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType) {
        // ctk's own process, a certificate it generated at start
      }

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
      }
    };
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {trustAll}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no TLS in this JVM: " + e, e);
    }
  }
}
