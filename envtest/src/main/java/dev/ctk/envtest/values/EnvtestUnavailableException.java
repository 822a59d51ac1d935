package dev.ctk.envtest.values;

/**
 * No real API server can be had on this machine as asked: the binaries were not found, Docker (or Testcontainers)
 * is not there, an image is neither on the machine nor pullable, no kubeconfig was found, or the cluster it names
 * does not answer. The JUnit extension skips real-mode tests with this message (unless {@code
 * ctk.require-envtest=true}); any other {@link EnvtestException} (a server found but failing to start, a start
 * timeout, a port taken, a bad flag) fails them instead, since skipping would hide it.
 *
 * <pre>{@code
 * try {
 *   server = LocalApiServer.builder().build().start();
 * } catch (EnvtestUnavailableException e) {
 *   // e.getMessage() lists the folders searched and how to install the binaries
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public class EnvtestUnavailableException extends EnvtestException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a message.
   *
   * @param message what was looked for, where, and how to provide it
   */
  public EnvtestUnavailableException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a message and a cause.
   *
   * @param message what was looked for, where, and how to provide it
   * @param cause the underlying failure
   */
  public EnvtestUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
