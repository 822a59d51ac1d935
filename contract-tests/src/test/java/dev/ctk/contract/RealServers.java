package dev.ctk.contract;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.ContainerApiServer;
import dev.ctk.envtest.EnvtestAssets;
import dev.ctk.envtest.EnvtestException;
import dev.ctk.envtest.LocalApiServer;
import dev.ctk.envtest.SharedApiServers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The real servers {@code CTK_CONTRACT_TARGETS} asks for (comma-separated, default {@code fake,envtest}; the fake
 * always runs):
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
    for (String target : list.split(",")) {
      switch (target.strip()) {
        case "fake", "" -> { }
        case "envtest" -> servers.add(new RealServer("local binaries", "", RealServers::localUnavailableReason,
            () -> SharedApiServers.get("ctk-contract-envtest", () -> LocalApiServer.builder().build().start())));
        case "container" -> servers.add(new RealServer("containers", " in containers",
            () -> ContainerApiServer.unavailableReason().orElse(null),
            () -> SharedApiServers.get("ctk-contract-container", RealServers::container)));
        default -> throw new IllegalArgumentException("CTK_CONTRACT_TARGETS=" + targets + " names an unknown "
            + "target \"" + target.strip() + "\"; known targets: fake, envtest, container (comma-separated)");
      }
    }
    return servers;
  }

  private static String localUnavailableReason() {
    try {
      EnvtestAssets.find(null);
      return null;
    } catch (EnvtestException e) {
      return e.getMessage();
    }
  }

  private static ApiServer container() {
    ContainerApiServer.Builder builder = ContainerApiServer.builder();
    if (localUnavailableReason() == null) {
      builder.withLocalImage(EnvtestAssets.find(null).directory());
    }
    return builder.build().start();
  }
}
