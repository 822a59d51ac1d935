package dev.ctk.fake.internal.http;

import java.net.BindException;
import java.util.Locale;

/**
 * The HTTP server could not listen: either the port is taken ({@link #addressInUse()}), or the host is not an
 * address this machine can listen on (it does not resolve, or it belongs to another machine).
 */
public final class ListenException extends Exception {

  private static final long serialVersionUID = 1L;

  private final String host;
  private final int port;
  private final boolean addressInUse;

  ListenException(String host, int port, Throwable cause) {
    super(describe(cause), cause);
    this.host = host;
    this.port = port;
    this.addressInUse = cause instanceof BindException && describe(cause).toLowerCase(Locale.ROOT)
        .contains("already in use");
  }

  /** The host the server tried to listen on. */
  public String host() {
    return host;
  }

  /** The port the server tried to listen on (0: any free port). */
  public int port() {
    return port;
  }

  /** Whether another socket holds the address ({@code EADDRINUSE}); otherwise the host itself is the problem. */
  public boolean addressInUse() {
    return addressInUse;
  }

  /** What went wrong, from the JDK or Netty, with the exception type when it has no message. */
  private static String describe(Throwable cause) {
    String message = cause.getMessage();
    return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message.strip();
  }
}
