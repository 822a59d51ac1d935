package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import dev.ctk.envtest.values.EnvtestException;
import dev.ctk.envtest.values.EnvtestUnavailableException;
import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamedClusterBuilder;
import io.fabric8.kubernetes.api.model.NamedContextBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An existing cluster from a kubeconfig: here the shared local API server, reached by its kubeconfig. */
class ExistingClusterTest {

  @TempDir Path dir;

  @Test
  void reaches_the_cluster_of_a_kubeconfig_context() throws IOException {
    ApiServer local = SharedLocalServer.get();
    Path kubeconfig = Files.writeString(dir.resolve("config"), local.kubeconfig());

    ExistingCluster cluster = ExistingCluster.fromKubeconfig(kubeconfig, null);
    try (KubernetesClient client = cluster.newClient()) {
      client.configMaps().inNamespace("default").resource(
          new ConfigMapBuilder().withNewMetadata().withName("from-existing-cluster").endMetadata().build())
          .createOr(existing -> existing.update());
    }

    assertThat(cluster.version()).isEqualTo(local.version());
    assertThat(cluster.url()).isEqualTo(local.url());
    assertThat(cluster.runsClusterControllers()).isTrue();
    assertThat(cluster.withClusterControllers(false).runsClusterControllers()).isFalse();
    assertThat(cluster.description())
        .isEqualTo(
            "existing cluster, context \"" + cluster.context() + "\" (" + kubeconfig + ") at " + local.url());
    cluster.close();
    try (KubernetesClient client = local.newClient()) {
      assertThat(client.configMaps().inNamespace("default").withName("from-existing-cluster").get()).isNotNull();
    }
  }

  @Test
  void fromDefaultKubeconfig_takes_the_first_existing_file_of_KUBECONFIG() throws IOException {
    Path file = Files.writeString(dir.resolve("second"), kubeconfig("ctx-a", "ctx-a", "https://a:6443", null));
    String variable = dir.resolve("missing") + File.pathSeparator + file;

    ExistingCluster cluster = ExistingCluster.fromDefaultKubeconfig(Map.of("KUBECONFIG", variable), dir);

    assertThat(cluster.context()).isEqualTo("ctx-a");
    assertThat(cluster.url()).isEqualTo("https://a:6443");
    assertThat(cluster.kubeconfigFile()).isEqualTo(file);
  }

  @Test
  void fromDefaultKubeconfig_with_a_context_picks_that_context_not_the_current_one() throws IOException {
    ApiServer local = SharedLocalServer.get();
    KubernetesSerialization serialization = new KubernetesSerialization();
    Config config = serialization.unmarshal(local.kubeconfig(), Config.class);
    String localContext = config.getCurrentContext();
    config.getClusters().add(
        new NamedClusterBuilder().withName("nowhere").withNewCluster().withServer("https://127.0.0.1:1")
            .endCluster().build());
    config.getContexts().add(
        new NamedContextBuilder().withName("nowhere").withNewContext().withCluster("nowhere")
            .withUser(config.getContexts().get(0).getContext().getUser()).endContext().build());
    config.setCurrentContext("nowhere");
    Path file = Files.writeString(dir.resolve("two-contexts"), serialization.asYaml(config));

    ExistingCluster cluster =
        ExistingCluster.fromDefaultKubeconfig(Map.of("KUBECONFIG", file.toString()), dir, localContext);

    assertThat(cluster.context()).isEqualTo(localContext).isNotEqualTo("nowhere");
    assertThat(cluster.url()).isEqualTo(local.url());
    assertThat(cluster.version()).isEqualTo(local.version());
    assertThat(ExistingCluster.fromDefaultKubeconfig(Map.of("KUBECONFIG", file.toString()), dir, null).url())
        .isEqualTo("https://127.0.0.1:1");
  }

  @Test
  void fromDefaultKubeconfig_falls_back_to_the_home_folder() throws IOException {
    Files.createDirectories(dir.resolve(".kube"));
    Files.writeString(dir.resolve(".kube/config"), kubeconfig("home", "home", "https://home:6443", null));

    ExistingCluster cluster = ExistingCluster.fromDefaultKubeconfig(Map.of(), dir);

    assertThat(cluster.url()).isEqualTo("https://home:6443");
  }

  @Test
  void no_kubeconfig_anywhere_lists_where_it_looked() {
    String variable = dir.resolve("a") + File.pathSeparator + dir.resolve("b");

    EnvtestException failure =
        catchThrowableOfType(
            EnvtestException.class,
            () -> ExistingCluster.fromDefaultKubeconfig(Map.of("KUBECONFIG", variable), dir));

    assertThat(failure.getMessage())
        .isEqualTo(
            "No kubeconfig found. Looked in: KUBECONFIG=" + variable + " (" + dir.resolve("a")
                + ": no such file, " + dir.resolve("b") + ": no such file), " + dir.resolve(".kube/config")
                + " (no such file). Set KUBECONFIG, pass a file to ExistingCluster.fromKubeconfig(path,"
                + " context) or the JUnit setting ctk.kubeconfig, or run with -Dctk.mode=envtest for a"
                + " local API server.");
  }

  @Test
  void an_unknown_context_lists_the_contexts_the_file_has() throws IOException {
    Path file = Files.writeString(dir.resolve("config"), kubeconfig("kind-ctk", "kind-ctk", "https://k:1", null));

    EnvtestException failure =
        catchThrowableOfType(EnvtestException.class, () -> ExistingCluster.fromKubeconfig(file, "prod"));

    assertThat(failure.getMessage())
        .isEqualTo(
            "kubeconfig " + file + " has no context \"prod\"; it has [kind-ctk]. Pick one of those"
                + " (kubectl config get-contexts lists them) in ExistingCluster.fromKubeconfig(path,"
                + " context), fromDefaultKubeconfig(context) or the JUnit setting ctk.kube-context.");
  }

  @Test
  void a_file_without_current_context_asks_for_one() throws IOException {
    Path file = Files.writeString(dir.resolve("config"), kubeconfig("one", null, "https://k:1", null));

    EnvtestException failure =
        catchThrowableOfType(EnvtestException.class, () -> ExistingCluster.fromKubeconfig(file, null));

    assertThat(failure.getMessage())
        .isEqualTo(
            "kubeconfig " + file + " has no current-context. Name one of [one] with"
                + " ExistingCluster.fromKubeconfig(path, \"<context>\") or fromDefaultKubeconfig(\"<context>\"),"
                + " or the JUnit settings ctk.kubeconfig / ctk.kube-context; or kubectl config use-context"
                + " <context>.");
  }

  @Test
  void a_missing_file_says_so() {
    Path file = dir.resolve("nope");

    EnvtestException failure =
        catchThrowableOfType(EnvtestException.class, () -> ExistingCluster.fromKubeconfig(file, "x"));

    assertThat(failure.getMessage())
        .isEqualTo(
            "kubeconfig " + file + " does not exist. Pass the file kubectl uses (kubectl config view"
                + " --minify shows the context) to ExistingCluster.fromKubeconfig(path, context) or the"
                + " JUnit setting ctk.kubeconfig, or run with -Dctk.mode=envtest for a local API server.");
  }

  @Test
  void kubeconfig_holds_only_the_chosen_context_with_absolute_file_paths() throws IOException {
    String text =
        "apiVersion: v1\nkind: Config\ncurrent-context: other\n"
            + "clusters:\n"
            + "- name: mine\n  cluster:\n    server: https://mine:6443\n    certificate-authority: certs/ca.crt\n"
            + "- name: other\n  cluster:\n    server: https://other:6443\n"
            + "users:\n"
            + "- name: me\n  user:\n    client-certificate: certs/me.crt\n    client-key: /abs/me.key\n"
            + "- name: you\n  user:\n    token: secret\n"
            + "contexts:\n"
            + "- name: mine\n  context:\n    cluster: mine\n    user: me\n"
            + "- name: other\n  context:\n    cluster: other\n    user: you\n";
    Path file = Files.writeString(dir.resolve("config"), text);

    String single = ExistingCluster.fromKubeconfig(file, "mine").kubeconfig();

    io.fabric8.kubernetes.api.model.Config parsed =
        new KubernetesSerialization().unmarshal(single, io.fabric8.kubernetes.api.model.Config.class);
    assertThat(parsed.getCurrentContext()).isEqualTo("mine");
    assertThat(parsed.getContexts()).extracting(c -> c.getName()).containsExactly("mine");
    assertThat(parsed.getClusters()).extracting(c -> c.getName()).containsExactly("mine");
    assertThat(parsed.getClusters().get(0).getCluster().getCertificateAuthority())
        .isEqualTo(dir.resolve("certs/ca.crt").toString());
    assertThat(parsed.getUsers()).extracting(u -> u.getName()).containsExactly("me");
    assertThat(parsed.getUsers().get(0).getUser().getClientCertificate())
        .isEqualTo(dir.resolve("certs/me.crt").toString());
    assertThat(parsed.getUsers().get(0).getUser().getClientKey()).isEqualTo("/abs/me.key");
  }

  @Test
  void version_of_an_unreachable_cluster_says_what_to_check() throws IOException {
    Path file = Files.writeString(dir.resolve("config"), kubeconfig("gone", "gone", "https://127.0.0.1:1", "t"));
    ExistingCluster cluster = ExistingCluster.fromKubeconfig(file, "gone");

    EnvtestException failure = catchThrowableOfType(EnvtestException.class, cluster::version);

    assertThat(failure.getMessage())
        .matches(
            "Could not reach the existing cluster of context \"gone\" \\(" + java.util.regex.Pattern.quote(file.toString())
                + "\\) at https://127\\.0\\.0\\.1:1: .*Connection refused.*\\. Check that the cluster runs and that"
                + " kubectl --context gone version works\\.");
  }

  @Test
  void a_cluster_that_does_not_answer_is_unavailable_and_one_that_refuses_the_credentials_is_an_error()
      throws IOException {
    // GIVEN a closed port, and a server that answers 401 to everything (expired credentials)
    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    HttpServer refusing = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    refusing.createContext("/", exchange -> {
      byte[] body = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"Unauthorized\","
          + "\"reason\":\"Unauthorized\",\"code\":401}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(401, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    refusing.start();
    try {
      Path down = Files.writeString(dir.resolve("down"), kubeconfig("down", "down", "http://127.0.0.1:" + closed,
          null));
      Path expired = Files.writeString(dir.resolve("expired"), kubeconfig("expired", "expired",
          "http://127.0.0.1:" + refusing.getAddress().getPort(), null));
      // WHEN
      EnvtestException unreachable = catchThrowableOfType(EnvtestException.class,
          () -> ExistingCluster.fromKubeconfig(down, null).version());
      EnvtestException refused = catchThrowableOfType(EnvtestException.class,
          () -> ExistingCluster.fromKubeconfig(expired, null).version());
      // THEN the first skips (unavailable here), the second fails: skipping would hide expired credentials
      assertThat(unreachable).isInstanceOf(EnvtestUnavailableException.class)
          .hasMessageStartingWith("Could not reach the existing cluster of context \"down\"");
      assertThat(refused).isExactlyInstanceOf(EnvtestException.class)
          .hasMessageContaining("answered GET /version with 401")
          .hasMessageContaining("kubectl --context expired version");
    } finally {
      refusing.stop(0);
    }
  }

  private static String kubeconfig(String name, String current, String server, String token) {
    return "apiVersion: v1\nkind: Config\n"
        + (current == null ? "" : "current-context: " + current + "\n")
        + "clusters:\n- name: " + name + "\n  cluster:\n    server: " + server + "\n"
        + "users:\n- name: " + name + "\n  user:\n    token: " + (token == null ? "x" : token) + "\n"
        + "contexts:\n- name: " + name + "\n  context:\n    cluster: " + name + "\n    user: " + name + "\n";
  }
}
