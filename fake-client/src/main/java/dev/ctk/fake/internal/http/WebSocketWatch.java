package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;

/**
 * A watch over a websocket (fabric8's default transport): each event is one text message
 * {@code {"type":..,"object":..}}.
 *
 * <p>The watch is registered with the store when the request is dispatched, before the upgrade is answered, so a
 * client that sees its websocket open is guaranteed to receive every later change (and every synthetic event).
 * Events that arrive before mockwebserver calls {@link #onOpen} are buffered. Everything runs on the connection's
 * event loop: the store lock is never held while writing, and each watch receives changes in commit order.
 */
final class WebSocketWatch extends WebSocketListener {

  private static final int NORMAL_CLOSURE = 1000;
  private static final long UPGRADE_TIMEOUT_MS = 30_000;

  private final Sink sink;
  private final Watch watch;

  WebSocketWatch(Vertx vertx, ObjectStore store, PreparedWatch prepared) {
    Context context = Vertx.currentContext() != null ? Vertx.currentContext() : vertx.getOrCreateContext();
    this.sink = new Sink(context);
    this.watch = WatchSessions.open(vertx, store, prepared, sink);
    vertx.setTimer(UPGRADE_TIMEOUT_MS, id -> context.runOnContext(v -> {
      if (sink.webSocket == null) {
        watch.close();
      }
    }));
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    sink.open(webSocket);
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    watch.close();
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    watch.close();
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable error, Response response) {
    watch.close();
  }

  /** Queues to the event loop; buffers until the socket is open. Its state is only touched on that event loop. */
  private static final class Sink implements WatchSink {
    private final Context context;
    private final List<String> pending = new ArrayList<>();
    private WebSocket webSocket;
    private boolean closeRequested;

    Sink(Context context) {
      this.context = context;
    }

    void open(WebSocket socket) {
      context.runOnContext(v -> {
        webSocket = socket;
        pending.forEach(socket::send);
        pending.clear();
        if (closeRequested) {
          socket.close(NORMAL_CLOSURE, "");
        }
      });
    }

    @Override
    public void send(String eventJson) {
      context.runOnContext(v -> {
        if (webSocket == null) {
          pending.add(eventJson);
        } else {
          webSocket.send(eventJson);
        }
      });
    }

    @Override
    public void close() {
      context.runOnContext(v -> {
        if (webSocket == null) {
          closeRequested = true;
        } else {
          webSocket.close(NORMAL_CLOSURE, "");
        }
      });
    }
  }
}
