package dev.ctk.envtest;

import dev.ctk.envtest.internal.AssetsSearch;
import dev.ctk.envtest.internal.HostEnvironment;
import dev.ctk.envtest.values.EnvtestException;
import java.nio.file.Path;

/**
 * The {@code kube-apiserver} and {@code etcd} binaries that {@link LocalApiServer} runs, found in
 * this order (the first place that has both, executable, in the wanted version wins):
 *
 * <ol>
 *   <li>the folder given to {@link LocalApiServer.Builder#withAssetsDirectory(Path)} (or to {@link
 *       #find(Path, String)});
 *   <li>the environment variable {@code KUBEBUILDER_ASSETS} (a folder holding both binaries, as
 *       controller-runtime's envtest uses it);
 *   <li>the environment variable {@code CTK_ENVTEST_ASSETS} (same);
 *   <li>setup-envtest's folders {@code <version>-<os>-<arch>} under {@code
 *       $XDG_DATA_HOME/kubebuilder-envtest/k8s} (default {@code ~/.local/share/kubebuilder-envtest/k8s});
 *       on macOS under {@code ~/Library/Application Support/io.kubebuilder.envtest/k8s}; highest
 *       version first;
 *   <li>ctk's own cache, as {@code .ci/provision-envtest} fills it: {@code
 *       $CTK_ENVTEST_CACHE/k8s/<version>-<os>-<arch>} (default {@code ~/.cache/ctk/envtest});
 *       highest version first;
 *   <li>{@code PATH}.
 * </ol>
 *
 * <p>A version such as {@code 1.20} matches {@code 1.20.x}; {@code 1.20.2} matches only itself. The
 * version of a folder comes from its setup-envtest name, otherwise from {@code kube-apiserver
 * --version}. When nothing fits, the {@link EnvtestException} lists every place with what was
 * there, e.g. {@code KUBEBUILDER_ASSETS=/opt/k8s (v1.20.2, not 1.31)}, and how to get the binaries.
 *
 * <pre>{@code
 * EnvtestAssets assets = EnvtestAssets.find("1.20");
 * System.out.println(assets);   // kube-apiserver 1.20.2 and etcd in /home/me/.cache/ctk/... (ctk cache)
 * }</pre>
 *
 * @since 0.1.0
 */
public final class EnvtestAssets {

  private final AssetsSearch.Found found;

  private EnvtestAssets(AssetsSearch.Found found) {
    this.found = found;
  }

  /**
   * Searches every place except an explicit folder.
   *
   * @param version the wanted version ({@code 1.20}, {@code 1.20.x}, {@code 1.20.2}), or {@code
   *     null} for any
   * @return the binaries
   * @throws EnvtestException when none fit, with every place tried and the fix
   * @throws IllegalArgumentException when {@code version} is not a version
   */
  public static EnvtestAssets find(String version) {
    return find(null, version);
  }

  /**
   * Searches {@code assetsDirectory} first, then the other places.
   *
   * @param assetsDirectory a folder holding both binaries, or {@code null}
   * @param version the wanted version, or {@code null} for any
   * @return the binaries
   * @throws EnvtestException when none fit, with every place tried and the fix
   * @throws IllegalArgumentException when {@code version} is not a version
   */
  public static EnvtestAssets find(Path assetsDirectory, String version) {
    return find(assetsDirectory, version, HostEnvironment.current());
  }

  static EnvtestAssets find(Path assetsDirectory, String version, HostEnvironment host) {
    return new EnvtestAssets(new AssetsSearch(host).find(assetsDirectory, version));
  }

  /**
   * The folder of {@code kube-apiserver}.
   *
   * @return the folder
   */
  public Path directory() {
    return found.directory();
  }

  /**
   * The API server binary.
   *
   * @return its path
   */
  public Path kubeApiServer() {
    return found.kubeApiServer();
  }

  /**
   * The etcd binary (beside {@code kube-apiserver}, except when both come from {@code PATH}).
   *
   * @return its path
   */
  public Path etcd() {
    return found.etcd();
  }

  /**
   * The version of {@code kube-apiserver} without a leading {@code v}, e.g. {@code 1.20.2}; {@code
   * unknown} when neither the folder name nor {@code --version} gave one.
   *
   * @return the version
   */
  public String version() {
    return found.version();
  }

  /**
   * Which place of the search order held them: {@code withAssetsDirectory}, {@code
   * KUBEBUILDER_ASSETS}, {@code CTK_ENVTEST_ASSETS}, {@code setup-envtest folder}, {@code ctk
   * cache} or {@code PATH}.
   *
   * @return the place
   */
  public String foundIn() {
    return found.place();
  }

  /**
   * E.g. {@code kube-apiserver 1.20.2 and etcd in /opt/k8s (KUBEBUILDER_ASSETS)}.
   *
   * @return the description
   */
  @Override
  public String toString() {
    return "kube-apiserver "
        + version()
        + " and etcd in "
        + (etcd().getParent().equals(directory())
            ? directory().toString()
            : directory() + " and " + etcd().getParent())
        + " ("
        + foundIn()
        + ")";
  }
}
