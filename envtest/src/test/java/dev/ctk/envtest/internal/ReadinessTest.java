package dev.ctk.envtest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Readiness against a small JDK HTTP server that plays a starting kube-apiserver. */
class ReadinessTest {

  private static final String NAMESPACE =
      "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"default\"}}";
  private static final String VERSION =
      "{\"major\":\"1\",\"minor\":\"20\",\"gitVersion\":\"v1.20.2\"}";

  private HttpServer server;
  private String url;
  private final AtomicInteger readyzCalls = new AtomicInteger();
  private final AtomicInteger namespaceCalls = new AtomicInteger();
  private volatile int readyAfter = 3;
  private volatile int namespaceAfter = 2;

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/readyz",
        exchange -> {
          if (readyzCalls.incrementAndGet() > readyAfter) {
            answer(exchange, 200, "ok");
          } else {
            answer(
                exchange,
                500,
                "[+]ping ok\n[-]poststarthook/rbac/bootstrap-roles failed: reason withheld\n"
                    + "readyz check failed");
          }
        });
    server.createContext(
        "/api/v1/namespaces/default",
        exchange -> {
          if (namespaceCalls.incrementAndGet() > namespaceAfter) {
            answer(exchange, 200, NAMESPACE);
          } else {
            answer(exchange, 404, "{\"kind\":\"Status\",\"code\":404}");
          }
        });
    server.createContext("/version", exchange -> answer(exchange, 200, VERSION));
    server.start();
    url = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  @Test
  void waits_for_readyz_then_the_default_namespace_and_returns_the_version() {
    String version =
        Readiness.awaitReady(config(), Duration.ofSeconds(30), () -> {}, () -> "no diagnostics");

    assertThat(version).isEqualTo("v1.20.2");
    assertThat(readyzCalls).hasValue(4);
    assertThat(namespaceCalls).hasValue(3);
  }

  @Test
  void times_out_with_the_stage_the_last_answer_and_the_diagnostics() {
    readyAfter = Integer.MAX_VALUE;

    EnvtestException failure =
        catchThrowableOfType(
            EnvtestException.class,
            () ->
                Readiness.awaitReady(
                    config(), Duration.ofMillis(700), () -> {}, () -> "Its log (1 line):\n  boom"));

    assertThat(failure.getMessage().replaceAll("waited \\d+(?:\\.\\d)?(?:µs|ms|s)", "waited <t>s"))
        .isEqualTo(
            "kube-apiserver at "
                + url
                + " did not become ready within 700ms (waited <t>s): GET /readyz never answered ok;"
                + " last answer: HTTP 500 [-]poststarthook/rbac/bootstrap-roles failed: reason"
                + " withheld. If the machine is only slow, raise the start timeout; otherwise the"
                + " lines below say why.\nIts log (1 line):\n  boom");
  }

  @Test
  void a_missing_default_namespace_is_named_on_timeout() {
    readyAfter = 0;
    namespaceAfter = Integer.MAX_VALUE;

    assertThatThrownBy(
            () -> Readiness.awaitReady(config(), Duration.ofMillis(500), () -> {}, () -> ""))
        .isInstanceOf(EnvtestException.class)
        .hasMessageContaining(
            "): /readyz answered ok but namespace \"default\" did not appear; last answer:"
                + " namespace \"default\" not found (404). If the machine");
  }

  @Test
  void a_dead_server_ends_the_wait_with_the_exception_of_stillAlive() {
    EnvtestException died = new EnvtestException("kube-apiserver exited with code 1");

    assertThatThrownBy(
            () ->
                Readiness.awaitReady(
                    config(),
                    Duration.ofSeconds(30),
                    () -> {
                      throw died;
                    },
                    () -> ""))
        .isSameAs(died);
  }

  @Test
  void a_refused_connection_is_the_last_answer() {
    server.stop(0);

    assertThatThrownBy(
            () -> Readiness.awaitReady(config(), Duration.ofMillis(300), () -> {}, () -> ""))
        .isInstanceOf(EnvtestException.class)
        .hasMessageContaining("GET /readyz never answered ok; last answer: ")
        .hasMessageContaining("Connection refused");
  }

  private io.fabric8.kubernetes.client.Config config() {
    return AdminCredentials.generate().clientConfig(url, null);
  }

  private static void answer(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
