package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * The admin identity of a test API server that ctk starts itself: a random bearer token that the
 * server maps to user {@code admin} in group {@code system:masters} (a static token file), and an
 * RSA 2048 key pair with which the server signs and checks service-account tokens.
 *
 * <pre>{@code
 * AdminCredentials admin = AdminCredentials.generate();
 * admin.writeTo(workDir);                              // tokens.csv, sa.key, sa.pub
 * List<String> flags = admin.apiServerFlags(workDir.toString());
 * Config config = admin.clientConfig("https://127.0.0.1:40123", caCertPem);
 * }</pre>
 *
 * <p>Limits: the identity is a static token (no client certificate, no token rotation); the files
 * are written with the process' default permissions, so {@code dir} should be a private folder
 * such as one from {@link Files#createTempDirectory}. Instances are immutable and thread-safe.
 */
public final class AdminCredentials {

  /** Name of the static token file that {@link #writeTo} writes. */
  public static final String TOKEN_FILE = "tokens.csv";

  /** Name of the PKCS#8 PEM service-account signing key that {@link #writeTo} writes. */
  public static final String SERVICE_ACCOUNT_KEY_FILE = "sa.key";

  /** Name of the PEM service-account public key that {@link #writeTo} writes. */
  public static final String SERVICE_ACCOUNT_PUBLIC_KEY_FILE = "sa.pub";

  /** The issuer that service-account tokens of the test server carry. */
  public static final String SERVICE_ACCOUNT_ISSUER = "https://kubernetes.default.svc.cluster.local";

  private static final String USER = "admin";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String token;
  private final KeyPair serviceAccountKeys;

  private AdminCredentials(String token, KeyPair serviceAccountKeys) {
    this.token = token;
    this.serviceAccountKeys = serviceAccountKeys;
  }

  /**
   * A new identity: a random 256-bit bearer token (64 hex digits) and a new RSA 2048 key pair.
   *
   * @return the new credentials
   */
  public static AdminCredentials generate() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048, RANDOM);
      return new AdminCredentials(HexFormat.of().formatHex(bytes), generator.generateKeyPair());
    } catch (NoSuchAlgorithmException e) {
      throw new EnvtestException(
          "Could not generate the service-account key pair of a test API server: this JVM offers no"
              + " RSA KeyPairGenerator. Run the tests on a standard JDK 17 or later.",
          e);
    }
  }

  /**
   * The bearer token of the admin user.
   *
   * @return the token, 64 hex digits
   */
  public String token() {
    return token;
  }

  /**
   * Writes {@code tokens.csv} (one line {@code <token>,admin,admin-uid,"system:masters"}),
   * {@code sa.key} (PKCS#8 PEM) and {@code sa.pub} (PEM) into {@code dir}, replacing files of the
   * same names.
   *
   * @param dir an existing, private folder
   * @throws EnvtestException if a file cannot be written
   */
  public void writeTo(Path dir) {
    write(dir.resolve(TOKEN_FILE), token + "," + USER + ",admin-uid,\"system:masters\"\n");
    write(
        dir.resolve(SERVICE_ACCOUNT_KEY_FILE),
        pem("PRIVATE KEY", serviceAccountKeys.getPrivate().getEncoded()));
    write(
        dir.resolve(SERVICE_ACCOUNT_PUBLIC_KEY_FILE),
        pem("PUBLIC KEY", serviceAccountKeys.getPublic().getEncoded()));
  }

  /**
   * The kube-apiserver flags that make it accept the token and sign service-account tokens:
   * {@code --token-auth-file}, {@code --service-account-key-file}, {@code
   * --service-account-signing-key-file} and {@code --service-account-issuer}.
   *
   * @param dirSeenByApiServer the folder holding the files of {@link #writeTo}, as the API server
   *     sees it (inside a container this differs from the JVM's path); joined with {@code /}
   * @return the flags, each as one {@code --name=value} string
   */
  public List<String> apiServerFlags(String dirSeenByApiServer) {
    String dir =
        dirSeenByApiServer.endsWith("/")
            ? dirSeenByApiServer.substring(0, dirSeenByApiServer.length() - 1)
            : dirSeenByApiServer;
    return List.of(
        "--token-auth-file=" + dir + "/" + TOKEN_FILE,
        "--service-account-key-file=" + dir + "/" + SERVICE_ACCOUNT_PUBLIC_KEY_FILE,
        "--service-account-signing-key-file=" + dir + "/" + SERVICE_ACCOUNT_KEY_FILE,
        "--service-account-issuer=" + SERVICE_ACCOUNT_ISSUER);
  }

  /**
   * A fabric8 configuration that reaches {@code url} as admin with the bearer token, namespace
   * {@code default}, and no settings read from the environment or {@code ~/.kube/config}.
   *
   * @param url the API server's base URL, e.g. {@code https://127.0.0.1:40123}
   * @param caCertPem the PEM certificate the client trusts for the server, or {@code null} to trust
   *     any server certificate (and skip host name verification)
   * @return a new configuration
   */
  public Config clientConfig(String url, String caCertPem) {
    ConfigBuilder builder =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(url)
            .withOauthToken(token)
            .withNamespace("default");
    if (caCertPem == null) {
      builder.withTrustCerts(true).withDisableHostnameVerification(true);
    } else {
      builder.withCaCertData(base64(caCertPem));
    }
    return builder.build();
  }

  /**
   * A kubeconfig with one cluster, one user and one context, all named {@code contextName}, set as
   * the current context.
   *
   * @param url the API server's base URL
   * @param caCertPem the PEM certificate that kubectl trusts for the server, or {@code null} for
   *     {@code insecure-skip-tls-verify: true}
   * @param contextName the name of the cluster, user and context
   * @return the kubeconfig YAML
   */
  public String kubeconfig(String url, String caCertPem, String contextName) {
    String name = quoted(contextName);
    String trust =
        caCertPem == null
            ? "    insecure-skip-tls-verify: true\n"
            : "    certificate-authority-data: " + base64(caCertPem) + "\n";
    return "apiVersion: v1\n"
        + "kind: Config\n"
        + "clusters:\n"
        + "- name: " + name + "\n"
        + "  cluster:\n"
        + "    server: " + quoted(url) + "\n"
        + trust
        + "users:\n"
        + "- name: " + name + "\n"
        + "  user:\n"
        + "    token: " + quoted(token) + "\n"
        + "contexts:\n"
        + "- name: " + name + "\n"
        + "  context:\n"
        + "    cluster: " + name + "\n"
        + "    user: " + name + "\n"
        + "    namespace: default\n"
        + "current-context: " + name + "\n";
  }

  @Override
  public String toString() {
    return "AdminCredentials[user=" + USER + ", group=system:masters, token=<hidden>]";
  }

  private static String quoted(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String pem(String type, byte[] der) {
    String body =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  private static void write(Path file, String content) {
    try {
      Files.writeString(file, content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new EnvtestException(
          "Could not write "
              + file
              + " for the test API server's admin identity: "
              + e
              + ". Make sure the folder exists and is writable (the temp folder, java.io.tmpdir).",
          e);
    }
  }
}
