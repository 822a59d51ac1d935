package dev.ctk.fake.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.FakeClusterInternals;
import dev.ctk.fake.Kubectl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kubectl against the launcher: get, apply (create, then a strategic merge patch for a built-in kind and a JSON
 * merge patch for a custom resource), delete and {@code get -w} over HTTP streaming. Skipped when kubectl is not on
 * the PATH.
 */
class KubectlTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path dir;

  private FakeCluster cluster;
  private Kubectl kubectl;

  @BeforeEach
  void start() {
    Path kubeconfig = dir.resolve("kubeconfig");
    kubectl = Kubectl.onPathOrSkip(kubeconfig);
    FakeApiServerMain.Launch launch = FakeApiServerMain.launch(new String[] {"--port", "0", "--kubeconfig",
        kubeconfig.toString()}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        System.err);
    cluster = launch.cluster();
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void getApplyDelete() throws Exception {
    assertThat(run("get", "namespaces", "-o", "name")).isEqualTo("namespace/default\nnamespace/kube-node-lease\n"
        + "namespace/kube-public\nnamespace/kube-system\n");

    Path deployment = Files.writeString(dir.resolve("deploy.yaml"), deploymentYaml("nginx:1"));
    assertThat(run("apply", "-f", deployment.toString())).isEqualTo("deployment.apps/web created\n");
    Files.writeString(deployment, deploymentYaml("nginx:2"));
    assertThat(run("apply", "-f", deployment.toString())).isEqualTo("deployment.apps/web configured\n");
    assertThat(run("get", "deployment", "web", "-o",
        "jsonpath={.spec.template.spec.containers[*].image} {.metadata.generation}"))
        .isEqualTo("nginx:2 envoy:1 2");
    assertThat(FakeClusterInternals.journal(cluster).entries()).anySatisfy(e -> {
      assertThat(e.method()).isEqualTo("PATCH");
      assertThat(e.path()).isEqualTo("/apis/apps/v1/namespaces/default/deployments/web");
      assertThat(e.code()).isEqualTo(200);
    });

    Path crd = Path.of(getClass().getResource("/crds/network-crd.yaml").toURI());
    assertThat(run("apply", "-f", crd.toString()))
        .isEqualTo("customresourcedefinition.apiextensions.k8s.io/networks.samplecrd.k8s.io created\n");
    Path network = Files.writeString(dir.resolve("net.yaml"), networkYaml("10.0.0.1"));
    assertThat(run("apply", "-f", network.toString())).isEqualTo("network.samplecrd.k8s.io/net-a created\n");
    Files.writeString(network, networkYaml("10.0.0.254"));
    assertThat(run("apply", "-f", network.toString())).isEqualTo("network.samplecrd.k8s.io/net-a configured\n");
    assertThat(run("get", "net", "net-a", "-o", "jsonpath={.spec.gateway}")).isEqualTo("10.0.0.254");

    assertThat(run("delete", "-f", deployment.toString())).isEqualTo("deployment.apps \"web\" deleted\n");
    assertThat(run("get", "deployments", "-o", "name")).isEmpty();
  }

  @Test
  void deleteCascadeForeground_waitsForTheDependentsThenRemovesTheOwner() throws Exception {
    // GIVEN a Deployment and a ConfigMap it owns, blocking its owner's deletion
    Path deployment = Files.writeString(dir.resolve("deploy.yaml"), deploymentYaml("nginx:1"));
    run("apply", "-f", deployment.toString());
    String uid = run("get", "deployment", "web", "-o", "jsonpath={.metadata.uid}");
    Path owned = Files.writeString(dir.resolve("owned.yaml"), """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: web-config
          ownerReferences:
          - {apiVersion: apps/v1, kind: Deployment, name: web, uid: %s, blockOwnerDeletion: true}
        """.formatted(uid));
    run("apply", "-f", owned.toString());
    // WHEN kubectl deletes the owner in the foreground (and, by default, waits until it is gone)
    String output = run("delete", "deployment", "web", "--cascade=foreground");
    // THEN the fake's garbage collector removed the dependent first, then the owner, as a cluster does
    assertThat(output).isEqualTo("deployment.apps \"web\" deleted\n");
    assertThat(run("get", "deployments,configmaps", "-o", "name")).isEmpty();
  }

  @Test
  void getWatch_streamsEventsOverHttp() throws Exception {
    try (Kubectl.Background watch = kubectl.start("get", "configmaps", "--watch", "--output-watch-events", "-o",
        "jsonpath={.type} {.object.metadata.name}{\"\\n\"}")) {
      await("kubectl get -w opened its watch").atMost(WAIT).until(() -> FakeClusterInternals.journal(cluster).entries()
          .stream().anyMatch(e -> e.transport().equals("http-watch")));
      Path cm = Files.writeString(dir.resolve("cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: w\n");
      run("apply", "-f", cm.toString());
      run("delete", "configmap", "w");
      await("kubectl printed both events").atMost(WAIT).untilAsserted(() -> assertThat(watch.lines())
          .containsExactly("ADDED w", "DELETED w"));
    }
  }

  private String run(String... args) throws IOException, InterruptedException {
    return kubectl.ok(args);
  }

  private static String deploymentYaml(String image) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
        spec:
          selector:
            matchLabels: {app: web}
          template:
            metadata:
              labels: {app: web}
            spec:
              containers:
              - name: main
                image: %s
              - name: sidecar
                image: envoy:1
        """.formatted(image);
  }

  private static String networkYaml(String gateway) {
    return """
        apiVersion: samplecrd.k8s.io/v1
        kind: Network
        metadata:
          name: net-a
        spec:
          cidr: 10.0.0.0/24
          gateway: %s
        """.formatted(gateway);
  }
}
