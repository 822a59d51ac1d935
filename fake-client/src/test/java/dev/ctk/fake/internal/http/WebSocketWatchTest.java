package dev.ctk.fake.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.mockwebserver.vertx.VertxMockWebSocket;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A websocket watch closed by the fake closes its socket once, and not at all when the socket is already closing:
 * with the server's closing timeout at 0, a second close would end the connection before the first close frame.
 */
class WebSocketWatchTest {

  private final Vertx vertx = Vertx.vertx();
  private final Context context = vertx.getOrCreateContext();
  private final List<String> calls = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closing = new AtomicBoolean();

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aWatchClosedByTheFake_closesItsOpenSocketOnce() throws Exception {
    WebSocketWatch watch = opened();

    watch.sink().close();
    watch.sink().close();
    drained();

    assertThat(calls).containsExactly("close 1000");
  }

  @Test
  void aWatchClosedByTheFake_leavesASocketThatIsClosingAlready() throws Exception {
    WebSocketWatch watch = opened();
    closing.set(true);   // the client's close frame was answered, or the fake's close closed the connection first

    watch.sink().close();
    drained();

    assertThat(calls).isEmpty();
  }

  private WebSocketWatch opened() throws Exception {
    WebSocketWatch watch = new WebSocketWatch(vertx, context);
    watch.onOpen(new VertxMockWebSocket(null, recordingSocket()), null);
    drained();
    calls.clear();   // opening sets the write queue's size
    return watch;
  }

  /** Waits until the context has run what was queued on it so far. */
  private void drained() throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    context.runOnContext(v -> done.complete(null));
    done.get(10, TimeUnit.SECONDS);
  }

  /** A Vert.x socket that records close and knows whether it is closing. */
  private ServerWebSocket recordingSocket() {
    return (ServerWebSocket) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {ServerWebSocket.class}, (proxy, method, args) -> switch (method.getName()) {
          case "isClosed" -> closing.get();
          case "writeQueueFull" -> false;
          case "close" -> {
            calls.add("close" + (args == null ? "" : " " + args[0]));
            closing.set(true);
            yield Future.succeededFuture();
          }
          default -> {
            calls.add(method.getName());
            if (method.getReturnType() == Future.class) {
              yield Future.succeededFuture();
            }
            yield method.getReturnType().isInstance(proxy) ? proxy : null;
          }
        });
  }
}
