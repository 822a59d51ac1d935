package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.envtest.internal.ContainerControlPlane;
import dev.ctk.envtest.internal.ContainerK3s;
import dev.ctk.envtest.values.EnvtestException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Container mode's configuration and command lines: everything that needs no Docker. */
class ContainerBuilderTest {

  @Test
  void defaults_name_real_images() {
    assertThat(ContainerApiServer.builder().build().description())
        .isEqualTo(
            "kube-apiserver container (not started; image registry.k8s.io/kube-apiserver:v1.31.4,"
                + " etcd image registry.k8s.io/etcd:3.5.15-0)");
    assertThat(ContainerApiServer.k3s().build().description())
        .isEqualTo("k3s container (not started; image rancher/k3s:v1.31.4-k3s1)");
    assertThat(ContainerApiServer.k3s().build().runsClusterControllers()).isTrue();
    assertThat(ContainerApiServer.builder().build().runsClusterControllers()).isFalse();
  }

  @Test
  void withK3sImage_switches_to_k3s(@TempDir Path assets) {
    ContainerApiServer server = ContainerApiServer.builder().withK3sImage("rancher/k3s:v1.30.8-k3s1").build();

    assertThat(server.description()).isEqualTo("k3s container (not started; image rancher/k3s:v1.30.8-k3s1)");
    assertThat(ContainerApiServer.builder().withLocalImage(assets).build().description())
        .isEqualTo("kube-apiserver container (not started; local image from " + assets + ")");
  }

  @Test
  void withControllerManager_takes_the_image_of_the_api_server_version_or_the_local_one(@TempDir Path assets) {
    // GIVEN / WHEN
    ContainerApiServer registry = ContainerApiServer.builder()
        .withApiServerImage("registry.example/k8s/kube-apiserver:v1.33.4").withControllerManager().build();
    ContainerApiServer local = ContainerApiServer.builder().withLocalImage(assets).withControllerManager().build();
    ContainerApiServer chosen = ContainerApiServer.builder()
        .withControllerManagerImage("registry.example/kcm:v1.33.4").build();
    // THEN
    assertThat(registry.description()).isEqualTo("kube-apiserver container (not started; image"
        + " registry.example/k8s/kube-apiserver:v1.33.4, etcd image registry.k8s.io/etcd:3.5.15-0,"
        + " kube-controller-manager image registry.example/k8s/kube-controller-manager:v1.33.4)");
    assertThat(local.description())
        .isEqualTo("kube-apiserver container (not started; local image from " + assets + ", with kube-controller-manager)");
    assertThat(chosen.description()).endsWith(", kube-controller-manager image registry.example/kcm:v1.33.4)");
    assertThat(List.of(registry, local, chosen)).allMatch(ContainerApiServer::runsClusterControllers);
  }

  @Test
  void withControllerManager_is_refused_where_it_cannot_apply(@TempDir Path assets) {
    assertThat(catchThrowableOfType(IllegalStateException.class,
            () -> ContainerApiServer.k3s().withControllerManager().build()))
        .hasMessage("k3s runs its own controllers: withControllerManager() is for ContainerApiServer.builder()'s"
            + " etcd + kube-apiserver containers. Drop it (k3s already collects garbage and deletes namespaces).");
    assertThat(catchThrowableOfType(IllegalStateException.class,
            () -> ContainerApiServer.builder().withLocalImage(assets).withControllerManagerImage("kcm:1").build()))
        .hasMessage("withControllerManagerImage(..) and withLocalImage(..) both choose where kube-controller-manager"
            + " comes from; with a local image it is the folder's kube-controller-manager. Drop one of them.");
  }

  @Test
  void build_twice_fails() {
    ContainerApiServer.Builder builder = ContainerApiServer.builder();
    builder.build();

    assertThat(catchThrowableOfType(IllegalStateException.class, builder::build))
        .hasMessage(
            "build() was already called on this builder; start a new one with ContainerApiServer.builder().");
  }

  @Test
  void k3s_cannot_be_combined_with_control_plane_images(@TempDir Path assets) {
    assertThat(
            catchThrowableOfType(
                IllegalStateException.class, () -> ContainerApiServer.k3s().withLocalImage(assets).build()))
        .hasMessage(
            "k3s runs from one image: it cannot be combined with withLocalImage(..). Use"
                + " ContainerApiServer.builder() for etcd + kube-apiserver containers.");
    assertThat(
            catchThrowableOfType(
                IllegalStateException.class,
                () -> ContainerApiServer.k3s().withEtcdImage("registry.k8s.io/etcd:3.5.16-0").build()))
        .hasMessage(
            "k3s runs from one image: it cannot be combined with withApiServerImage/withEtcdImage. Use"
                + " ContainerApiServer.builder() for etcd + kube-apiserver containers.");
  }

  @Test
  void a_local_image_folder_that_does_not_exist_fails_at_build(@TempDir Path dir) {
    Path missing = dir.resolve("nope");

    assertThat(
            catchThrowableOfType(
                EnvtestException.class, () -> ContainerApiServer.builder().withLocalImage(missing).build()))
        .hasMessage(
            "withLocalImage(" + missing + "): the folder does not exist. Point it at a folder with"
                + " kube-apiserver and etcd for Linux (KUBEBUILDER_ASSETS, or what .ci/provision-envtest"
                + " printed).");
  }

  @Test
  void flags_that_ctk_owns_are_refused() {
    assertThat(
            catchThrowableOfType(
                IllegalArgumentException.class,
                () -> ContainerApiServer.builder().withApiServerFlags("--v=4", "--etcd-servers=http://x:2379")))
        .hasMessage(
            "withApiServerFlags(..): --etcd-servers is set by ctk and cannot be changed: it is the"
                + " etcd container's address on the private network.");
  }

  @Test
  void bad_numbers_fail_at_once() {
    assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> ContainerApiServer.builder().withLogLines(0)))
        .hasMessage("withLogLines: at least 1, got 0");
    assertThat(
            catchThrowableOfType(
                IllegalArgumentException.class,
                () -> ContainerApiServer.builder().withStartTimeout(Duration.ofSeconds(-1))))
        .hasMessage("withStartTimeout: a positive duration is required, got PT-1S");
    assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> ContainerApiServer.builder().withEtcdImage(" ")))
        .hasMessage("withEtcdImage: an image reference is required, got  ");
  }

  @Test
  void a_server_that_is_not_started_says_so() {
    ContainerApiServer server = ContainerApiServer.builder().build();

    assertThat(catchThrowableOfType(IllegalStateException.class, server::url))
        .hasMessage(
            "This ContainerApiServer is not started: call start() first (kube-apiserver container (not"
                + " started; image registry.k8s.io/kube-apiserver:v1.31.4, etcd image"
                + " registry.k8s.io/etcd:3.5.15-0)).");
    server.close();
    assertThat(catchThrowableOfType(IllegalStateException.class, server::start))
        .hasMessage("This ContainerApiServer was closed; build a new one with ContainerApiServer.builder().");
  }

  @Test
  void the_api_server_command_line_puts_extra_flags_in_place_of_defaults() {
    List<String> command =
        ContainerControlPlane.apiServerCommand(
            "172.18.0.2",
            List.of("--token-auth-file=/ctk/auth/tokens.csv"),
            List.of("--authorization-mode=AlwaysAllow", "--v=4"));

    assertThat(command)
        .containsExactly(
            "--etcd-servers=http://172.18.0.2:2379",
            "--bind-address=0.0.0.0",
            "--secure-port=6443",
            "--cert-dir=/ctk/certs",
            "--token-auth-file=/ctk/auth/tokens.csv",
            "--endpoint-reconciler-type=none",
            "--authorization-mode=AlwaysAllow",
            "--service-cluster-ip-range=10.0.0.0/24",
            "--allow-privileged=true",
            "--disable-admission-plugins=ServiceAccount",
            "--v=4");
    assertThat(ContainerControlPlane.etcdCommand())
        .containsExactly(
            "--name=default",
            "--data-dir=/var/lib/etcd",
            "--listen-client-urls=http://0.0.0.0:2379",
            "--advertise-client-urls=http://127.0.0.1:2379",
            "--listen-peer-urls=http://127.0.0.1:2380",
            "--initial-advertise-peer-urls=http://127.0.0.1:2380",
            "--initial-cluster=default=http://127.0.0.1:2380");
  }

  @Test
  void the_k3s_command_line_passes_api_server_flags_through() {
    assertThat(ContainerK3s.command("localhost", List.of("--v=4", "--audit-log-maxage=1")))
        .containsExactly(
            "server",
            "--disable=traefik",
            "--disable=metrics-server",
            "--tls-san=localhost",
            "--write-kubeconfig-mode=644",
            "--kube-apiserver-arg=v=4",
            "--kube-apiserver-arg=audit-log-maxage=1");
  }

  @Test
  void the_k3s_kubeconfig_points_at_the_published_port() {
    String k3sYaml =
        "apiVersion: v1\n"
            + "clusters:\n"
            + "- cluster:\n"
            + "    certificate-authority-data: LS0t\n"
            + "    server: https://127.0.0.1:6443\n"
            + "  name: default\n"
            + "contexts:\n"
            + "- context:\n"
            + "    cluster: default\n"
            + "    user: default\n"
            + "  name: default\n"
            + "current-context: default\n";

    assertThat(ContainerK3s.rewriteServer(k3sYaml, "https://localhost:32768"))
        .isEqualTo(k3sYaml.replace("https://127.0.0.1:6443", "https://localhost:32768"));
  }
}
