package dev.ctk.benchmarks.floor;

import io.fabric8.kubernetes.client.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One websocket watch of an {@link EchoApiServer}: each event is one {@code onMessage} to fabric8's listener, called
 * on the thread of the create that caused it. The demand fabric8 signals with {@link #request()} is not counted: the
 * server never holds an event back.
 */
final class EchoWebSocket implements WebSocket {

  private static final int NORMAL_CLOSURE = 1000;

  private final WebSocket.Listener listener;
  private final EchoApiServer server;
  private final AtomicBoolean closed = new AtomicBoolean();

  EchoWebSocket(WebSocket.Listener listener, EchoApiServer server) {
    this.listener = listener;
    this.server = server;
  }

  /** Whether the watch was closed, by either side. */
  boolean isClosed() {
    return closed.get();
  }

  /** Hands one event to fabric8's listener, on this thread. */
  void send(String event) {
    if (!closed.get()) {
      listener.onMessage(this, event);
    }
  }

  /** The server closed: the listener gets the close a server would send, once. */
  void serverClosed() {
    if (closed.compareAndSet(false, true)) {
      listener.onClose(this, NORMAL_CLOSURE, "");
    }
  }

  /** Messages from the client are not read by a watch. */
  @Override
  public boolean send(ByteBuffer buffer) {
    return false;
  }

  /** The client closed the watch: no more events, and no close echoed back (fabric8 does not wait for one). */
  @Override
  public boolean sendClose(int code, String reason) {
    if (closed.compareAndSet(false, true)) {
      server.forget(this);
    }
    return true;
  }

  @Override
  public long queueSize() {
    return 0;
  }

  @Override
  public void request() {
    // demand is not counted: see the class comment
  }
}
