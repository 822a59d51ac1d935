package dev.ctk.envtest.internal;

import com.github.dockerjava.api.exception.NotFoundException;
import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * An image built on this machine, with no pull, from the same kube-apiserver and etcd binaries that
 * local mode runs: {@code FROM scratch} plus the two binaries (and kube-controller-manager when
 * it sits beside them) at {@code /usr/local/bin} and the
 * shared libraries {@code ldd} lists for them, at the paths {@code ldd} names. Tagged {@code
 * ctk-envtest:<version>-<first 12 hex digits of the SHA-256 of every file>} and reused while that
 * tag exists.
 *
 * <pre>{@code
 * String image = ContainerLocalImage.ensure(docker, Path.of("/root/.cache/ctk/envtest/k8s/1.20.2-linux-amd64"));
 * // "ctk-envtest:1.20.2-3f1c9a0b7d2e"
 * }</pre>
 *
 * <p>Limits: the binaries must be Linux executables for the Docker engine's CPU (a macOS
 * setup-envtest folder will not do); {@code ldd} must be on the PATH for a dynamically linked
 * binary (without it the binaries are taken as static); libraries a binary opens at run time with
 * dlopen are not found by {@code ldd} and are not copied.
 */
public final class ContainerLocalImage {

  /** The repository of locally built images. */
  public static final String REPOSITORY = "ctk-envtest";

  /** Where the binaries live inside every image ctk runs. */
  public static final String BIN = "/usr/local/bin/";

  private static final Logger LOG = LoggerFactory.getLogger(ContainerLocalImage.class);
  private static final Pattern LDD_PATH = Pattern.compile("(?:=>\\s*)?(/\\S+)\\s+\\(0x[0-9a-f]+\\)");
  private static final Pattern LDD_MISSING = Pattern.compile("^\\s*(\\S+)\\s*=>\\s*not found");
  private static final Pattern FOLDER_VERSION = Pattern.compile("^(\\d+\\.\\d+\\.\\d+)-");
  private static final long LDD_TIMEOUT_SECONDS = 10;
  private static final Map<String, String> TAGS = new ConcurrentHashMap<>();

  private ContainerLocalImage() {}

  /**
   * Returns the tag of the image for {@code assets}, building it first if Docker does not have it.
   *
   * @param docker the engine
   * @param assets a folder holding executable {@code kube-apiserver} and {@code etcd}
   * @return the image reference
   * @throws EnvtestException if a binary is missing, a library cannot be found, or the build fails
   */
  public static synchronized String ensure(ContainerDocker docker, Path assets) {
    Map<String, Path> files = contents(assets);
    String tag = tag(assets, files);
    try {
      docker.client().inspectImageCmd(tag).exec();
      LOG.info("reusing local image {} built from {}", tag, assets);
      return tag;
    } catch (NotFoundException e) {
      LOG.info("building local image {} from {} (no pull needed)", tag, assets);
    }
    long start = System.nanoTime();
    ImageFromDockerfile image =
        new ImageFromDockerfile(tag, false)
            .withFileFromString("Dockerfile", dockerfile(files, assets))
            .withBuildImageCmdModifier(
                cmd -> cmd.withLabels(Map.of(ContainerDocker.LABEL, "true")));
    int index = 0;
    for (Path source : files.values()) {
      image.withFileFromPath("f" + index++, source);
    }
    try {
      image.get();
    } catch (RuntimeException e) {
      throw new EnvtestException(
          "Could not build the local image "
              + tag
              + " from "
              + assets
              + " after "
              + DurationText.since(start)
              + ": "
              + ContainerDocker.rootMessage(e)
              + ". The build needs no registry (FROM scratch); check that Docker has disk space"
              + " (docker system df) and that the files in the folder are readable.",
          e);
    }
    LOG.info("built local image {} in {}", tag, DurationText.since(start));
    return tag;
  }

  /**
   * Checks that {@code assets} holds a kube-controller-manager of kube-apiserver's version, for
   * {@code withControllerManager()} with a local image.
   *
   * @param assets the folder with the binaries
   * @throws EnvtestException when it is missing or of another version, with the fix
   */
  public static void requireControllerManager(Path assets) {
    Path apiServer = assets.resolve("kube-apiserver");
    if (Files.isExecutable(apiServer)) {
      ControllerManagerBinary.beside(apiServer, VersionProbe.versionOf(apiServer));
    }
  }

  /**
   * The files of the image: path inside the image to file on this machine (real paths, links
   * resolved), libraries first.
   *
   * @param assets the folder with the binaries
   * @return the files
   * @throws EnvtestException if a binary is missing or a library cannot be found
   */
  public static Map<String, Path> contents(Path assets) {
    Map<String, Path> binaries = new LinkedHashMap<>();
    for (String name : List.of("kube-apiserver", "etcd")) {
      Path binary = assets.resolve(name);
      if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
        throw new EnvtestException(
            "withLocalImage("
                + assets
                + "): no executable "
                + name
                + " there (the folder "
                + describeFolder(assets)
                + "). Point it at a folder with kube-apiserver and etcd for Linux, e.g. one that"
                + " .ci/provision-envtest or setup-envtest prepared.");
      }
      binaries.put(BIN + name, realPath(binary));
    }
    // optional: withControllerManager() runs it from the same image
    Path controllerManager = assets.resolve(ControllerManagerBinary.NAME);
    if (Files.isRegularFile(controllerManager) && Files.isExecutable(controllerManager)) {
      binaries.put(BIN + ControllerManagerBinary.NAME, realPath(controllerManager));
    }
    Map<String, Path> files = new LinkedHashMap<>();
    for (Path binary : binaries.values()) {
      for (String library : sharedLibraries(binary)) {
        files.putIfAbsent(library, realPath(Path.of(library)));
      }
    }
    files.putAll(binaries);
    return files;
  }

  /**
   * The Dockerfile for {@code files}, whose build-context names are {@code f0}, {@code f1}, ... in
   * iteration order.
   *
   * @param files path inside the image to file on this machine
   * @param assets the folder the binaries came from, recorded as a label
   * @return the Dockerfile text
   */
  public static String dockerfile(Map<String, Path> files, Path assets) {
    StringBuilder text = new StringBuilder("FROM scratch\n");
    int index = 0;
    for (String target : files.keySet()) {
      text.append("COPY f").append(index++).append(' ').append(target).append('\n');
    }
    text.append("LABEL dev.ctk.envtest.assets=\"")
        .append(assets.toString().replace("\\", "\\\\").replace("\"", "\\\""))
        .append("\"\n");
    return text.toString();
  }

  /**
   * The shared libraries {@code ldd} lists for {@code binary} (the dynamic loader included), or
   * none for a static binary or when {@code ldd} is not available.
   *
   * @param binary an executable
   * @return absolute library paths as {@code ldd} prints them
   * @throws EnvtestException if {@code ldd} says a library is not found
   */
  public static List<String> sharedLibraries(Path binary) {
    String output;
    Path outputFile = null;
    Process ldd = null;
    try {
      outputFile = Files.createTempFile("ctk-ldd-", ".txt");
      ldd =
          new ProcessBuilder("ldd", binary.toString())
              .redirectErrorStream(true)
              .redirectOutput(outputFile.toFile())
              .start();
      if (!ldd.waitFor(LDD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new EnvtestException(
            "ldd "
                + binary
                + " did not finish within "
                + LDD_TIMEOUT_SECONDS
                + "s (it was killed), so the libraries the binary needs in the local image are"
                + " unknown. Check that `ldd "
                + binary
                + "` works on this machine, or use statically linked binaries.");
      }
      output = new String(Files.readAllBytes(outputFile), StandardCharsets.UTF_8);
    } catch (IOException e) {
      LOG.warn(
          "ldd is not available ({}): taking {} as a static binary. If its container fails with"
              + " \"no such file or directory\", install ldd (Debian: libc-bin).",
          e.getMessage(),
          binary);
      return List.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EnvtestException("Interrupted while running ldd " + binary + ".", e);
    } finally {
      if (ldd != null && ldd.isAlive()) {
        ldd.destroyForcibly();
      }
      deleteQuietly(outputFile);
    }
    return parseLdd(binary, output);
  }

  /**
   * Parses {@code ldd} output.
   *
   * @param binary the binary, for the message
   * @param output what {@code ldd} printed
   * @return absolute library paths
   * @throws EnvtestException if a library is not found
   */
  public static List<String> parseLdd(Path binary, String output) {
    List<String> libraries = new ArrayList<>();
    for (String line : output.lines().toList()) {
      Matcher missing = LDD_MISSING.matcher(line);
      if (missing.find()) {
        throw new EnvtestException(
            binary
                + " needs the shared library "
                + missing.group(1)
                + ", which ldd cannot find on this machine, so the local image cannot include it."
                + " Install the package that provides it, or use a statically linked binary.");
      }
      Matcher path = LDD_PATH.matcher(line);
      if (path.find()) {
        libraries.add(path.group(1));
      }
    }
    return libraries;
  }

  private static String tag(Path assets, Map<String, Path> files) {
    StringBuilder key = new StringBuilder();
    for (Map.Entry<String, Path> file : files.entrySet()) {
      try {
        key.append(file.getKey())
            .append('=')
            .append(file.getValue())
            .append(':')
            .append(Files.size(file.getValue()))
            .append(':')
            .append(Files.getLastModifiedTime(file.getValue()).toMillis())
            .append(';');
      } catch (IOException e) {
        throw unreadable(file.getValue(), e);
      }
    }
    return TAGS.computeIfAbsent(
        key.toString(), k -> REPOSITORY + ":" + version(assets) + "-" + hash(files));
  }

  private static String hash(Map<String, Path> files) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[1 << 16];
      for (Map.Entry<String, Path> file : files.entrySet()) {
        digest.update(file.getKey().getBytes(StandardCharsets.UTF_8));
        try (InputStream in = Files.newInputStream(file.getValue())) {
          int read;
          while ((read = in.read(buffer)) > 0) {
            digest.update(buffer, 0, read);
          }
        } catch (IOException e) {
          throw unreadable(file.getValue(), e);
        }
      }
      return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static String version(Path assets) {
    Path folder = assets.toAbsolutePath().normalize().getFileName();
    if (folder != null) {
      Matcher fromFolder = FOLDER_VERSION.matcher(folder.toString());
      if (fromFolder.find()) {
        return fromFolder.group(1);
      }
    }
    return VersionProbe.versionOf(assets.resolve("kube-apiserver"));
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.debug("could not delete {}", file, e);
    }
  }

  private static Path realPath(Path file) {
    try {
      return file.toRealPath();
    } catch (IOException e) {
      throw unreadable(file, e);
    }
  }

  private static EnvtestException unreadable(Path file, IOException e) {
    return new EnvtestException(
        "Could not read " + file + " for the local image: " + e + ". Check that it exists and is readable.",
        e);
  }

  private static String describeFolder(Path folder) {
    if (!Files.isDirectory(folder)) {
      return "does not exist";
    }
    try (Stream<Path> children = Files.list(folder)) {
      List<String> names = children.map(p -> p.getFileName().toString()).sorted().toList();
      return names.isEmpty() ? "is empty" : "has: " + String.join(", ", names);
    } catch (IOException e) {
      return "cannot be listed: " + e.getMessage();
    }
  }
}
