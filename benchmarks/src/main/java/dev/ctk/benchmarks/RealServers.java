package dev.ctk.benchmarks;

import dev.ctk.envtest.ContainerApiServer;
import dev.ctk.envtest.EnvtestAssets;
import dev.ctk.envtest.values.EnvtestException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether the real-server benchmarks can run on this machine, and how to start their servers. Local binaries are
 * found as {@code LocalApiServer} finds them ({@code KUBEBUILDER_ASSETS}, setup-envtest's folders, ctk's cache,
 * {@code PATH}); the container variant needs Docker and {@code ctk.container.local-image} /
 * {@code CTK_CONTAINER_LOCAL_IMAGE} ({@code auto} or an assets folder), so that no image is pulled.
 *
 * <pre>{@code
 * RealServers.localUnavailableReason().ifPresent(System.out::println);
 * }</pre>
 *
 * @since 0.1.0
 */
public final class RealServers {

  /** The system property naming the assets folder the container image is built from, or {@code auto}. */
  public static final String LOCAL_IMAGE_PROPERTY = "ctk.container.local-image";

  private RealServers() {}

  /**
   * Why local binaries cannot run here.
   *
   * @return the reason (every place looked in and the fix), or empty when they can
   */
  public static Optional<String> localUnavailableReason() {
    try {
      EnvtestAssets.find(null);
      return Optional.empty();
    } catch (EnvtestException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * Why the container variant cannot run here.
   *
   * @return the reason, or empty when it can
   */
  public static Optional<String> containerUnavailableReason() {
    String localImage = localImageSetting();
    if (localImage == null) {
      return Optional.of("No local image configured: " + LOCAL_IMAGE_PROPERTY + " and CTK_CONTAINER_LOCAL_IMAGE "
          + "are unset, and the benchmarks never pull images. Set -D" + LOCAL_IMAGE_PROPERTY
          + "=auto (build the image from the local binaries) or =<assets folder>.");
    }
    Optional<String> docker = ContainerApiServer.unavailableReason();
    if (docker.isPresent()) {
      return docker;
    }
    if ("auto".equals(localImage)) {
      return localUnavailableReason().map(reason -> LOCAL_IMAGE_PROPERTY + "=auto found no local binaries to "
          + "build the image from: " + reason);
    }
    return Optional.empty();
  }

  /**
   * The assets folder the container image is built from.
   *
   * @return the folder
   * @throws EnvtestException when {@code auto} finds no binaries
   * @throws IllegalStateException when no local image is configured
   */
  public static Path localImageAssets() {
    String localImage = localImageSetting();
    if (localImage == null) {
      throw new IllegalStateException(containerUnavailableReason().orElseThrow());
    }
    return "auto".equals(localImage) ? EnvtestAssets.find(null).directory() : Path.of(localImage);
  }

  /**
   * Fails with the reason when the local binaries are missing.
   *
   * @param benchmark the benchmark that needs them, for the message
   * @throws IllegalStateException when they are missing
   */
  public static void requireLocal(String benchmark) {
    localUnavailableReason().ifPresent(reason -> {
      throw new IllegalStateException(benchmark + " needs local kube-apiserver and etcd binaries: " + reason
          + " Run it through benchmarks.jar's own main class, which skips it when they are missing.");
    });
  }

  /**
   * Fails with the reason when the container variant cannot run.
   *
   * @param benchmark the benchmark that needs it, for the message
   * @throws IllegalStateException when it cannot
   */
  public static void requireContainer(String benchmark) {
    containerUnavailableReason().ifPresent(reason -> {
      throw new IllegalStateException(benchmark + " needs Docker and a local image: " + reason
          + " Run it through benchmarks.jar's own main class, which skips it when they are missing.");
    });
  }

  private static String localImageSetting() {
    String value = System.getProperty(LOCAL_IMAGE_PROPERTY);
    if (value == null || value.isBlank()) {
      value = System.getenv("CTK_CONTAINER_LOCAL_IMAGE");
    }
    return value == null || value.isBlank() ? null : value.trim();
  }
}
