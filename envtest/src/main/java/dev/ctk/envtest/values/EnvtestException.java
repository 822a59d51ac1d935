package dev.ctk.envtest.values;

import dev.ctk.controller.CtkException;

/**
 * A real API server could not be found, started, reached or stopped, or a CRD could not be
 * installed. The message says what was tried, what happened (with the last lines of the server's
 * log when a process or container failed) and how to fix it.
 *
 * <pre>{@code
 * try {
 *   server = LocalApiServer.builder().withVersion("1.31").build().start();
 * } catch (EnvtestException e) {
 *   // e.getMessage() lists the folders searched and the versions found
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public class EnvtestException extends CtkException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a message.
   *
   * @param message what failed, the context and the fix
   */
  public EnvtestException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a message and a cause.
   *
   * @param message what failed, the context and the fix
   * @param cause the underlying failure
   */
  public EnvtestException(String message, Throwable cause) {
    super(message, cause);
  }
}
