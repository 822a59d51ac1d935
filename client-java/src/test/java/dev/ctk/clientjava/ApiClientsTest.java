package dev.ctk.clientjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.auth.ApiKeyAuth;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a fabric8 {@code Config} becomes a Kubernetes Java client {@code ApiClient}, and what is refused. */
class ApiClientsTest {

  private static final String URL = "https://127.0.0.1:6443";

  @Test
  void converts_a_plain_http_url_without_credentials() {
    // WHEN
    ApiClient client = ApiClients.fromConfig(config("http://127.0.0.1:40123/").build());
    // THEN
    assertThat(client.getBasePath()).isEqualTo("http://127.0.0.1:40123");
    assertThat(bearer(client).getApiKey()).isNull();
    assertThat(client.getReadTimeout()).isZero();
  }

  @Test
  void converts_a_token_and_a_ca_certificate_as_envtest_gives_them() throws Exception {
    // WHEN
    ApiClient client = ApiClients.fromConfig(config(URL).withOauthToken("admin-token")
        .withCaCertData(base64(resource("tls/client.crt"))).build());
    // THEN
    assertThat(client.getBasePath()).isEqualTo(URL);
    assertThat(client.isVerifyingSsl()).isTrue();
    assertThat(client.getSslCaCert()).isNotNull();
    assertThat(bearer(client).getApiKeyPrefix()).isEqualTo("Bearer");
    assertThat(bearer(client).getApiKey()).isEqualTo("admin-token");
  }

  @Test
  void converts_a_client_certificate_and_key_from_files() throws Exception {
    // WHEN
    ApiClient client = ApiClients.fromConfig(config(URL)
        .withClientCertFile(path("tls/client.crt")).withClientKeyFile(path("tls/client.key"))
        .withCaCertFile(path("tls/client.crt")).build());
    // THEN
    assertThat(client.getKeyManagers()).isNotEmpty();
    assertThat(client.getSslCaCert()).isNotNull();
  }

  @Test
  void converts_a_client_certificate_and_key_from_data_and_trusts_any_server_when_asked()
      throws Exception {
    // WHEN
    ApiClient client = ApiClients.fromConfig(config(URL)
        .withClientCertData(base64(resource("tls/client.crt")))
        .withClientKeyData(base64(resource("tls/client.key")))
        .withTrustCerts(true).build());
    // THEN
    assertThat(client.getKeyManagers()).isNotEmpty();
    assertThat(client.isVerifyingSsl()).isFalse();
  }

  @Test
  void converts_the_token_of_a_token_provider_and_basic_auth() {
    // WHEN
    ApiClient provided = ApiClients.fromConfig(config(URL).withOauthToken("stale")
        .withOauthTokenProvider(() -> "fresh").build());
    ApiClient basic = ApiClients.fromConfig(config(URL).withUsername("admin")
        .withPassword("secret").build());
    // THEN
    assertThat(bearer(provided).getApiKey()).isEqualTo("fresh");
    assertThat(bearer(basic).getApiKeyPrefix()).isEqualTo("Basic");
    assertThat(bearer(basic).getApiKey()).isEqualTo(
        Base64.getEncoder().encodeToString("admin:secret".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void refuses_a_config_without_a_master_url() {
    // GIVEN (fabric8 itself always fills in a master URL; another Config subclass may not)
    Config withoutUrl = new Config(Config.empty()) {
      @Override
      public String getMasterUrl() {
        return null;
      }
    };
    // THEN
    assertThatThrownBy(() -> ApiClients.fromConfig(withoutUrl))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot build a Kubernetes Java client ApiClient from the fabric8 Config: it has "
            + "no master URL. Fix: pass the configuration of a working client "
            + "(kubernetesClient.getConfiguration()), or use ApiClients.forHarness(harness).");
  }

  @Test
  void refuses_a_master_url_that_is_not_http() {
    // fabric8 makes "ftp://example.org" into "http://ftp://example.org/"
    assertThatThrownBy(() -> ApiClients.fromConfig(config("ftp://example.org").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot build a Kubernetes Java client ApiClient from the fabric8 Config: its "
            + "master URL \"http://ftp://example.org/\" is not an http:// or https:// URL with a host. Fix: "
            + "set masterUrl to the API server's address, e.g. https://127.0.0.1:6443.");
  }

  @Test
  void refuses_a_client_certificate_without_its_key() throws Exception {
    assertThatThrownBy(() -> ApiClients.fromConfig(config(URL)
            .withClientCertData(base64(resource("tls/client.crt"))).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot build a Kubernetes Java client ApiClient for https://127.0.0.1:6443 "
            + "from the fabric8 Config: it has a client certificate but no client key. Fix: give "
            + "both (clientCertData/clientCertFile and clientKeyData/clientKeyFile), or neither.");
  }

  @Test
  void refuses_a_file_it_cannot_read() {
    assertThatThrownBy(() -> ApiClients.fromConfig(config(URL)
            .withCaCertFile("/nonexistent/ca.crt").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot build a Kubernetes Java client ApiClient for https://127.0.0.1:6443 "
            + "from the fabric8 Config: cannot read its caCertFile (the CA certificate) "
            + "\"/nonexistent/ca.crt\": java.nio.file.NoSuchFileException: /nonexistent/ca.crt. "
            + "Fix: point caCertFile at a readable PEM file, or give caCertData instead.");
  }

  @Test
  void refuses_data_that_is_not_base64() {
    assertThatThrownBy(() -> ApiClients.fromConfig(config(URL).withCaCertData("not*base64")
            .build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot build a Kubernetes Java client ApiClient for "
            + "https://127.0.0.1:6443 from the fabric8 Config: its caCertData (the CA certificate) "
            + "is not valid base64: ")
        .hasMessageEndingWith(". Fix: base64-encode the PEM text, as a kubeconfig's "
            + "certificate-authority-data does.");
  }

  @Test
  void refuses_a_ca_certificate_that_is_not_pem() {
    assertThatThrownBy(() -> ApiClients.fromConfig(config(URL)
            .withCaCertData(Base64.getEncoder().encodeToString("no certificate".getBytes(
                StandardCharsets.UTF_8))).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot build a Kubernetes Java client ApiClient for "
            + "https://127.0.0.1:6443 from the fabric8 Config: Kubernetes Java client refused its "
            + "TLS material (CA certificate, client certificate or key): ")
        .hasMessageEndingWith(". Fix: give PEM data (base64 in caCertData/clientCertData/"
            + "clientKeyData) or PEM files.");
  }

  @Test
  void refuses_what_it_cannot_carry_over_naming_all_of_it() {
    assertThatThrownBy(() -> ApiClients.fromConfig(config(URL).withImpersonateUsername("jane")
            .withHttpsProxy("http://proxy:3128").withCustomHeaders(Map.of("X-Team", "a"))
            .build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot build a Kubernetes Java client ApiClient for https://127.0.0.1:6443 "
            + "from the fabric8 Config: it uses impersonation (impersonateUsername/"
            + "impersonateGroups/impersonateExtras), a proxy (httpsProxy), custom headers [X-Team], "
            + "which ctk cannot carry over to Kubernetes Java client. Fix: use a configuration "
            + "without them, or build the ApiClient yourself with "
            + "io.kubernetes.client.util.ClientBuilder.");
  }

  @Test
  void refuses_a_user_name_without_a_password() {
    assertThatThrownBy(() -> ApiClients.fromConfig(config(URL).withUsername("admin").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot build a Kubernetes Java client ApiClient for https://127.0.0.1:6443 "
            + "from the fabric8 Config: it has a user name but no password. Fix: give both for "
            + "basic authentication, or neither.");
  }

  private static ConfigBuilder config(String url) {
    return new ConfigBuilder(Config.empty()).withMasterUrl(url);
  }

  private static ApiKeyAuth bearer(ApiClient client) {
    return (ApiKeyAuth) client.getAuthentication("BearerToken");
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = ApiClientsTest.class.getClassLoader().getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }

  private static String path(String name) throws URISyntaxException {
    return Path.of(ApiClientsTest.class.getClassLoader().getResource(name).toURI()).toString();
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}
