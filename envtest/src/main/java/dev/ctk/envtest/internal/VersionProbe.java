package dev.ctk.envtest.internal;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code kube-apiserver --version} (at most 10 s) and reads the version from its output,
 * e.g. {@code Kubernetes v1.20.2} gives {@code 1.20.2}.
 *
 * <pre>{@code
 * String version = VersionProbe.versionOf(Path.of("/usr/local/bin/kube-apiserver")); // "1.20.2"
 * }</pre>
 */
public final class VersionProbe {

  /** What {@link #versionOf} returns when the binary names no version. */
  public static final String UNKNOWN = "unknown";

  private static final Logger LOG = LoggerFactory.getLogger(VersionProbe.class);
  private static final long TIMEOUT_SECONDS = 10;
  private static final int MAX_OUTPUT_BYTES = 4096;

  private VersionProbe() {}

  /**
   * The version a binary reports.
   *
   * @param binary an executable {@code kube-apiserver}
   * @return e.g. {@code 1.20.2}, or {@link #UNKNOWN} (the reason is logged at DEBUG)
   */
  public static String versionOf(Path binary) {
    Process process = null;
    Path output = null;
    try {
      output = Files.createTempFile("ctk-version-", ".txt");
      process =
          new ProcessBuilder(binary.toString(), "--version")
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        LOG.debug("{} --version did not end within {}s", binary, TIMEOUT_SECONDS);
        return UNKNOWN;
      }
      String text = firstBytes(output);
      return KubernetesVersion.find(text)
          .map(KubernetesVersion::toString)
          .orElseGet(
              () -> {
                LOG.debug("{} --version printed no vX.Y.Z: {}", binary, text.strip());
                return UNKNOWN;
              });
    } catch (IOException e) {
      LOG.debug("{} --version failed", binary, e);
      return UNKNOWN;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return UNKNOWN;
    } finally {
      if (process != null && process.isAlive()) {
        process.destroyForcibly();
      }
      if (output != null) {
        try {
          Files.deleteIfExists(output);
        } catch (IOException e) {
          LOG.debug("could not delete {}", output, e);
        }
      }
    }
  }

  private static String firstBytes(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(MAX_OUTPUT_BYTES), StandardCharsets.UTF_8);
    }
  }
}
