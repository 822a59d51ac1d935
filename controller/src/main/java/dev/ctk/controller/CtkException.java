package dev.ctk.controller;

/**
 * Root of every exception that ctk throws. Unchecked, so that controllers and tests do not have to
 * declare it.
 *
 * <pre>{@code
 * try {
 *   controller.start();
 * } catch (CtkException e) {
 *   // any ctk failure: e.getMessage() says what failed, the context and the fix
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public class CtkException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a message.
   *
   * @param message what failed, the context and the fix
   */
  public CtkException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a message and a cause.
   *
   * @param message what failed, the context and the fix
   * @param cause the underlying failure
   */
  public CtkException(String message, Throwable cause) {
    super(message, cause);
  }
}
