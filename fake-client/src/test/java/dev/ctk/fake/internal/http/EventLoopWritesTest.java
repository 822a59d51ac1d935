package dev.ctk.fake.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A watch's writes asked for by the request handled on its own event loop go out when the store lock is released,
 * not after the loop's queued tasks, and never overtake a write queued before them.
 */
class EventLoopWritesTest {

  private final Vertx vertx = Vertx.vertx();
  private final Context context = vertx.getOrCreateContext();
  private final List<String> log = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aWriteOfTheRequestHandledOnItsLoop_runsBeforeTheLoopsQueuedTasks() throws Exception {
    onLoop(writes -> {
      context.runOnContext(v -> log.add("task queued before the request"));
      EventLoopWrites.handling(() -> writes.run(() -> log.add("event")));
      log.add("handler returned");
    });

    awaitLog(3);
    assertThat(log).containsExactly("event", "handler returned", "task queued before the request");
  }

  @Test
  void runKept_runsTheWritesKeptSoFar_beforeTheAnswer_andTheRestWhenTheHandlerReturns() throws Exception {
    onLoop(writes -> EventLoopWrites.handling(() -> {
      writes.run(() -> log.add("event 1"));
      EventLoopWrites.runKept();
      log.add("answer");
      writes.run(() -> log.add("event 2"));
      log.add("handler ends");
    }));

    awaitLog(4);
    assertThat(log).containsExactly("event 1", "answer", "handler ends", "event 2");
  }

  @Test
  void aWriteQueuedEarlierFromAnotherThread_isNotOvertaken() throws Exception {
    CountDownLatch queuedFromOutside = new CountDownLatch(1);
    CompletableFuture<EventLoopWrites> made = new CompletableFuture<>();
    context.runOnContext(v -> {
      EventLoopWrites writes = new EventLoopWrites(context);
      made.complete(writes);
      await(queuedFromOutside);   // the loop is busy while the other thread's write is queued behind this task
      EventLoopWrites.handling(() -> writes.run(() -> log.add("event committed second, on the loop")));
    });
    made.get(10, TimeUnit.SECONDS).run(() -> log.add("event committed first, by another thread"));
    queuedFromOutside.countDown();

    awaitLog(2);
    assertThat(log).containsExactly("event committed first, by another thread", "event committed second, on the loop");
  }

  @Test
  void aWriteOutsideARequest_isQueued() throws Exception {
    onLoop(writes -> {
      writes.run(() -> log.add("event"));
      log.add("caller returned");
    });

    awaitLog(2);
    assertThat(log).containsExactly("caller returned", "event");
  }

  @Test
  void writesMadeOffTheLoop_areQueued_evenDuringARequestOnIt() throws Exception {
    EventLoopWrites writes = new EventLoopWrites(context);   // made on the test's thread: its loop is unknown
    context.runOnContext(v -> {
      EventLoopWrites.handling(() -> writes.run(() -> log.add("event")));
      log.add("handler returned");
    });

    awaitLog(2);
    assertThat(log).containsExactly("handler returned", "event");
  }

  @Test
  void aWriteThatThrows_isRethrownOnceTheOtherWritesRan() throws Exception {
    CompletableFuture<Throwable> thrown = new CompletableFuture<>();
    onLoop(writes -> {
      try {
        EventLoopWrites.handling(() -> {
          writes.run(() -> {
            throw new IllegalStateException("socket gone");
          });
          writes.run(() -> log.add("next event"));
        });
        thrown.complete(null);
      } catch (RuntimeException e) {
        thrown.complete(e);
      }
    });

    assertThat(thrown.get(10, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class).hasMessage("socket gone");
    assertThat(log).containsExactly("next event");
  }

  @Test
  void aHandlerThatThrows_stillRunsItsWrites_thenRethrows() throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    onLoop(writes -> {
      assertThatThrownBy(() -> EventLoopWrites.handling(() -> {
        writes.run(() -> log.add("event"));
        throw new IllegalArgumentException("bad request");
      })).hasMessage("bad request");
      writes.run(() -> log.add("later write, queued"));
      log.add("handler returned");
      done.complete(null);
    });

    done.get(10, TimeUnit.SECONDS);
    awaitLog(3);
    assertThat(log).containsExactly("event", "handler returned", "later write, queued");
  }

  /** Runs {@code body} on the context's event loop with writes made there, as a watch's sink makes them. */
  private void onLoop(Consumer<EventLoopWrites> body) {
    context.runOnContext(v -> body.accept(new EventLoopWrites(context)));
  }

  private void awaitLog(int entries) throws InterruptedException {
    CountDownLatch drained = new CountDownLatch(1);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (log.size() < entries && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    context.runOnContext(v -> drained.countDown());   // and nothing more is queued behind what was awaited
    assertThat(drained.await(10, TimeUnit.SECONDS)).isTrue();
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
