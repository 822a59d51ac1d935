package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code kubectl apply --server-side} against the fake: create, change, a conflict with a
 * {@code kubectl edit}, {@code --force-conflicts}, server dry run, and a custom resource. Skipped when kubectl is not
 * on the PATH.
 */
class ServerSideApplyKubectlTest {

  @TempDir
  Path dir;

  private FakeCluster cluster;
  private Kubectl kubectl;

  @BeforeEach
  void start() {
    kubectl = Kubectl.onPathOrSkip(dir.resolve("kubeconfig"));
    cluster = FakeCluster.builder().build();
    cluster.writeKubeconfig(dir.resolve("kubeconfig"));
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void applyServerSide_change_conflictWithAnEdit_forceConflicts() throws Exception {
    Path file = Files.writeString(dir.resolve("web.yaml"), deploymentYaml(2, "nginx:1"));
    assertThat(ok("apply", "--server-side", "-f", file.toString()))
        .isEqualTo("deployment.apps/web serverside-applied\n");
    assertThat(ok("get", "deployment", "web", "-o", "jsonpath={.metadata.managedFields[*].manager} "
        + "{.metadata.managedFields[*].operation}")).isEqualTo("kubectl Apply");

    Files.writeString(file, deploymentYaml(3, "nginx:2"));
    assertThat(ok("apply", "--server-side", "-f", file.toString()))
        .isEqualTo("deployment.apps/web serverside-applied\n");
    assertThat(ok("get", "deployment", "web", "-o",
        "jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image} {.metadata.generation}"))
        .isEqualTo("3 nginx:2 2");

    Path editor = Files.writeString(dir.resolve("editor.sh"),
        "#!/bin/sh\nsed -i 's/replicas: 3/replicas: 5/' \"$1\"\n");
    assertThat(editor.toFile().setExecutable(true)).isTrue();
    assertThat(ok(List.of("EDITOR=" + editor), "edit", "deployment", "web"))
        .isEqualTo("deployment.apps/web edited\n");

    Files.writeString(file, deploymentYaml(4, "nginx:2"));
    Kubectl.Run conflict = run(List.of(), "apply", "--server-side", "-f", file.toString());
    assertThat(conflict.exitCode()).isEqualTo(1);
    assertThat(conflict.output()).startsWith("error: Apply failed with 1 conflict: conflict with \"kubectl-edit\" "
        + "using apps/v1: .spec.replicas\nPlease review the fields above--they currently have other managers.");
    assertThat(ok("get", "deployment", "web", "-o", "jsonpath={.spec.replicas}")).isEqualTo("5");

    assertThat(ok("apply", "--server-side", "--force-conflicts", "-f", file.toString()))
        .isEqualTo("deployment.apps/web serverside-applied\n");
    assertThat(ok("get", "deployment", "web", "-o", "jsonpath={.spec.replicas} "
        + "{.metadata.managedFields[*].manager}")).isEqualTo("4 kubectl");

    Files.writeString(file, deploymentYaml(6, "nginx:2"));
    assertThat(ok("apply", "--server-side", "--dry-run=server", "-f", file.toString()))
        .isEqualTo("deployment.apps/web serverside-applied (server dry run)\n");
    assertThat(ok("get", "deployment", "web", "-o", "jsonpath={.spec.replicas}")).isEqualTo("4");
  }

  @Test
  void applyServerSide_customResource() throws Exception {
    Path crd = Path.of(getClass().getResource("/crds/network-crd.yaml").toURI());
    assertThat(ok("apply", "--server-side", "-f", crd.toString()))
        .isEqualTo("customresourcedefinition.apiextensions.k8s.io/networks.samplecrd.k8s.io serverside-applied\n");
    Path network = Files.writeString(dir.resolve("net.yaml"), """
        apiVersion: samplecrd.k8s.io/v1
        kind: Network
        metadata:
          name: net-a
        spec:
          cidr: 10.0.0.0/24
          gateway: 10.0.0.1
        """);
    assertThat(ok("apply", "--server-side", "-f", network.toString()))
        .isEqualTo("network.samplecrd.k8s.io/net-a serverside-applied\n");
    Files.writeString(network, Files.readString(network).replace("  gateway: 10.0.0.1\n", ""));
    assertThat(ok("apply", "--server-side", "-f", network.toString()))
        .isEqualTo("network.samplecrd.k8s.io/net-a serverside-applied\n");
    assertThat(ok("get", "network", "net-a", "-o", "jsonpath={.spec}")).isEqualTo("{\"cidr\":\"10.0.0.0/24\"}");
  }

  private String ok(String... args) throws IOException, InterruptedException {
    return kubectl.ok(args);
  }

  private String ok(List<String> env, String... args) throws IOException, InterruptedException {
    return kubectl.ok(env, args);
  }

  private Kubectl.Run run(List<String> env, String... args) throws IOException, InterruptedException {
    return kubectl.run(env, args);
  }

  private static String deploymentYaml(int replicas, String image) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
          namespace: default
        spec:
          replicas: %d
          selector:
            matchLabels: {app: web}
          template:
            metadata:
              labels: {app: web}
            spec:
              containers:
              - name: main
                image: %s
        """.formatted(replicas, image);
  }
}
