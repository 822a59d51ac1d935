package dev.ctk.harness.internal.realserver;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.EnvtestAssets;
import dev.ctk.envtest.ExistingCluster;
import dev.ctk.envtest.LocalApiServer;
import dev.ctk.harness.values.Mode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The settings of the real API server of one mode, resolved from configuration parameters and the
 * environment (see the table in {@code @ControllerTest}). Two scopes with equal {@link #key()} share
 * one server per JVM.
 *
 * @param mode envtest, container or existing_cluster
 * @param envtestAssets {@code ctk.envtest.assets}, or {@code null}
 * @param envtestVersion {@code ctk.envtest.version}, or {@code null}
 * @param localImage {@code ctk.container.local-image}: an assets folder or {@code auto}; or null
 * @param apiServerImage {@code ctk.container.apiserver-image}, or {@code null}
 * @param etcdImage {@code ctk.container.etcd-image}, or {@code null}
 * @param k3sImage {@code ctk.container.k3s-image}, or {@code null}
 * @param kubeconfig {@code ctk.kubeconfig}, or {@code null}
 * @param kubeContext {@code ctk.kube-context}, or {@code null}
 * @param uninstallCrds {@code ctk.uninstall-crds}
 * @param required {@code ctk.require-envtest}: fail instead of skip when not available
 */
public record ServerConfig(Mode mode, String envtestAssets, String envtestVersion, String localImage,
    String apiServerImage, String etcdImage, String k3sImage, String kubeconfig,
    String kubeContext, boolean uninstallCrds, boolean required) {

  /** The value of {@code ctk.container.local-image} that means: the binaries envtest would use. */
  public static final String AUTO = "auto";

  /**
   * What identifies one shared server: the mode and the settings that choose the server, e.g.
   * {@code envtest version=1.20}; never {@code required} or {@code uninstallCrds}.
   */
  public String key() {
    List<String> parts = new ArrayList<>();
    parts.add(mode.configName());
    switch (mode) {
      case ENVTEST -> {
        add(parts, "assets", envtestAssets);
        add(parts, "version", envtestVersion);
      }
      case CONTAINER -> {
        if (k3sImage != null) {
          add(parts, "k3s-image", k3sImage);
        } else {
          add(parts, "local-image", localImage);
          if (AUTO.equals(normalizedLocalImage())) {
            add(parts, "version", envtestVersion);
          }
          add(parts, "apiserver-image", apiServerImage);
          add(parts, "etcd-image", etcdImage);
        }
      }
      default -> {
        add(parts, "kubeconfig", kubeconfig);
        add(parts, "context", kubeContext);
      }
    }
    return String.join(" ", parts);
  }

  private static void add(List<String> parts, String name, String value) {
    if (value != null) {
      parts.add(name + "=" + value);
    }
  }

  private String normalizedLocalImage() {
    return localImage == null ? null : localImage.trim().toLowerCase(Locale.ROOT);
  }

  /**
   * Starts (or, for an existing cluster, connects to) the server these settings describe.
   *
   * @throws dev.ctk.envtest.values.EnvtestException when it is not available, with what was tried and the
   *     fix
   */
  public ApiServer start() {
    return switch (mode) {
      case ENVTEST -> {
        LocalApiServer.Builder builder = LocalApiServer.builder();
        if (envtestAssets != null) {
          builder.withAssetsDirectory(Path.of(envtestAssets));
        }
        if (envtestVersion != null) {
          builder.withVersion(envtestVersion);
        }
        yield builder.build().start();
      }
      case CONTAINER -> ContainerServerStart.start(this);
      case EXISTING_CLUSTER -> {
        ExistingCluster cluster = kubeconfig != null
            ? ExistingCluster.fromKubeconfig(Path.of(kubeconfig), kubeContext)
            : ExistingCluster.fromDefaultKubeconfig(kubeContext);
        cluster.version();   // asked once here: a cluster that does not answer is unavailable (skipped, with why)
        yield cluster;
      }
      default -> throw new IllegalStateException("not a real mode: " + mode);
    };
  }

  /** The assets folder container mode builds its local image from, or {@code null} for none. */
  public Path localImageAssets() {
    if (localImage == null) {
      return null;
    }
    if (AUTO.equals(normalizedLocalImage())) {
      return EnvtestAssets.find(envtestVersion).directory();
    }
    return Path.of(localImage);
  }
}
