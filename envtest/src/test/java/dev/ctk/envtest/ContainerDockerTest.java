package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.envtest.internal.ContainerDocker;
import dev.ctk.envtest.internal.ContainerDockerSearch;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Messages about Docker, built from an environment the test makes (no real Docker involved). */
class ContainerDockerTest {

  @TempDir Path dir;

  @Test
  void unreachable_docker_lists_every_place_tried_with_what_was_there() throws IOException {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path xdg = Files.createDirectories(dir.resolve("xdg"));
    Files.writeString(xdg.resolve("docker.sock"), "a plain file");
    Files.createDirectories(home.resolve(".docker/run"));
    try (ServerSocketChannel listening = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      listening.bind(UnixDomainSocketAddress.of(home.resolve(".docker/run/docker.sock")));
      ContainerDockerSearch environment =
          new ContainerDockerSearch(
              Map.of("DOCKER_HOST", "unix://" + dir.resolve("missing.sock"), "XDG_RUNTIME_DIR", xdg.toString()),
              home,
              null,
              dir.resolve("var/run/docker.sock"));

      String message =
          environment.unreachableMessage(
              "Could not find a valid Docker environment. Please see logs and check configuration");

      assertThat(message)
          .isEqualTo(
              "Docker is not running or not reachable (tried: DOCKER_HOST=unix://" + dir.resolve("missing.sock")
                  + " (no such file), tc.host=<unset> (~/.testcontainers.properties), unix://"
                  + dir.resolve("var/run/docker.sock") + " (no such file), " + xdg.resolve("docker.sock")
                  + " (not a socket), " + home.resolve(".docker/run/docker.sock") + " (accepts connections), "
                  + home.resolve(".docker/desktop/docker.sock") + " (no such file); Testcontainers said: Could"
                  + " not find a valid Docker environment. Please see logs and check configuration). Start"
                  + " Docker, or run with -Dctk.mode=envtest for local binaries.");
    }
  }

  @Test
  void a_tcp_docker_host_and_tc_host_are_listed_as_configured() {
    ContainerDockerSearch environment =
        new ContainerDockerSearch(
            Map.of("DOCKER_HOST", "tcp://10.0.0.1:2375"), dir, "tcp://10.0.0.2:2375", dir.resolve("docker.sock"));

    assertThat(environment.unreachableMessage("Previous attempts to find a Docker environment failed. Will not retry. Please see logs and check configuration"))
        .isEqualTo(
            "Docker is not running or not reachable (tried: DOCKER_HOST=tcp://10.0.0.1:2375,"
                + " tc.host=tcp://10.0.0.2:2375 (~/.testcontainers.properties), unix://" + dir.resolve("docker.sock")
                + " (no such file), $XDG_RUNTIME_DIR/docker.sock (XDG_RUNTIME_DIR unset), "
                + dir.resolve(".docker/run/docker.sock") + " (no such file), "
                + dir.resolve(".docker/desktop/docker.sock") + " (no such file); Testcontainers said: Previous"
                + " attempts to find a Docker environment failed. Will not retry. Please see logs and check"
                + " configuration). Start Docker, or run with -Dctk.mode=envtest for local binaries.");
  }

  @Test
  void docker_found_but_testcontainers_failing_points_at_its_helper_images() {
    ContainerDockerSearch environment =
        new ContainerDockerSearch(Map.of(), dir, null, dir.resolve("docker.sock"));

    assertThat(
            environment.unreachableMessage(
                "Condition with Lambda expression in org.testcontainers.images.RemoteDockerImage was not"
                    + " fulfilled within 2 minutes."))
        .isEqualTo(
            "Docker was found, but Testcontainers could not prepare it: Condition with Lambda expression in"
                + " org.testcontainers.images.RemoteDockerImage was not fulfilled within 2 minutes."
                + " Testcontainers pulls helper images at first use (testcontainers/ryuk to clean up; alpine to"
                + " find the Docker host when the JVM runs inside a container); where they cannot be pulled,"
                + " set TESTCONTAINERS_RYUK_DISABLED=true (ctk removes its own containers) and"
                + " TESTCONTAINERS_HOST_OVERRIDE=<address of the Docker host; localhost when dockerd runs beside"
                + " the JVM>. Or run with -Dctk.mode=envtest for local binaries.");
  }

  @Test
  void image_references_split_into_repository_and_tag() {
    assertThat(ContainerDocker.repository("registry.k8s.io/etcd:3.5.15-0")).isEqualTo("registry.k8s.io/etcd");
    assertThat(ContainerDocker.tag("registry.k8s.io/etcd:3.5.15-0")).isEqualTo("3.5.15-0");
    assertThat(ContainerDocker.repository("localhost:5000/k3s")).isEqualTo("localhost:5000/k3s");
    assertThat(ContainerDocker.tag("localhost:5000/k3s")).isEqualTo("latest");
    assertThat(ContainerDocker.repository("etcd@sha256:abc")).isEqualTo("etcd");
    assertThat(ContainerDocker.tag("etcd@sha256:abc")).isEqualTo("sha256:abc");
  }
}
