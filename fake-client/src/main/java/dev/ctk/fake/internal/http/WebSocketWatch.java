package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchSink;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.fabric8.mockwebserver.vertx.VertxMockWebSocket;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * A watch over a websocket (fabric8's default transport): each event is one text message
 * {@code {"type":..,"object":..}}.
 *
 * <p>The watch is registered with the store by the {@link RequestPipeline} before the upgrade is answered, so a
 * client that sees its websocket open is guaranteed to receive every later change (and every synthetic event).
 * Events that arrive before mockwebserver calls {@link #onOpen} are buffered. Everything runs on the connection's
 * event loop, through {@link EventLoopWrites}: the store lock is never held while writing, each watch receives
 * changes in commit order, and the event of a write made by a request on the same event loop goes out before that
 * request's answer.
 */
final class WebSocketWatch extends WebSocketListener {

  private static final int NORMAL_CLOSURE = 1000;
  private static final long UPGRADE_TIMEOUT_MS = 30_000;

  private final Vertx vertx;
  private final Context context;
  private final Sink sink;
  private volatile Watch watch;
  /** The timer that closes the watch if the upgrade never completes; cancelled once it opens or closes. */
  private volatile long upgradeTimer = -1;

  WebSocketWatch(Vertx vertx, Context context) {
    this.vertx = vertx;
    this.context = context;
    this.sink = new Sink(context);
  }

  /** The sink the watch is opened with: it buffers until the socket opens. */
  WatchSink sink() {
    return sink;
  }

  /** The watch is registered; closes it if the upgrade does not complete within 30 seconds. */
  void attach(Watch opened) {
    this.watch = opened;
    sink.watch = opened;
    upgradeTimer = vertx.setTimer(UPGRADE_TIMEOUT_MS, id -> context.runOnContext(v -> {
      if (sink.webSocket == null) {
        opened.close();
      }
    }));
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    vertx.cancelTimer(upgradeTimer);   // the Vert.x instance is shared: leave nothing of this watch on it
    sink.open(webSocket);
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    closeWatch();
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    closeWatch();
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable error, Response response) {
    closeWatch();
  }

  private void closeWatch() {
    vertx.cancelTimer(upgradeTimer);
    Watch w = watch;
    if (w != null) {
      w.close();
    }
  }

  /**
   * Writes on the event loop ({@link EventLoopWrites}); buffers until the socket is open. Its state is only touched
   * on that event loop. Closes the watch when the client stops reading (the socket's write queue, or the buffer
   * before the socket opens, holds more than {@link WatchSessions#WRITE_QUEUE_BYTES}).
   */
  private static final class Sink implements WatchSink {
    private final EventLoopWrites writes;
    private final List<String> pending = new ArrayList<>();
    private long pendingChars;
    private WebSocket webSocket;
    private ServerWebSocket vertxSocket;
    private boolean closeRequested;
    private volatile Watch watch;

    Sink(Context context) {
      this.writes = new EventLoopWrites(context);
    }

    void open(WebSocket socket) {
      writes.run(() -> {
        webSocket = socket;
        vertxSocket = vertxSocketOf(socket);
        if (clientGone()) {
          return;
        }
        if (vertxSocket != null) {
          vertxSocket.setWriteQueueMaxSize(WatchSessions.WRITE_QUEUE_BYTES);
        }
        pending.forEach(socket::send);
        pending.clear();
        if (closeRequested) {
          socket.close(NORMAL_CLOSURE, "");
        }
      });
    }

    /**
     * Whether the client closed the socket before it was handed over (a per-test client closed right after its
     * informer started): the watch is closed and nothing is written, since Vert.x refuses any call on a closed
     * socket with "WebSocket is closed".
     */
    private boolean clientGone() {
      if (!closing()) {
        return false;
      }
      pending.clear();
      closeWatch();
      return true;
    }

    @Override
    public void send(String eventJson) {
      writes.run(() -> {
        if (webSocket == null) {
          pending.add(eventJson);
          pendingChars += eventJson.length();
          if (pendingChars > WatchSessions.WRITE_QUEUE_BYTES) {
            closeWatch();
          }
        } else if (!closeRequested && !clientGone()) {
          webSocket.send(eventJson);
          if (vertxSocket != null && vertxSocket.writeQueueFull()) {
            closeWatch();
          }
        }
      });
    }

    private void closeWatch() {
      Watch w = watch;
      if (w != null) {
        w.close();
      }
    }

    @Override
    public void close() {
      writes.run(() -> {
        closeRequested = true;
        if (webSocket != null && !closing()) {
          webSocket.close(NORMAL_CLOSURE, "");
        }
      });
    }

    /**
     * Whether the socket is closed or closing already (the client's close frame was answered, or the fake's close
     * closed the connection first): Vert.x then closes the connection once its close frame is written, and a second
     * close would close it at once, before that frame (the server's closing timeout is 0, {@link FakeHttpServer}).
     */
    private boolean closing() {
      return vertxSocket != null && vertxSocket.isClosed();
    }
  }

  /**
   * The Vert.x socket behind mockwebserver's {@link WebSocket}, whose write queue mockwebserver does not expose; read
   * from its field. {@code null} if mockwebserver changed: the watch then has no write limit (as before).
   */
  private static ServerWebSocket vertxSocketOf(WebSocket socket) {
    if (!(socket instanceof VertxMockWebSocket)) {
      return null;
    }
    try {
      Field field = VertxMockWebSocket.class.getDeclaredField("webSocket");
      field.setAccessible(true);
      return field.get(socket) instanceof ServerWebSocket vertx ? vertx : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
