package dev.ctk.examples.network;

/**
 * The network backend could not do what was asked.
 *
 * @since 0.1.0
 */
public class NetworkBackendException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** @param message what failed */
  public NetworkBackendException(String message) {
    super(message);
  }
}
