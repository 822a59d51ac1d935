package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;
import dev.ctk.envtest.values.EnvtestUnavailableException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a folder with executable {@code kube-apiserver} and {@code etcd} binaries, in this order,
 * stopping at the first place that has both (in the wanted version, when one is asked for):
 *
 * <ol>
 *   <li>the folder given explicitly ({@code withAssetsDirectory});
 *   <li>{@code $KUBEBUILDER_ASSETS};
 *   <li>{@code $CTK_ENVTEST_ASSETS};
 *   <li>setup-envtest's folders {@code <version>-<os>-<arch>} under {@code
 *       $XDG_DATA_HOME/kubebuilder-envtest/k8s} (default {@code ~/.local/share/...}), on macOS
 *       {@code ~/Library/Application Support/io.kubebuilder.envtest/k8s}, highest version first;
 *   <li>ctk's own cache, as {@code .ci/provision-envtest} writes it: {@code
 *       $CTK_ENVTEST_CACHE/k8s/<version>-<os>-<arch>} (default {@code ~/.cache/ctk/envtest}),
 *       highest version first;
 *   <li>{@code PATH} (the two binaries may sit in different folders there).
 * </ol>
 *
 * <p>The version of a folder comes from its setup-envtest name; otherwise from {@code
 * kube-apiserver --version}. When nothing fits, the {@link EnvtestException} lists every place
 * with what was there, and the fix.
 *
 * <pre>{@code
 * AssetsSearch.Found found = new AssetsSearch(HostEnvironment.current()).find(null, "1.20");
 * }</pre>
 */
public final class AssetsSearch {

  /** The name of the API server binary. */
  public static final String KUBE_APISERVER = "kube-apiserver";

  /** The name of the etcd binary. */
  public static final String ETCD = "etcd";

  private static final Logger LOG = LoggerFactory.getLogger(AssetsSearch.class);
  private static final Pattern SETUP_ENVTEST_FOLDER =
      Pattern.compile("(\\d+\\.\\d+\\.\\d+)-([a-z0-9]+)-([a-z0-9]+)");

  private final HostEnvironment host;

  /**
   * A search on {@code host}.
   *
   * @param host where environment variables and the home folder come from
   */
  public AssetsSearch(HostEnvironment host) {
    this.host = host;
  }

  /**
   * What was found.
   *
   * @param directory the folder of {@code kube-apiserver}
   * @param kubeApiServer the API server binary
   * @param etcd the etcd binary
   * @param version the version of {@code kube-apiserver}, e.g. {@code 1.20.2}, or {@code unknown}
   * @param place where it was found, e.g. {@code KUBEBUILDER_ASSETS} or {@code PATH}
   */
  public record Found(
      Path directory, Path kubeApiServer, Path etcd, String version, String place) {}

  /**
   * Searches all places in order.
   *
   * @param explicitDirectory the folder given by the user, or {@code null}
   * @param wantedVersion e.g. {@code 1.20} or {@code 1.20.2}, or {@code null} for any
   * @return the first fitting place
   * @throws EnvtestException when no place fits, listing them all
   * @throws IllegalArgumentException when {@code wantedVersion} is not a version
   */
  public Found find(Path explicitDirectory, String wantedVersion) {
    KubernetesVersion wanted = wantedVersion == null ? null : parseWanted(wantedVersion);
    List<String> looked = new ArrayList<>();
    Optional<Found> found =
        folder("withAssetsDirectory", explicitDirectory, wanted, looked)
            .or(() -> variableFolder("KUBEBUILDER_ASSETS", wanted, looked))
            .or(() -> variableFolder("CTK_ENVTEST_ASSETS", wanted, looked))
            .or(() -> versionedFolders("setup-envtest folder", setupEnvtestRoot(), wanted, looked))
            .or(() -> versionedFolders("ctk cache", ctkCacheRoot(), wanted, looked))
            .or(() -> path(wanted, looked));
    if (found.isPresent()) {
      LOG.debug("found envtest binaries {} after looking in: {}", found.get(), looked);
      return found.get();
    }
    throw new EnvtestUnavailableException(notFoundMessage(wanted, looked));
  }

  /**
   * Parses a wanted version or fails with a message that shows the accepted forms.
   *
   * @param wantedVersion the text
   * @return the version
   */
  public static KubernetesVersion parseWanted(String wantedVersion) {
    return KubernetesVersion.parse(wantedVersion)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "withVersion(\""
                        + wantedVersion
                        + "\"): not a Kubernetes version. Pass one like 1.20, 1.20.x or 1.20.2."));
  }

  private Optional<Found> variableFolder(
      String variable, KubernetesVersion wanted, List<String> looked) {
    String value = host.variable(variable);
    return folder(variable, value == null ? null : Path.of(value), wanted, looked);
  }

  private Optional<Found> folder(
      String name, Path dir, KubernetesVersion wanted, List<String> looked) {
    if (dir == null) {
      looked.add(name + "=<unset>");
      return Optional.empty();
    }
    String problem = problemOf(dir);
    if (problem == null) {
      String version = versionOf(dir);
      problem = versionProblem(version, wanted);
      if (problem == null) {
        return Optional.of(found(dir, dir.resolve(KUBE_APISERVER), dir.resolve(ETCD), version, name));
      }
    }
    looked.add(name + "=" + dir + " (" + problem + ")");
    return Optional.empty();
  }

  private Optional<Found> versionedFolders(
      String name, Path root, KubernetesVersion wanted, List<String> looked) {
    List<Path> children;
    try (Stream<Path> list = Files.isDirectory(root) ? Files.list(root) : Stream.empty()) {
      children = list.filter(Files::isDirectory).toList();
    } catch (IOException e) {
      looked.add(root + "/* (cannot list: " + e.getMessage() + ")");
      return Optional.empty();
    }
    List<String> problems = new ArrayList<>();
    List<String> otherPlatforms = new ArrayList<>();
    List<Path> candidates =
        children.stream()
            .filter(child -> isForThisPlatform(child, otherPlatforms))
            .sorted(
                Comparator.comparing(
                        (Path child) -> KubernetesVersion.parse(versionPart(child)).orElseThrow())
                    .reversed())
            .toList();
    for (Path candidate : candidates) {
      String version = versionPart(candidate);
      String problem = problemOf(candidate);
      if (problem == null) {
        problem = versionProblem(version, wanted);
      }
      if (problem == null) {
        return Optional.of(
            found(
                candidate,
                candidate.resolve(KUBE_APISERVER),
                candidate.resolve(ETCD),
                version,
                name));
      }
      problems.add(candidate.getFileName() + ": " + problem);
    }
    if (candidates.isEmpty() && otherPlatforms.isEmpty()) {
      problems.add("no folders");
    } else if (candidates.isEmpty()) {
      problems.add(
          "no folder for "
              + host.os()
              + "-"
              + host.arch()
              + ", only "
              + String.join(", ", otherPlatforms.stream().sorted().toList()));
    }
    looked.add(root + "/* (" + String.join("; ", problems) + ")");
    return Optional.empty();
  }

  private boolean isForThisPlatform(Path child, List<String> otherPlatforms) {
    Matcher matcher = SETUP_ENVTEST_FOLDER.matcher(child.getFileName().toString());
    if (!matcher.matches()) {
      return false;
    }
    if (matcher.group(2).equals(host.os()) && matcher.group(3).equals(host.arch())) {
      return true;
    }
    otherPlatforms.add(child.getFileName().toString());
    return false;
  }

  private Optional<Found> path(KubernetesVersion wanted, List<String> looked) {
    String path = host.variable("PATH");
    if (path == null) {
      looked.add("PATH=<unset>");
      return Optional.empty();
    }
    Path apiServer = onPath(path, KUBE_APISERVER);
    Path etcd = onPath(path, ETCD);
    List<String> missing = new ArrayList<>();
    if (apiServer == null) {
      missing.add("no " + KUBE_APISERVER);
    }
    if (etcd == null) {
      missing.add("no " + ETCD);
    }
    if (!missing.isEmpty()) {
      looked.add("PATH (" + String.join(", ", missing) + ")");
      return Optional.empty();
    }
    String version = probeVersion(apiServer);
    String problem = versionProblem(version, wanted);
    if (problem != null) {
      looked.add("PATH (" + apiServer + ": " + problem + ")");
      return Optional.empty();
    }
    return Optional.of(found(apiServer.getParent(), apiServer, etcd, version, "PATH"));
  }

  private static Path onPath(String path, String binary) {
    for (String entry : path.split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(entry, binary);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private static String problemOf(Path dir) {
    if (!Files.exists(dir)) {
      return "no such folder";
    }
    if (!Files.isDirectory(dir)) {
      return "not a folder";
    }
    List<String> problems = new ArrayList<>();
    for (String binary : List.of(KUBE_APISERVER, ETCD)) {
      Path file = dir.resolve(binary);
      if (!Files.isRegularFile(file)) {
        problems.add("no " + binary);
      } else if (!Files.isExecutable(file)) {
        problems.add(binary + " not executable");
      }
    }
    return problems.isEmpty() ? null : String.join(", ", problems);
  }

  private static String versionOf(Path dir) {
    Matcher matcher = SETUP_ENVTEST_FOLDER.matcher(dir.getFileName().toString());
    return matcher.matches() ? matcher.group(1) : probeVersion(dir.resolve(KUBE_APISERVER));
  }

  private static String versionPart(Path setupEnvtestFolder) {
    Matcher matcher = SETUP_ENVTEST_FOLDER.matcher(setupEnvtestFolder.getFileName().toString());
    return matcher.matches() ? matcher.group(1) : "";
  }

  private static String probeVersion(Path apiServer) {
    return VersionProbe.versionOf(apiServer);
  }

  private static String versionProblem(String version, KubernetesVersion wanted) {
    if (wanted == null) {
      return null;
    }
    Optional<KubernetesVersion> found = KubernetesVersion.parse(version);
    if (found.isEmpty()) {
      return KUBE_APISERVER + " --version named no version, not " + wanted;
    }
    return wanted.matches(found.get()) ? null : "v" + version + ", not " + wanted;
  }

  private static Found found(Path dir, Path apiServer, Path etcd, String version, String place) {
    return new Found(dir, apiServer, etcd, version, place);
  }

  private Path setupEnvtestRoot() {
    if (host.os().equals("darwin")) {
      return host.home().resolve("Library/Application Support/io.kubebuilder.envtest/k8s");
    }
    String xdg = host.variable("XDG_DATA_HOME");
    Path data = xdg == null ? host.home().resolve(".local/share") : Path.of(xdg);
    return data.resolve("kubebuilder-envtest/k8s");
  }

  private Path ctkCacheRoot() {
    String cache = host.variable("CTK_ENVTEST_CACHE");
    return (cache == null ? host.home().resolve(".cache/ctk/envtest") : Path.of(cache))
        .resolve("k8s");
  }

  private static String notFoundMessage(KubernetesVersion wanted, List<String> looked) {
    String what = wanted == null ? KUBE_APISERVER : KUBE_APISERVER + " " + wanted;
    String use =
        wanted == null
            ? "`setup-envtest use`"
            : "`setup-envtest use " + (wanted.parts().size() < 3 ? wanted + ".x" : wanted) + "`";
    return what
        + " and "
        + ETCD
        + " not found. Looked in: "
        + String.join(", ", looked)
        + ". Run .ci/provision-envtest (in ctk's repository; it builds 1.32.13, 1.34.4 and 1.37.2) or "
        + use
        + ", then set KUBEBUILDER_ASSETS to the folder it prints; or run with -Dctk.mode=fake.";
  }
}
