package dev.ctk.harness.values;

/**
 * A test's setup cannot be used as given: a malformed manifest, a setting out of range, a customizer that returned
 * {@code null}. The message says what, where it was given and how to fix it. Test-framework adapters report it as
 * their own configuration error (JUnit: {@code ExtensionConfigurationException}, with this as the cause).
 *
 * @since 0.1.0
 */
public class HarnessConfigurationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * A configuration error.
   *
   * @param message what is wrong, where, and the fix
   */
  public HarnessConfigurationException(String message) {
    super(message);
  }

  /**
   * A configuration error with its cause.
   *
   * @param message what is wrong, where, and the fix
   * @param cause what was thrown while reading the configuration
   */
  public HarnessConfigurationException(String message, Throwable cause) {
    super(message, cause);
  }
}
