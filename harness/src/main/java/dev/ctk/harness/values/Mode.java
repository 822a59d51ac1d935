package dev.ctk.harness.values;

/**
 * The API server a test runs against: chosen by {@code @ControllerTest(mode = ..)}, {@code ctk.mode} or {@code
 * CTK_MODE} with JUnit, or given to {@link dev.ctk.harness.TestScope.Builder#withMode(Mode)} without it.
 *
 * @since 0.1.0
 */
public enum Mode {
  /** Not set here: from {@code @AcrossModes}, enclosing annotations, configuration, environment. */
  DEFAULT("default"),
  /** ctk's embedded fake API server, a new one per test (or class). */
  FAKE("fake"),
  /** A real kube-apiserver and etcd from local binaries, one per JVM, a namespace per test. */
  ENVTEST("envtest"),
  /** A real kube-apiserver and etcd (or k3s) in Docker containers, one per JVM. */
  CONTAINER("container"),
  /** The cluster of a kubeconfig context, a namespace per test. */
  EXISTING_CLUSTER("existing_cluster");

  private final String configName;

  Mode(String configName) {
    this.configName = configName;
  }

  /**
   * The mode as written in {@code ctk.mode}, {@code CTK_MODE} and display names: {@code fake},
   * {@code envtest}, {@code container}, {@code existing_cluster}.
   *
   * @return the name
   */
  public String configName() {
    return configName;
  }

  /**
   * Whether this mode runs against a real kube-apiserver (every mode but {@link #FAKE} and {@link
   * #DEFAULT}).
   *
   * @return {@code true} for envtest, container and existing cluster
   */
  public boolean isReal() {
    return this != FAKE && this != DEFAULT;
  }
}
