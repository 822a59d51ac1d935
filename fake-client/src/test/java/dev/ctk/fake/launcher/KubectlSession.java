package dev.ctk.fake.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.Kubectl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A new user's first kubectl session against the standalone fake, every step checked by what kubectl prints: the
 * {@code create} commands (which send protobuf), {@code get} (names, fields), {@code get -w}, {@code apply}
 * (client-side, then server-side), {@code patch} (strategic merge and JSON patch), {@code scale}, {@code label} and
 * {@code delete}, down to the namespace. Played by {@link KubectlSessionTest} through the launcher's main and by
 * {@link KubectlJarIT} through the shaded jar.
 */
final class KubectlSession {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private final Kubectl kubectl;
  private final Path dir;

  KubectlSession(Kubectl kubectl, Path dir) {
    this.kubectl = kubectl;
    this.dir = dir;
  }

  void play() throws Exception {
    // create: every built-in kind kubectl's generators make is sent as application/vnd.kubernetes.protobuf
    assertThat(run("create", "namespace", "demo")).isEqualTo("namespace/demo created\n");
    assertThat(run("-n", "demo", "create", "configmap", "app", "--from-literal=mode=dev"))
        .isEqualTo("configmap/app created\n");
    try (Kubectl.Background watch = kubectl.start("-n", "demo", "get", "configmaps", "--watch",
        "--output-watch-events", "-o", "jsonpath={.type} {.object.metadata.name} {.object.data.mode}{\"\\n\"}")) {
      // the watch lists first (ADDED app), then watches from the list's resourceVersion: nothing after it is missed
      await("kubectl get -w listed the ConfigMaps").atMost(WAIT).until(() -> watch.lines().contains("ADDED app dev"));

      createAndGet();
      applyPatchScaleLabel();
      deleteAll();

      await("kubectl get -w printed every change").atMost(WAIT).untilAsserted(() -> assertThat(watch.lines())
          .containsExactly("ADDED app dev", "ADDED settings 1", "MODIFIED settings 2", "ADDED flags a",
              "MODIFIED flags b", "MODIFIED app prod", "MODIFIED app prod", "DELETED app prod", "DELETED settings 2",
              "DELETED flags b"));
    }
    assertThat(run("get", "namespaces", "-o", "name")).isEqualTo("namespace/default\nnamespace/kube-node-lease\n"
        + "namespace/kube-public\nnamespace/kube-system\n");
  }

  private void createAndGet() throws Exception {
    assertThat(run("-n", "demo", "create", "secret", "generic", "creds", "--from-literal=password=s3cr3t"))
        .isEqualTo("secret/creds created\n");
    assertThat(run("-n", "demo", "create", "deployment", "web", "--image=nginx:1", "--replicas=2", "--port=80"))
        .isEqualTo("deployment.apps/web created\n");
    assertThat(run("-n", "demo", "create", "deployment", "idle", "--image=nginx:1", "--replicas=0"))
        .isEqualTo("deployment.apps/idle created\n");
    assertThat(run("-n", "demo", "create", "service", "clusterip", "web", "--tcp=80:8080"))
        .isEqualTo("service/web created\n");

    assertThat(run("-n", "demo", "get", "deployments,services,configmaps,secrets", "-o", "name"))
        .isEqualTo("deployment.apps/idle\ndeployment.apps/web\nservice/web\nconfigmap/app\nsecret/creds\n");
    assertThat(run("get", "namespace", "demo", "-o", "jsonpath={.status.phase}")).isEqualTo("Active");
    assertThat(run("-n", "demo", "get", "secret", "creds", "-o", "jsonpath={.type} {.data.password}"))
        .isEqualTo("Opaque czNjcjN0");
    assertThat(run("-n", "demo", "get", "deployment", "web", "-o", "jsonpath={.spec.replicas} "
        + "{.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].ports[0].containerPort}"))
        .isEqualTo("2 nginx:1 80");
    assertThat(run("-n", "demo", "get", "deployment", "idle", "-o", "jsonpath={.spec.replicas}")).isEqualTo("0");
    assertThat(run("-n", "demo", "get", "service", "web", "-o", "jsonpath={.spec.type} {.spec.ports[0].port} "
        + "{.spec.ports[0].targetPort} {.spec.selector.app}")).isEqualTo("ClusterIP 80 8080 web");
    assertThat(run("-n", "demo", "get", "configmaps", "-o", "custom-columns=NAME:.metadata.name,MODE:.data.mode"))
        .isEqualTo("NAME   MODE\napp    dev\n");
  }

  private void applyPatchScaleLabel() throws Exception {
    Path settings = dir.resolve("settings.yaml");
    Files.writeString(settings, configMapYaml("settings", "1"));
    assertThat(run("apply", "-f", settings.toString())).isEqualTo("configmap/settings created\n");
    Files.writeString(settings, configMapYaml("settings", "2"));
    assertThat(run("apply", "-f", settings.toString())).isEqualTo("configmap/settings configured\n");
    Path flags = dir.resolve("flags.yaml");
    Files.writeString(flags, configMapYaml("flags", "a"));
    assertThat(run("apply", "--server-side", "-f", flags.toString())).isEqualTo("configmap/flags serverside-applied\n");
    Files.writeString(flags, configMapYaml("flags", "b"));
    assertThat(run("apply", "--server-side", "-f", flags.toString())).isEqualTo("configmap/flags serverside-applied\n");
    assertThat(run("-n", "demo", "get", "configmap", "flags", "-o", "jsonpath={.metadata.managedFields[*].manager} "
        + "{.metadata.managedFields[*].operation}")).isEqualTo("kubectl Apply");

    assertThat(run("-n", "demo", "patch", "configmap", "app", "-p", "{\"data\":{\"mode\":\"prod\"}}"))
        .isEqualTo("configmap/app patched\n");
    assertThat(run("-n", "demo", "patch", "deployment", "web", "--type=json", "-p",
        "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/image\",\"value\":\"nginx:2\"}]"))
        .isEqualTo("deployment.apps/web patched\n");
    assertThat(run("-n", "demo", "scale", "deployment", "web", "--replicas=3"))
        .isEqualTo("deployment.apps/web scaled\n");
    assertThat(run("-n", "demo", "get", "deployment", "web", "-o", "jsonpath={.spec.replicas} "
        + "{.spec.template.spec.containers[0].image} {.metadata.generation}")).isEqualTo("3 nginx:2 3");
    assertThat(run("-n", "demo", "label", "configmap", "app", "tier=backend"))
        .isEqualTo("configmap/app labeled\n");
    assertThat(run("-n", "demo", "get", "configmaps", "-l", "tier=backend", "-o", "name"))
        .isEqualTo("configmap/app\n");
  }

  private void deleteAll() throws Exception {
    assertThat(run("-n", "demo", "delete", "configmap", "app", "settings", "flags"))
        .isEqualTo("configmap \"app\" deleted\nconfigmap \"settings\" deleted\nconfigmap \"flags\" deleted\n");
    assertThat(run("-n", "demo", "delete", "deployment", "web", "idle"))
        .isEqualTo("deployment.apps \"web\" deleted\ndeployment.apps \"idle\" deleted\n");
    assertThat(run("-n", "demo", "delete", "service", "web")).isEqualTo("service \"web\" deleted\n");
    assertThat(run("-n", "demo", "delete", "secret", "creds")).isEqualTo("secret \"creds\" deleted\n");
    assertThat(run("-n", "demo", "get", "all,configmaps,secrets", "-o", "name")).isEmpty();
    assertThat(run("delete", "namespace", "demo")).isEqualTo("namespace \"demo\" deleted\n");
  }

  private String run(String... args) throws IOException, InterruptedException {
    return kubectl.ok(args);
  }

  private static String configMapYaml(String name, String mode) {
    return """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: %s
          namespace: demo
        data:
          mode: "%s"
        """.formatted(name, mode);
  }
}
