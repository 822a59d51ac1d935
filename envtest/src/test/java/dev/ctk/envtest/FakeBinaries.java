package dev.ctk.envtest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Test support: shell scripts that stand in for kube-apiserver and etcd in a folder. Every fake
 * kube-apiserver answers {@code --version} with {@code Kubernetes v<version>}.
 */
public final class FakeBinaries {

  private FakeBinaries() {}

  /**
   * Writes an executable script.
   *
   * @param file the script's path
   * @param body shell commands after {@code #!/bin/sh}
   * @return {@code file}
   */
  public static Path script(Path file, String body) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, "#!/bin/sh\n" + body + "\n");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A fake kube-apiserver in {@code dir} that reports {@code version} and otherwise runs {@code
   * body}.
   */
  public static Path kubeApiServer(Path dir, String version, String body) {
    return script(
        dir.resolve("kube-apiserver"),
        "if [ \"$1\" = \"--version\" ]; then echo \"Kubernetes v" + version + "\"; exit 0; fi\n" + body);
  }

  /** A fake etcd in {@code dir} that runs {@code body}. */
  public static Path etcd(Path dir, String body) {
    return script(dir.resolve("etcd"), body);
  }

  /** A fake etcd in {@code dir} that serves {@code /health} (a small JVM, {@link FakeEtcdMain}). */
  public static Path healthyEtcd(Path dir) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return etcd(
        dir,
        "exec '"
            + java
            + "' -Xmx32m -XX:TieredStopAtLevel=1 -cp '"
            + System.getProperty("java.class.path")
            + "' "
            + FakeEtcdMain.class.getName()
            + " \"$@\"");
  }
}
