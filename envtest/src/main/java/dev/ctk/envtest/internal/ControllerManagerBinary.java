package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the {@code kube-controller-manager} that {@code withControllerManager()} starts: the one beside the
 * {@code kube-apiserver} in use, in the same version.
 *
 * <pre>{@code
 * Path binary = ControllerManagerBinary.beside(Path.of("/cache/k8s/1.37.2-linux-amd64/kube-apiserver"), "1.37.2");
 * }</pre>
 */
public final class ControllerManagerBinary {

  /** The binary's file name. */
  public static final String NAME = "kube-controller-manager";
  /** What {@code .ci/provision-envtest} writes beside the binaries when it could not build this one. */
  static final String UNAVAILABLE_NOTE = NAME + ".unavailable";

  private ControllerManagerBinary() {}

  /**
   * The binary beside {@code kubeApiServer}, checked to be executable and of the same version.
   *
   * @param kubeApiServer the kube-apiserver binary
   * @param version its version, e.g. {@code 1.37.2}
   * @return the kube-controller-manager binary
   * @throws EnvtestException when it is missing, not executable or of another version, with the fix
   */
  public static Path beside(Path kubeApiServer, String version) {
    Path folder = kubeApiServer.toAbsolutePath().getParent();
    Path binary = folder.resolve(NAME);
    if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
      throw new EnvtestException("withControllerManager(): no executable " + NAME + " beside kube-apiserver "
          + version + " in " + folder + why(folder) + ". setup-envtest's archives do not have it;"
          + " ctk's .ci/provision-envtest builds it where the Go module proxy serves every module it needs. Fix: put a "
          + NAME + " v" + version + " into " + folder + ", choose a version that has one (ctk.envtest.version),"
          + " or drop withControllerManager().");
    }
    String found = VersionProbe.versionOf(binary);
    if (!found.equals(version)) {
      throw new EnvtestException("withControllerManager(): " + binary + " is version " + found
          + ", but kube-apiserver beside it is " + version + ". Fix: put a " + NAME + " v" + version + " there.");
    }
    return binary;
  }

  private static String why(Path folder) {
    Path note = folder.resolve(UNAVAILABLE_NOTE);
    try {
      return Files.isRegularFile(note)
          ? " (" + UNAVAILABLE_NOTE + " there says why it was not built: " + Files.readString(note).strip() + ")"
          : "";
    } catch (IOException e) {
      return "";
    }
  }
}
