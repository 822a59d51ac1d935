package dev.ctk.contract;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.ContainerApiServer;
import dev.ctk.envtest.EnvtestAssets;
import dev.ctk.envtest.LocalApiServer;
import dev.ctk.envtest.SharedApiServers;
import dev.ctk.envtest.internal.ControllerManagerBinary;
import dev.ctk.envtest.values.EnvtestException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The real servers {@code CTK_CONTRACT_TARGETS} asks for (comma-separated, default {@code fake,envtest}; the fake
 * always runs). A real target may name a version, {@code envtest@1.37} or {@code container@1.32.13}, found as
 * {@link EnvtestAssets#find(String)} finds it; without one it is the first found. Each target gets its own fidelity
 * line, so {@code fake,envtest@1.32,envtest@1.37} measures the fake against two versions in one run:
 * <ul>
 *   <li>{@code envtest}: local etcd + kube-apiserver binaries, found where {@link EnvtestAssets} looks
 *       ({@code KUBEBUILDER_ASSETS}, {@code CTK_ENVTEST_ASSETS}, setup-envtest's folders, ctk's cache, PATH);
 *   <li>{@code container}: etcd + kube-apiserver containers; from an image built locally out of those same binaries
 *       when they are found (no registry needed), else from the default images.
 * </ul>
 * Both are shared per JVM through {@link SharedApiServers}.
 */
final class RealServers {

  private RealServers() {
  }

  static List<RealServer> requested(String targets) {
    String list = targets == null || targets.isBlank() ? "fake,envtest" : targets.toLowerCase(Locale.ROOT);
    List<RealServer> servers = new ArrayList<>();
    for (String entry : list.split(",")) {
      String target = entry.strip();
      int at = target.indexOf('@');
      String kind = at < 0 ? target : target.substring(0, at);
      String version = at < 0 ? null : target.substring(at + 1);
      if (version != null && !version.matches("v?\\d+\\.\\d+(\\.(\\d+|x))?")) {
        throw new IllegalArgumentException("CTK_CONTRACT_TARGETS=" + targets + " names \"" + target + "\", whose "
            + "version \"" + version + "\" is not a Kubernetes version; write e.g. envtest@1.37 or envtest@1.32.13");
      }
      String key = version == null ? "" : "-" + version;
      String named = version == null ? "" : " " + version;
      switch (kind) {
        case "fake", "" -> {
          if (version != null) {
            throw new IllegalArgumentException("CTK_CONTRACT_TARGETS=" + targets + " names \"" + target
                + "\"; the fake takes no version (it always runs)");
          }
        }
        case "envtest" -> servers.add(new RealServer("local binaries" + named, "",
            () -> localUnavailableReason(version),
            () -> SharedApiServers.get("ctk-contract-envtest" + key, () -> local(version, false)),
            () -> localControllersMissing(version),
            () -> SharedApiServers.get("ctk-contract-envtest-kcm" + key, () -> local(version, true))));
        case "container" -> servers.add(new RealServer("containers" + named, " in containers",
            () -> ContainerApiServer.unavailableReason().orElse(null),
            () -> SharedApiServers.get("ctk-contract-container" + key, () -> container(version, false)),
            () -> containerControllersMissing(version),
            () -> SharedApiServers.get("ctk-contract-container-kcm" + key, () -> container(version, true))));
        default -> throw new IllegalArgumentException("CTK_CONTRACT_TARGETS=" + targets + " names an unknown "
            + "target \"" + target + "\"; known targets: fake, envtest, container, each of the last two optionally "
            + "with a version (envtest@1.37), comma-separated");
      }
    }
    return servers;
  }

  private static String localUnavailableReason(String version) {
    try {
      EnvtestAssets.find(version);
      return null;
    } catch (EnvtestException e) {
      return e.getMessage();
    }
  }

  /** Why the local target of that version cannot run kube-controller-manager, or {@code null}. */
  private static String localControllersMissing(String version) {
    Path binary = EnvtestAssets.find(version).kubeApiServer().resolveSibling(ControllerManagerBinary.NAME);
    return Files.isExecutable(binary) ? null
        : "no kube-controller-manager beside kube-apiserver in " + binary.getParent() + " (.ci/provision-envtest "
            + "builds it where the Go module proxy serves its modules)";
  }

  /** Why the container target of that version cannot run kube-controller-manager, or {@code null}. */
  private static String containerControllersMissing(String version) {
    return localUnavailableReason(version) != null
        ? "the default images run no kube-controller-manager; a local image built from envtest binaries with "
            + "kube-controller-manager beside them does"
        : localControllersMissing(version);
  }

  /**
   * A local server of that version, bare or with kube-controller-manager's garbage collector and namespace
   * controller.
   */
  private static ApiServer local(String version, boolean clusterControllers) {
    // found once here, then handed over: the server does not search (and probe --version) again
    EnvtestAssets assets = EnvtestAssets.find(version);
    LocalApiServer.Builder builder = LocalApiServer.builder().withAssetsDirectory(assets.directory());
    if (clusterControllers) {
      builder.withControllerManager();
    }
    return builder.build().start();
  }

  private static ApiServer container(String version, boolean clusterControllers) {
    ContainerApiServer.Builder builder = ContainerApiServer.builder();
    if (localUnavailableReason(version) == null) {
      builder.withLocalImage(EnvtestAssets.find(version).directory());
    }
    if (clusterControllers) {
      builder.withControllerManager();
    }
    return builder.build().start();
  }
}
