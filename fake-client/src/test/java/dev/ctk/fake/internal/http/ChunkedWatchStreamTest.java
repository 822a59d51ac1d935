package dev.ctk.fake.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An HTTP-streaming watch writes its events only into its own stream: after its head, before its end. */
class ChunkedWatchStreamTest {

  private final Vertx vertx = Vertx.vertx();
  private final Context context = vertx.getOrCreateContext();
  private final List<String> written = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aWatchRefusedAfterItWasSentEvents_writesNoneBeforeItsErrorAnswer() throws Exception {
    HttpServerResponse response = recording();

    onLoop(() -> EventLoopWrites.handling(() -> {
      ChunkedWatchStream stream = new ChunkedWatchStream(context, response);
      stream.send("{\"type\":\"ADDED\"}");   // an initial event, then the watch is refused
      stream.close();
      EventLoopWrites.runKept();   // what VertxExchange.respond does before it writes the refusal
      response.end("refused");
    }));

    assertThat(written).containsExactly("end refused");
  }

  @Test
  void aStartedWatch_writesItsEventsAfterItsHead_andEndsOnClose() throws Exception {
    HttpServerResponse response = recording();

    onLoop(() -> EventLoopWrites.handling(() -> {
      ChunkedWatchStream stream = new ChunkedWatchStream(context, response);
      stream.send("{\"type\":\"ADDED\"}");   // sent while the watch registers, before its head
      stream.start(null);
      stream.close();
    }));

    assertThat(written).containsExactly("writeHead", "write {\"type\":\"ADDED\"}\n", "end");
  }

  private void onLoop(Runnable body) throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    context.runOnContext(v -> {
      try {
        body.run();
        done.complete(null);
      } catch (RuntimeException | Error e) {
        done.completeExceptionally(e);
      }
    });
    done.get(10, TimeUnit.SECONDS);
    CompletableFuture<Void> drained = new CompletableFuture<>();
    context.runOnContext(v -> drained.complete(null));   // and whatever was queued behind it
    drained.get(10, TimeUnit.SECONDS);
  }

  /** A response that records writeHead, write and end, and knows whether its head was written and it ended. */
  private HttpServerResponse recording() {
    boolean[] head = new boolean[1];
    boolean[] ended = new boolean[1];
    return (HttpServerResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {HttpServerResponse.class}, (proxy, method, args) -> switch (method.getName()) {
          case "headWritten" -> head[0];
          case "ended" -> ended[0];
          case "closed", "writeQueueFull" -> false;
          case "writeHead" -> {
            head[0] = true;
            written.add("writeHead");
            yield null;
          }
          case "write" -> {
            written.add("write " + args[0]);
            yield null;
          }
          case "end" -> {
            head[0] = true;
            ended[0] = true;
            written.add(args == null || args.length == 0 ? "end" : "end " + args[0]);
            yield null;
          }
          default -> method.getReturnType().isInstance(proxy) ? proxy : null;
        });
  }
}
