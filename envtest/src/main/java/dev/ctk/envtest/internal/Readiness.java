package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Waits until a freshly started API server can serve tests: {@code GET /readyz} answers {@code ok}
 * (anonymous access is allowed there once RBAC is bootstrapped; the admin token is sent anyway),
 * then namespace {@code default} exists (it appears a fraction of a second after {@code /readyz}),
 * then reads {@code /version}.
 *
 * <pre>{@code
 * String gitVersion = Readiness.awaitReady(admin, Duration.ofSeconds(60),
 *     process::throwIfExited, process::describeLog);   // "v1.20.2"
 * }</pre>
 *
 * <p>Limits: it polls every 100 ms with requests bounded by 2 s (connect) and 5 s (answer) and no
 * retries; it checks nothing beyond those three endpoints (no CRD, no controller).
 */
public final class Readiness {

  private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
  private static final int REQUEST_TIMEOUT_MILLIS = 5_000;

  private Readiness() {}

  /**
   * Polls until the server is ready or {@code timeout} has passed since this call.
   *
   * @param admin a configuration that reaches the server as admin
   * @param timeout how long to wait at most
   * @param stillAlive called before every poll; throws {@link EnvtestException} if the server's
   *     process or container has died (that exception then propagates unchanged)
   * @param diagnostics called once on timeout; its text (typically the last log lines) ends the
   *     message
   * @return the server's {@code gitVersion}, e.g. {@code v1.20.2}
   * @throws EnvtestException on timeout, on interruption, or from {@code stillAlive}
   */
  public static String awaitReady(
      Config admin, Duration timeout, Runnable stillAlive, Supplier<String> diagnostics) {
    return awaitReady(admin, timeout, System.nanoTime(), stillAlive, diagnostics);
  }

  /**
   * As {@link #awaitReady(Config, Duration, Runnable, Supplier)}, with the bound counted from
   * {@code startNanos} (the start of the whole server, so that the message names the configured
   * start timeout and the full elapsed time).
   *
   * @param admin a configuration that reaches the server as admin
   * @param timeout how long to wait at most, from {@code startNanos}
   * @param startNanos a {@link System#nanoTime()} value
   * @param stillAlive called before every poll
   * @param diagnostics appended to the timeout message
   * @return the server's {@code gitVersion}
   */
  public static String awaitReady(
      Config admin,
      Duration timeout,
      long startNanos,
      Runnable stillAlive,
      Supplier<String> diagnostics) {
    Config probe =
        new ConfigBuilder(admin)
            .withRequestRetryBackoffLimit(0)
            .withConnectionTimeout(CONNECT_TIMEOUT_MILLIS)
            .withRequestTimeout(REQUEST_TIMEOUT_MILLIS)
            .build();
    String url = admin.getMasterUrl().replaceAll("/+$", "");
    Stage[] stage = {Stage.READYZ};
    String[] version = new String[1];
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(probe).build()) {
      Poll.until(
          "kube-apiserver at " + url,
          timeout,
          startNanos,
          () -> stage[0].what,
          () -> {
            if (stage[0] == Stage.READYZ) {
              String answer = readyz(client.getHttpClient(), url);
              if (answer != null) {
                return answer;
              }
              stage[0] = Stage.DEFAULT_NAMESPACE;
            }
            if (stage[0] == Stage.DEFAULT_NAMESPACE) {
              if (client.namespaces().withName("default").get() == null) {
                return "namespace \"default\" not found (404)";
              }
              stage[0] = Stage.VERSION;
            }
            version[0] = client.getKubernetesVersion().getGitVersion();
            return null;
          },
          stillAlive,
          diagnostics);
    }
    return version[0];
  }

  /** Returns null when /readyz answered ok, else what it answered. */
  private static String readyz(HttpClient http, String url)
      throws InterruptedException, ExecutionException, TimeoutException {
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(url + "/readyz")
            .timeout(REQUEST_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
            .build();
    HttpResponse<String> response =
        http.sendAsync(request, String.class)
            .get(REQUEST_TIMEOUT_MILLIS + CONNECT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    String body = response.body() == null ? "" : response.body().strip();
    if (response.code() == 200 && body.equals("ok")) {
      return null;
    }
    return "HTTP " + response.code() + " " + failedChecks(body);
  }

  private static String failedChecks(String body) {
    String failed =
        body.lines().filter(line -> line.startsWith("[-]")).collect(Collectors.joining("; "));
    return failed.isEmpty() ? body : failed;
  }

  private enum Stage {
    READYZ("GET /readyz never answered ok"),
    DEFAULT_NAMESPACE("/readyz answered ok but namespace \"default\" did not appear"),
    VERSION("namespace \"default\" exists but GET /version failed");

    private final String what;

    Stage(String what) {
      this.what = what;
    }
  }
}
