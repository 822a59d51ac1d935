package dev.ctk.envtest;

import dev.ctk.envtest.internal.ContainerDocker;
import dev.ctk.envtest.values.EnvtestException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;

/**
 * What the container tests need from this machine: Docker (through Testcontainers) and envtest
 * binaries for the local image. When either is missing the tests are skipped with the reason,
 * unless {@code CTK_REQUIRE_ENVTEST=true}, which turns that into a failure.
 *
 * <p>On machines that cannot pull Testcontainers' Ryuk image, run with {@code
 * TESTCONTAINERS_RYUK_DISABLED=true}; where Testcontainers guesses the Docker host wrong (inside a
 * container), with {@code TESTCONTAINERS_HOST_OVERRIDE=localhost}. ctk's {@code .ci/run} exports
 * both.
 */
final class ContainerTestEnvironment {

  private ContainerTestEnvironment() {}

  /** Skips (or fails, when required) unless Docker can be used. */
  static void requireDocker() {
    ContainerApiServer.unavailableReason().ifPresent(ContainerTestEnvironment::unavailable);
  }

  /** The envtest binaries for the local image; skips (or fails, when required) without them. */
  static EnvtestAssets requireAssets() {
    try {
      return EnvtestAssets.find(null);
    } catch (EnvtestException e) {
      unavailable(e.getMessage());
      throw e;
    }
  }

  /** A builder for the locally built image of this machine's envtest binaries. */
  static ContainerApiServer.Builder localImage() {
    requireDocker();
    return ContainerApiServer.builder().withLocalImage(requireAssets().directory());
  }

  /**
   * Names of every container ctk created in this JVM that still exists, running or not (other
   * JVMs on the machine may run ctk containers at the same time: they carry another session id).
   */
  static List<String> ctkContainers() {
    return ContainerDocker.connect().containersLabelled(thisJvm());
  }

  /** Names of every network ctk created in this JVM that still exists. */
  static List<String> ctkNetworks() {
    return ContainerDocker.connect().networksLabelled(thisJvm());
  }

  private static Map<String, String> thisJvm() {
    return Map.of(
        ContainerDocker.LABEL, "true",
        DockerClientFactory.TESTCONTAINERS_SESSION_ID_LABEL, DockerClientFactory.SESSION_ID);
  }

  private static void unavailable(String reason) {
    if ("true".equalsIgnoreCase(System.getenv("CTK_REQUIRE_ENVTEST"))) {
      throw new AssertionError("CTK_REQUIRE_ENVTEST=true but container mode cannot run: " + reason);
    }
    Assumptions.abort(reason);
  }
}
