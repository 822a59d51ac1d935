package dev.ctk.envtest.internal;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * What binary discovery reads from the machine: environment variables, the home folder, and the
 * operating system and architecture in Go's words ({@code linux}, {@code darwin}; {@code amd64},
 * {@code arm64}). Tests pass their own instead of mutating the real environment.
 *
 * <pre>{@code
 * HostEnvironment host = new HostEnvironment(java.util.Map.of("KUBEBUILDER_ASSETS", "/opt/k8s")::get,
 *     Path.of("/home/me"), "linux", "amd64");
 * }</pre>
 *
 * @param environment looks up an environment variable; returns {@code null} when it is unset
 * @param home the user's home folder
 * @param os the operating system as Go names it
 * @param arch the CPU architecture as Go names it
 */
public record HostEnvironment(
    Function<String, String> environment, Path home, String os, String arch) {

  /** Checks that no component is null. */
  public HostEnvironment {
    Objects.requireNonNull(environment, "environment");
    Objects.requireNonNull(home, "home");
    Objects.requireNonNull(os, "os");
    Objects.requireNonNull(arch, "arch");
  }

  /**
   * The machine this JVM runs on: {@link System#getenv(String)}, {@code user.home}, {@code
   * os.name} and {@code os.arch}.
   *
   * @return the current host
   */
  public static HostEnvironment current() {
    return new HostEnvironment(
        System::getenv,
        Path.of(System.getProperty("user.home")),
        goOs(System.getProperty("os.name")),
        goArch(System.getProperty("os.arch")));
  }

  /**
   * An environment variable, with an empty value treated as unset.
   *
   * @param name the variable's name
   * @return its value, or {@code null} when unset or empty
   */
  public String variable(String name) {
    String value = environment.apply(name);
    return value == null || value.isEmpty() ? null : value;
  }

  static String goOs(String osName) {
    String name = osName.toLowerCase(Locale.ROOT);
    if (name.startsWith("mac") || name.startsWith("darwin")) {
      return "darwin";
    }
    if (name.startsWith("windows")) {
      return "windows";
    }
    return name.replace(" ", "");
  }

  static String goArch(String osArch) {
    switch (osArch.toLowerCase(Locale.ROOT)) {
      case "x86_64":
      case "amd64":
        return "amd64";
      case "aarch64":
      case "arm64":
        return "arm64";
      default:
        return osArch.toLowerCase(Locale.ROOT);
    }
  }
}
