package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.envtest.internal.HostEnvironment;
import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Discovery order, version selection and the not-found message, on fake binaries only. */
class EnvtestAssetsTest {

  private static final String FIX =
      " Run .ci/provision-envtest (in ctk's repository; it builds 1.32.13, 1.34.4 and 1.37.2) or `setup-envtest use";

  @TempDir Path temp;

  private Path home;
  private final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void emptyHome() throws IOException {
    home = Files.createDirectories(temp.resolve("home"));
  }

  @Test
  void nothing_anywhere_lists_every_place_and_the_fix() {
    assertThatThrownBy(() -> find(null, null))
        .isInstanceOf(EnvtestException.class)
        .hasMessage(
            "kube-apiserver and etcd not found. Looked in: withAssetsDirectory=<unset>,"
                + " KUBEBUILDER_ASSETS=<unset>, CTK_ENVTEST_ASSETS=<unset>, "
                + home
                + "/.local/share/kubebuilder-envtest/k8s/* (no folders), "
                + home
                + "/.cache/ctk/envtest/k8s/* (no folders), PATH=<unset>."
                + FIX
                + "`, then set KUBEBUILDER_ASSETS to the folder it prints; or run with"
                + " -Dctk.mode=fake.");
  }

  @Test
  void places_are_searched_in_the_documented_order() {
    Path explicit = assets(temp.resolve("explicit"), "1.20.2");
    env.put("KUBEBUILDER_ASSETS", assets(temp.resolve("kubebuilder"), "1.20.2").toString());
    env.put("CTK_ENVTEST_ASSETS", assets(temp.resolve("ctk-assets"), "1.20.2").toString());
    Path setupEnvtest =
        assets(home.resolve(".local/share/kubebuilder-envtest/k8s/1.20.2-linux-amd64"), "1.20.2");
    Path cache = assets(home.resolve(".cache/ctk/envtest/k8s/1.20.2-linux-amd64"), "1.20.2");
    env.put("PATH", assets(temp.resolve("bin"), "1.20.2").toString());

    assertThat(find(explicit, null).foundIn()).isEqualTo("withAssetsDirectory");
    assertThat(find(null, null).foundIn()).isEqualTo("KUBEBUILDER_ASSETS");
    env.remove("KUBEBUILDER_ASSETS");
    assertThat(find(null, null).foundIn()).isEqualTo("CTK_ENVTEST_ASSETS");
    env.remove("CTK_ENVTEST_ASSETS");
    assertThat(find(null, null).directory()).isEqualTo(setupEnvtest);
    assertThat(find(null, null).foundIn()).isEqualTo("setup-envtest folder");
    delete(setupEnvtest);
    assertThat(find(null, null).directory()).isEqualTo(cache);
    assertThat(find(null, null).foundIn()).isEqualTo("ctk cache");
    delete(cache);
    assertThat(find(null, null).foundIn()).isEqualTo("PATH");
  }

  @Test
  void a_folder_without_both_executables_is_skipped_and_reported() throws IOException {
    Path noEtcd = temp.resolve("no-etcd");
    FakeBinaries.kubeApiServer(noEtcd, "1.20.2", "exit 0");
    Path notExecutable = assets(temp.resolve("not-executable"), "1.20.2");
    Files.setPosixFilePermissions(
        notExecutable.resolve("kube-apiserver"), PosixFilePermissions.fromString("rw-r--r--"));
    env.put("KUBEBUILDER_ASSETS", noEtcd.toString());
    env.put("CTK_ENVTEST_ASSETS", notExecutable.toString());
    Path missing = temp.resolve("missing");

    assertThatThrownBy(() -> find(missing, null))
        .isInstanceOf(EnvtestException.class)
        .hasMessage(
            "kube-apiserver and etcd not found. Looked in: withAssetsDirectory="
                + missing
                + " (no such folder), KUBEBUILDER_ASSETS="
                + noEtcd
                + " (no etcd), CTK_ENVTEST_ASSETS="
                + notExecutable
                + " (kube-apiserver not executable), "
                + defaultFoldersAndPath()
                + FIX
                + "`, then set KUBEBUILDER_ASSETS to the folder it prints; or run with"
                + " -Dctk.mode=fake.");
  }

  @Test
  void an_empty_variable_counts_as_unset() {
    env.put("KUBEBUILDER_ASSETS", "");

    assertThatThrownBy(() -> find(null, null))
        .hasMessage(
            "kube-apiserver and etcd not found. Looked in: withAssetsDirectory=<unset>,"
                + " KUBEBUILDER_ASSETS=<unset>, CTK_ENVTEST_ASSETS=<unset>, "
                + defaultFoldersAndPath()
                + FIX
                + "`, then set KUBEBUILDER_ASSETS to the folder it prints; or run with"
                + " -Dctk.mode=fake.");
  }

  @Test
  void the_highest_version_for_this_platform_wins_unless_one_is_asked_for() {
    Path root = home.resolve(".local/share/kubebuilder-envtest/k8s");
    assets(root.resolve("1.19.0-linux-amd64"), "1.19.0");
    Path v120 = assets(root.resolve("1.20.2-linux-amd64"), "1.20.2");
    Path v121 = assets(root.resolve("1.21.3-linux-amd64"), "1.21.3");
    assets(root.resolve("1.22.0-darwin-arm64"), "1.22.0");

    assertThat(find(null, null).directory()).isEqualTo(v121);
    assertThat(find(null, null).version()).isEqualTo("1.21.3");
    assertThat(find(null, "1.20").directory()).isEqualTo(v120);
    assertThat(find(null, "v1.20.x").directory()).isEqualTo(v120);
    assertThat(find(null, "1.20.2").version()).isEqualTo("1.20.2");
  }

  @Test
  void a_wanted_version_that_is_nowhere_names_what_was_found() {
    Path root = home.resolve(".local/share/kubebuilder-envtest/k8s");
    assets(root.resolve("1.20.2-linux-amd64"), "1.20.2");
    assets(root.resolve("1.21.3-linux-amd64"), "1.21.3");
    Path kubebuilder = assets(temp.resolve("kubebuilder"), "1.20.2");
    env.put("KUBEBUILDER_ASSETS", kubebuilder.toString());
    Path bin = assets(temp.resolve("bin"), "1.19.0");
    env.put("PATH", bin.toString());

    assertThatThrownBy(() -> find(null, "1.31"))
        .isInstanceOf(EnvtestException.class)
        .hasMessage(
            "kube-apiserver 1.31 and etcd not found. Looked in: withAssetsDirectory=<unset>,"
                + " KUBEBUILDER_ASSETS="
                + kubebuilder
                + " (v1.20.2, not 1.31), CTK_ENVTEST_ASSETS=<unset>, "
                + root
                + "/* (1.21.3-linux-amd64: v1.21.3, not 1.31; 1.20.2-linux-amd64: v1.20.2, not"
                + " 1.31), "
                + home
                + "/.cache/ctk/envtest/k8s/* (no folders), PATH ("
                + bin.resolve("kube-apiserver")
                + ": v1.19.0, not 1.31)."
                + FIX
                + " 1.31.x`, then set KUBEBUILDER_ASSETS to the folder it prints; or run with"
                + " -Dctk.mode=fake.");
  }

  @Test
  void folders_for_other_platforms_are_named_but_not_used() {
    Path root = home.resolve(".local/share/kubebuilder-envtest/k8s");
    assets(root.resolve("1.22.0-darwin-arm64"), "1.22.0");
    assets(root.resolve("1.21.0-linux-arm64"), "1.21.0");

    assertThatThrownBy(() -> find(null, null))
        .hasMessage(
            "kube-apiserver and etcd not found. Looked in: withAssetsDirectory=<unset>,"
                + " KUBEBUILDER_ASSETS=<unset>, CTK_ENVTEST_ASSETS=<unset>, "
                + root
                + "/* (no folder for linux-amd64, only 1.21.0-linux-arm64, 1.22.0-darwin-arm64), "
                + home
                + "/.cache/ctk/envtest/k8s/* (no folders), PATH=<unset>."
                + FIX
                + "`, then set KUBEBUILDER_ASSETS to the folder it prints; or run with"
                + " -Dctk.mode=fake.");
  }

  @Test
  void xdg_data_home_and_ctk_envtest_cache_move_the_default_folders() {
    Path data = temp.resolve("xdg");
    Path cache = temp.resolve("ctk-cache");
    env.put("XDG_DATA_HOME", data.toString());
    env.put("CTK_ENVTEST_CACHE", cache.toString());
    Path fromCache = assets(cache.resolve("k8s/1.20.2-linux-amd64"), "1.20.2");

    assertThat(find(null, null).directory()).isEqualTo(fromCache);
    Path fromData = assets(data.resolve("kubebuilder-envtest/k8s/1.20.2-linux-amd64"), "1.20.2");
    assertThat(find(null, null).directory()).isEqualTo(fromData);
  }

  @Test
  void macos_uses_setup_envtests_application_support_folder() {
    Path folder =
        assets(
            home.resolve("Library/Application Support/io.kubebuilder.envtest/k8s/1.20.2-darwin-arm64"),
            "1.20.2");

    EnvtestAssets found =
        EnvtestAssets.find(null, null, new HostEnvironment(env::get, home, "darwin", "arm64"));

    assertThat(found.directory()).isEqualTo(folder);
  }

  @Test
  void on_path_the_two_binaries_may_sit_in_different_folders() {
    Path apiServerDir = temp.resolve("k8s-bin");
    FakeBinaries.kubeApiServer(apiServerDir, "1.20.2", "exit 0");
    Path etcdDir = temp.resolve("etcd-bin");
    FakeBinaries.etcd(etcdDir, "exit 0");
    env.put("PATH", temp.resolve("nothing") + ":" + etcdDir + ":" + apiServerDir);

    EnvtestAssets found = find(null, "1.20");

    assertThat(found.kubeApiServer()).isEqualTo(apiServerDir.resolve("kube-apiserver"));
    assertThat(found.etcd()).isEqualTo(etcdDir.resolve("etcd"));
    assertThat(found)
        .hasToString(
            "kube-apiserver 1.20.2 and etcd in " + apiServerDir + " and " + etcdDir + " (PATH)");
  }

  @Test
  void a_folder_name_without_a_version_asks_the_binary() {
    Path folder = assets(temp.resolve("plain"), "1.23.4");

    EnvtestAssets found = find(folder, null);

    assertThat(found.version()).isEqualTo("1.23.4");
    assertThat(found).hasToString("kube-apiserver 1.23.4 and etcd in " + folder + " (withAssetsDirectory)");
  }

  @Test
  void a_binary_that_names_no_version_has_an_unknown_one() {
    Path folder = temp.resolve("silent");
    FakeBinaries.script(folder.resolve("kube-apiserver"), "echo 'no idea'");
    FakeBinaries.etcd(folder, "exit 0");

    assertThat(find(folder, null).version()).isEqualTo("unknown");
    assertThatThrownBy(() -> find(folder, "1.20"))
        .hasMessage(
            "kube-apiserver 1.20 and etcd not found. Looked in: withAssetsDirectory="
                + folder
                + " (kube-apiserver --version named no version, not 1.20), KUBEBUILDER_ASSETS=<unset>,"
                + " CTK_ENVTEST_ASSETS=<unset>, "
                + defaultFoldersAndPath()
                + FIX
                + " 1.20.x`, then set KUBEBUILDER_ASSETS to the folder it prints; or run with"
                + " -Dctk.mode=fake.");
  }

  @Test
  void a_malformed_version_is_refused() {
    assertThatThrownBy(() -> find(null, "1.x.y"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "withVersion(\"1.x.y\"): not a Kubernetes version. Pass one like 1.20, 1.20.x or 1.20.2.");
  }

  /** The end of the places list when setup-envtest's and ctk's folders are empty and PATH unset. */
  private String defaultFoldersAndPath() {
    return home
        + "/.local/share/kubebuilder-envtest/k8s/* (no folders), "
        + home
        + "/.cache/ctk/envtest/k8s/* (no folders), PATH=<unset>.";
  }

  private EnvtestAssets find(Path explicit, String version) {
    return EnvtestAssets.find(explicit, version, new HostEnvironment(env::get, home, "linux", "amd64"));
  }

  private static Path assets(Path dir, String version) {
    FakeBinaries.kubeApiServer(dir, version, "exit 0");
    FakeBinaries.etcd(dir, "exit 0");
    return dir;
  }

  private static void delete(Path dir) {
    try {
      Files.delete(dir.resolve("kube-apiserver"));
      Files.delete(dir.resolve("etcd"));
      Files.delete(dir);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
