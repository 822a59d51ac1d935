package dev.ctk.clientjava;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Mode;
import io.fabric8.kubernetes.client.Config;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.ClientCertificateAuthentication;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Builds a Kubernetes Java client {@link ApiClient} that reaches the same API server, with the same
 * credentials, as a fabric8 {@link Config}: the test's cluster in every ctk mode (the fake over
 * HTTP, envtest and container mode over TLS with the admin token, an existing cluster).
 *
 * <pre>{@code
 * @Test
 * void stamps_a_checksum(ControllerHarness harness) {
 *   ApiClient apiClient = ApiClients.forHarness(harness);
 *   SharedInformerFactory informers = new SharedInformerFactory(apiClient);
 *   CoreV1Api core = new CoreV1Api(apiClient);
 *   ...
 * }
 * }</pre>
 *
 * <p>What is converted: the master URL; the server's CA ({@code caCertData} or {@code caCertFile}),
 * {@code trustCerts} (trust any certificate and any host name) and {@code
 * disableHostnameVerification}; the client certificate and key, as PEM data or files; a bearer token
 * ({@code oauthToken}, the token a kubeconfig's user, auth provider or exec plugin gave fabric8, or
 * the current token of an {@code OAuthTokenProvider}); user name and password (basic auth); the
 * connection timeout. The read timeout is 0 (none), which Kubernetes Java client's {@code
 * SharedInformerFactory} requires for its watches.
 *
 * <p>Refused with an {@link IllegalArgumentException} that says what and how to fix it: a missing or
 * malformed master URL, a client certificate without its key (or the reverse), unreadable files,
 * invalid base64, impersonation, HTTP(S) proxies, custom headers, a TLS server name, Java key stores
 * and trust stores, an auth provider that left no token.
 *
 * <p>Not carried over: the default namespace (Kubernetes Java client has none: pass {@code
 * harness.namespace()} to each call), request retries and timeouts other than the connection
 * timeout, and token refresh: a token is read once, when the client is built.
 *
 * @since 0.1.0
 */
public final class ApiClients {

  private ApiClients() {}

  /**
   * An {@code ApiClient} for the cluster of a test: the one {@code harness.client()} talks to, with
   * its credentials. In fake mode that is the fake's HTTP listener, {@code http://127.0.0.1:<port>}
   * without credentials (started on this call: {@code harness.client()} itself talks to the fake
   * in-process, which a Kubernetes Java client cannot); in
   * envtest and container mode the API server's TLS address, its CA certificate and the admin token.
   *
   * @param harness the test's harness
   * @return a new client; its read timeout is 0, as {@code SharedInformerFactory} requires
   * @throws IllegalArgumentException if the harness client's configuration cannot be converted
   */
  public static ApiClient forHarness(ControllerHarness harness) {
    Objects.requireNonNull(harness, "ApiClients.forHarness: harness is null");
    if (harness.mode() == Mode.FAKE) {
      // harness.client() reaches the fake in-process (its master URL is a placeholder host); a client of
      // another library needs the fake's HTTP listener, which clientConfig() starts.
      return fromConfig(harness.cluster().clientConfig());
    }
    return fromConfig(harness.client().getConfiguration());
  }

  /**
   * An {@code ApiClient} for the API server and credentials of a fabric8 configuration.
   *
   * @param config the configuration, e.g. {@code kubernetesClient.getConfiguration()}
   * @return a new client; its read timeout is 0, as {@code SharedInformerFactory} requires
   * @throws IllegalArgumentException if the configuration uses something that cannot be converted;
   *     the message names it and the fix
   */
  public static ApiClient fromConfig(Config config) {
    Objects.requireNonNull(config, "ApiClients.fromConfig: config is null");
    String url = masterUrl(config);
    refuseUnsupported(config, url);
    byte[] certificate = pem(config.getClientCertData(), config.getClientCertFile(),
        "client certificate", "clientCertData", "clientCertFile", url);
    byte[] key = pem(config.getClientKeyData(), config.getClientKeyFile(), "client key",
        "clientKeyData", "clientKeyFile", url);
    if ((certificate == null) != (key == null)) {
      throw new IllegalArgumentException(prefix(url) + "it has a client "
          + (certificate == null ? "key but no client certificate" : "certificate but no client key")
          + ". Fix: give both (clientCertData/clientCertFile and clientKeyData/clientKeyFile), or "
          + "neither.");
    }
    boolean tls = url.startsWith("https://");
    ClientBuilder builder = new ClientBuilder().setBasePath(url)
        .setVerifyingSsl(!(tls && config.isTrustCerts()));
    if (tls && !config.isTrustCerts()) {
      byte[] ca = pem(config.getCaCertData(), config.getCaCertFile(), "CA certificate",
          "caCertData", "caCertFile", url);
      if (ca != null) {
        builder.setCertificateAuthority(ca);
      }
    }
    if (certificate != null) {
      builder.setAuthentication(new ClientCertificateAuthentication(certificate, key));
    }
    ApiClient client;
    try {
      client = builder.build();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(prefix(url) + "Kubernetes Java client refused its TLS "
          + "material (CA certificate, client certificate or key): " + e
          + ". Fix: give PEM data (base64 in caCertData/clientCertData/clientKeyData) or PEM files.",
          e);
    }
    if (tls && !config.isTrustCerts() && config.isDisableHostnameVerification()) {
      client.setHttpClient(client.getHttpClient().newBuilder()
          .hostnameVerifier((host, session) -> true).build());
    }
    Integer connectTimeout = config.getConnectionTimeout();
    if (connectTimeout != null && connectTimeout > 0) {
      client.setHttpClient(client.getHttpClient().newBuilder()
          .connectTimeout(connectTimeout, TimeUnit.MILLISECONDS).build());
    }
    authenticate(client, config, url);
    return client;
  }

  private static String masterUrl(Config config) {
    String url = config.getMasterUrl();
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("Cannot build a Kubernetes Java client ApiClient from "
          + "the fabric8 Config: it has no master URL. Fix: pass the configuration of a working "
          + "client (kubernetesClient.getConfiguration()), or use ApiClients.forHarness(harness).");
    }
    String trimmed = url.strip();
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    URI uri;
    try {
      uri = URI.create(trimmed);
    } catch (IllegalArgumentException e) {
      uri = null;
    }
    if (uri == null || uri.getHost() == null
        || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
        || trimmed.indexOf("://", uri.getScheme().length() + 3) >= 0) {
      throw new IllegalArgumentException("Cannot build a Kubernetes Java client ApiClient from "
          + "the fabric8 Config: its master URL \"" + url + "\" is not an http:// or https:// URL "
          + "with a host. Fix: set masterUrl to the API server's address, e.g. "
          + "https://127.0.0.1:6443.");
    }
    return trimmed;
  }

  private static void refuseUnsupported(Config config, String url) {
    List<String> refused = new ArrayList<>();
    if (notEmpty(config.getImpersonateUsername()) || (config.getImpersonateGroups() != null
        && config.getImpersonateGroups().length > 0)
        || (config.getImpersonateExtras() != null && !config.getImpersonateExtras().isEmpty())) {
      refused.add("impersonation (impersonateUsername/impersonateGroups/impersonateExtras)");
    }
    if (notEmpty(url.startsWith("https://") ? config.getHttpsProxy() : config.getHttpProxy())) {
      refused.add("a proxy (" + (url.startsWith("https://") ? "httpsProxy" : "httpProxy") + ")");
    }
    Map<String, String> headers = config.getCustomHeaders();
    if (headers != null && !headers.isEmpty()) {
      refused.add("custom headers " + headers.keySet());
    }
    if (notEmpty(config.getTlsServerName())) {
      refused.add("a TLS server name (tlsServerName)");
    }
    if (notEmpty(config.getKeyStoreFile()) || notEmpty(config.getTrustStoreFile())) {
      refused.add("Java key or trust stores (keyStoreFile/trustStoreFile)");
    }
    if (config.getAuthProvider() != null && token(config) == null) {
      refused.add("auth provider \"" + config.getAuthProvider().getName()
          + "\" without a token");
    }
    if (!refused.isEmpty()) {
      throw new IllegalArgumentException(prefix(url) + "it uses " + String.join(", ", refused)
          + ", which ctk cannot carry over to Kubernetes Java client. Fix: use a configuration "
          + "without them, or build the ApiClient yourself with io.kubernetes.client.util."
          + "ClientBuilder.");
    }
  }

  private static void authenticate(ApiClient client, Config config, String url) {
    String token = token(config);
    if (token != null) {
      client.setApiKeyPrefix("Bearer");
      client.setApiKey(token);
    } else if (notEmpty(config.getUsername()) || notEmpty(config.getPassword())) {
      if (!notEmpty(config.getUsername()) || !notEmpty(config.getPassword())) {
        throw new IllegalArgumentException(prefix(url) + "it has a "
            + (notEmpty(config.getUsername()) ? "user name but no password"
                : "password but no user name")
            + ". Fix: give both for basic authentication, or neither.");
      }
      String basic = config.getUsername() + ":" + config.getPassword();
      client.setApiKeyPrefix("Basic");
      client.setApiKey(Base64.getEncoder()
          .encodeToString(basic.getBytes(StandardCharsets.ISO_8859_1)));
    }
  }

  /** The token fabric8 would send: its provider's current one, else the explicit, else the auto one. */
  private static String token(Config config) {
    if (config.getOauthTokenProvider() != null) {
      String provided = config.getOauthTokenProvider().getToken();
      if (notEmpty(provided)) {
        return provided;
      }
    }
    if (notEmpty(config.getOauthToken())) {
      return config.getOauthToken();
    }
    return notEmpty(config.getAutoOAuthToken()) ? config.getAutoOAuthToken() : null;
  }

  private static byte[] pem(String base64, String file, String what, String dataField,
      String fileField, String url) {
    if (notEmpty(base64)) {
      try {
        return Base64.getMimeDecoder().decode(base64.strip());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(prefix(url) + "its " + dataField + " (the " + what
            + ") is not valid base64: " + e.getMessage() + ". Fix: base64-encode the PEM text, as "
            + "a kubeconfig's " + kubeconfigField(dataField) + " does.", e);
      }
    }
    if (notEmpty(file)) {
      try {
        return Files.readAllBytes(Path.of(file));
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException(prefix(url) + "cannot read its " + fileField + " (the "
            + what + ") \"" + file + "\": " + e + ". Fix: point " + fileField
            + " at a readable PEM file, or give " + dataField + " instead.", e);
      }
    }
    return null;
  }

  private static String kubeconfigField(String dataField) {
    switch (dataField) {
      case "caCertData":
        return "certificate-authority-data";
      case "clientCertData":
        return "client-certificate-data";
      default:
        return "client-key-data";
    }
  }

  private static String prefix(String url) {
    return "Cannot build a Kubernetes Java client ApiClient for " + url
        + " from the fabric8 Config: ";
  }

  private static boolean notEmpty(String text) {
    return text != null && !text.isEmpty();
  }
}
