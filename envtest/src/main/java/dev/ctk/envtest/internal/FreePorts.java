package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * TCP ports on {@code 127.0.0.1} for servers that ctk starts. A port picked here is free when
 * picked; another process may still take it before the server binds it (a small race that every
 * "free port" scheme has).
 *
 * <pre>{@code
 * int[] ports = FreePorts.pick(3);      // three different free ports
 * boolean free = FreePorts.isFree(6443);
 * }</pre>
 */
public final class FreePorts {

  private FreePorts() {}

  /**
   * Distinct free ports, all held open at once while picking so that none repeats.
   *
   * @param count how many
   * @return the ports
   * @throws EnvtestException when the machine gives none
   */
  public static int[] pick(int count) {
    List<ServerSocket> held = new ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket();
        held.add(socket);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new EnvtestException(
          "Could not find "
              + count
              + " free TCP ports on 127.0.0.1 for a local API server: "
              + e.getMessage()
              + ". Check that the loopback interface is up and that ports are not exhausted.",
          e);
    } finally {
      for (ServerSocket socket : held) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // closing a listening socket that we opened ourselves; nothing to do
        }
      }
    }
  }

  /**
   * Whether {@code port} can be bound on {@code 127.0.0.1} right now.
   *
   * @param port the port
   * @return whether it is free
   */
  public static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      // as Go's listeners do: a port in TIME_WAIT counts as free, a listening one does not
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
