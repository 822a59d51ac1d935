package dev.ctk.fake.internal.inprocess;

import io.fabric8.kubernetes.client.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A websocket watch without a socket: each event is one text message to fabric8's listener. As with fabric8's
 * Vert.x websocket, the first message flows without {@link #request()} (the initial demand is 1) and each
 * {@code request()} allows one more. A store-side close reaches the listener as {@code onClose(1000, "")}; the
 * client's {@link #sendClose} closes the store watch.
 */
final class InProcessWebSocket extends WatchQueue implements WebSocket {

  private static final int NORMAL_CLOSURE = 1000;

  private final WebSocket.Listener listener;

  InProcessWebSocket(WebSocket.Listener listener, WatchDelivery delivery) {
    super(delivery, 1);
    this.listener = listener;
  }

  @Override
  int batchLimit() {
    return 1;
  }

  @Override
  void deliver(List<String> events) {
    listener.onMessage(this, events.get(0));
  }

  @Override
  void deliverClose() {
    listener.onClose(this, NORMAL_CLOSURE, "");
  }

  @Override
  void deliverFailure(Exception failure) {
    listener.onError(this, failure);
  }

  /** Messages from the client are not read by a watch (kube ignores them too). */
  @Override
  public boolean send(ByteBuffer buffer) {
    return false;
  }

  @Override
  public boolean sendClose(int code, String reason) {
    clientGone();
    return true;
  }

  @Override
  public long queueSize() {
    return 0;
  }

  @Override
  public void request() {
    addDemand();
  }
}
