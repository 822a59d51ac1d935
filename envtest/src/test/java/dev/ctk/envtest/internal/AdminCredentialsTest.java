package dev.ctk.envtest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminCredentialsTest {

  private static final String PEM =
      "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

  private final AdminCredentials credentials = AdminCredentials.generate();

  @Test
  void the_token_is_64_random_hex_digits() {
    assertThat(credentials.token()).matches("[0-9a-f]{64}");
    assertThat(AdminCredentials.generate().token()).isNotEqualTo(credentials.token());
    assertThat(credentials)
        .hasToString("AdminCredentials[user=admin, group=system:masters, token=<hidden>]");
  }

  @Test
  void writes_the_token_file_and_a_matching_service_account_key_pair(@TempDir Path dir)
      throws Exception {
    credentials.writeTo(dir);

    assertThat(Files.readString(dir.resolve("tokens.csv")))
        .isEqualTo(credentials.token() + ",admin,admin-uid,\"system:masters\"\n");
    String key = Files.readString(dir.resolve("sa.key"));
    String pub = Files.readString(dir.resolve("sa.pub"));
    assertThat(key).startsWith("-----BEGIN PRIVATE KEY-----\n").endsWith("-----END PRIVATE KEY-----\n");
    assertThat(pub).startsWith("-----BEGIN PUBLIC KEY-----\n").endsWith("-----END PUBLIC KEY-----\n");
    assertThat(key.lines()).allMatch(line -> line.length() <= 64);

    KeyFactory rsa = KeyFactory.getInstance("RSA");
    PrivateKey privateKey = rsa.generatePrivate(new PKCS8EncodedKeySpec(der(key)));
    PublicKey publicKey = rsa.generatePublic(new X509EncodedKeySpec(der(pub)));
    Signature signer = Signature.getInstance("SHA256withRSA");
    signer.initSign(privateKey);
    signer.update("ctk".getBytes(StandardCharsets.UTF_8));
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance("SHA256withRSA");
    verifier.initVerify(publicKey);
    verifier.update("ctk".getBytes(StandardCharsets.UTF_8));
    assertThat(verifier.verify(signature)).isTrue();
  }

  @Test
  void api_server_flags_point_at_the_files_as_the_server_sees_them() {
    assertThat(credentials.apiServerFlags("/etc/ctk/"))
        .containsExactly(
            "--token-auth-file=/etc/ctk/tokens.csv",
            "--service-account-key-file=/etc/ctk/sa.pub",
            "--service-account-signing-key-file=/etc/ctk/sa.key",
            "--service-account-issuer=https://kubernetes.default.svc.cluster.local");
    assertThat(credentials.apiServerFlags("/w")).first().isEqualTo("--token-auth-file=/w/tokens.csv");
  }

  @Test
  void client_config_trusts_the_given_certificate_or_any_when_none() {
    Config trusting = credentials.clientConfig("https://127.0.0.1:40123", PEM);
    Config trustAll = credentials.clientConfig("https://127.0.0.1:40123", null);

    assertThat(trusting.getMasterUrl()).startsWith("https://127.0.0.1:40123");
    assertThat(trusting.getOauthToken()).isEqualTo(credentials.token());
    assertThat(trusting.getNamespace()).isEqualTo("default");
    assertThat(trusting.getCaCertData()).isEqualTo(base64(PEM));
    assertThat(trusting.isTrustCerts()).isFalse();
    assertThat(trustAll.isTrustCerts()).isTrue();
    assertThat(trustAll.isDisableHostnameVerification()).isTrue();
    assertThat(trustAll.getCaCertData()).isNull();
  }

  @Test
  void kubeconfig_has_one_cluster_user_and_context() {
    String kubeconfig = credentials.kubeconfig("https://127.0.0.1:40123", PEM, "ctk-envtest");

    assertThat(kubeconfig)
        .isEqualTo(
            "apiVersion: v1\n"
                + "kind: Config\n"
                + "clusters:\n"
                + "- name: \"ctk-envtest\"\n"
                + "  cluster:\n"
                + "    server: \"https://127.0.0.1:40123\"\n"
                + "    certificate-authority-data: " + base64(PEM) + "\n"
                + "users:\n"
                + "- name: \"ctk-envtest\"\n"
                + "  user:\n"
                + "    token: \"" + credentials.token() + "\"\n"
                + "contexts:\n"
                + "- name: \"ctk-envtest\"\n"
                + "  context:\n"
                + "    cluster: \"ctk-envtest\"\n"
                + "    user: \"ctk-envtest\"\n"
                + "    namespace: default\n"
                + "current-context: \"ctk-envtest\"\n");
    Config parsed = Config.fromKubeconfig(kubeconfig);
    assertThat(parsed.getAutoOAuthToken()).isEqualTo(credentials.token());
    assertThat(parsed.getCaCertData()).isEqualTo(base64(PEM));
    assertThat(parsed.getCurrentContext().getName()).isEqualTo("ctk-envtest");
  }

  @Test
  void kubeconfig_without_a_certificate_skips_verification_and_quotes_odd_names() {
    String kubeconfig = credentials.kubeconfig("https://127.0.0.1:1", null, "a \"b\"");

    assertThat(kubeconfig)
        .contains("    insecure-skip-tls-verify: true\n")
        .doesNotContain("certificate-authority-data")
        .contains("- name: \"a \\\"b\\\"\"\n");
    assertThat(Config.fromKubeconfig(kubeconfig).isTrustCerts()).isTrue();
  }

  private static byte[] der(String pem) {
    List<String> body = pem.lines().filter(line -> !line.startsWith("-----")).toList();
    return Base64.getDecoder().decode(String.join("", body));
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
