package dev.ctk.fake.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Optional;
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
    Throwable thrown = handledOnLoop(writes -> {
      writes.run(() -> {
        throw new IllegalStateException("socket gone");
      });
      writes.run(() -> log.add("next event"));
    }, writes -> { });

    assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("socket gone");
    assertThat(log).containsExactly("next event");
  }

  @Test
  void aHandlerThatThrows_stillRunsItsWrites_thenRethrows() throws Exception {
    Throwable thrown = handledOnLoop(writes -> {
      writes.run(() -> log.add("event"));
      throw new IllegalArgumentException("bad request");
    }, writes -> {
      writes.run(() -> log.add("later write, queued"));
      log.add("handler returned");
    });

    assertThat(thrown).hasMessage("bad request");
    awaitLog(3);
    assertThat(log).containsExactly("event", "handler returned", "later write, queued");
  }

  @Test
  void aHandlerThatThrowsAnError_runsItsWrites_andLeavesNothingForTheNextRequest() throws Exception {
    Throwable thrown = handledOnLoop(writes -> {
      writes.run(() -> log.add("event"));
      throw new AssertionError("an admission hook's assertion");
    }, writes -> EventLoopWrites.handling(() -> log.add("next request")));

    assertThat(thrown).isInstanceOf(AssertionError.class).hasMessage("an admission hook's assertion");
    awaitLog(2);
    assertThat(log).containsExactly("event", "next request");
  }

  @Test
  void aWriteThatThrowsAnError_isNotRunAgain_byTheNextRequest() throws Exception {
    Throwable thrown = handledOnLoop(writes -> {
      writes.run(() -> log.add("first"));
      writes.run(() -> {
        throw new StackOverflowError("write failed");
      });
    }, writes -> EventLoopWrites.handling(() -> writes.run(() -> log.add("second"))));

    assertThat(thrown).isInstanceOf(StackOverflowError.class).hasMessage("write failed");
    awaitLog(2);
    assertThat(log).containsExactly("first", "second");
  }

  @Test
  void aWriteThatThrowsDuringRunKept_isThrownAfterTheAnswer() throws Exception {
    Throwable thrown = handledOnLoop(writes -> {
      writes.run(() -> {
        throw new IllegalStateException("socket gone");
      });
      EventLoopWrites.runKept();
      log.add("answer");
    }, writes -> { });

    assertThat(thrown).hasMessage("socket gone");
    assertThat(log).containsExactly("answer");
  }

  @Test
  void runKept_fromWithinAKeptWrite_runsNoWriteTwice() throws Exception {
    onLoop(writes -> EventLoopWrites.handling(() -> {
      writes.run(() -> {
        log.add("outer");
        EventLoopWrites.runKept();
      });
      writes.run(() -> log.add("next"));
      EventLoopWrites.runKept();
    }));

    awaitLog(2);
    assertThat(log).containsExactly("outer", "next");
  }

  /**
   * Handles {@code request} on the loop with writes made there, then runs {@code next} there.
   *
   * @return what handling the request threw, or null
   */
  private Throwable handledOnLoop(Consumer<EventLoopWrites> request, Consumer<EventLoopWrites> next)
      throws Exception {
    CompletableFuture<Optional<Throwable>> thrown = new CompletableFuture<>();
    onLoop(writes -> {
      Throwable failure = null;
      try {
        EventLoopWrites.handling(() -> request.accept(writes));
      } catch (RuntimeException | Error e) {
        failure = e;
      }
      next.accept(writes);
      thrown.complete(Optional.ofNullable(failure));
    });
    return thrown.get(10, TimeUnit.SECONDS).orElse(null);
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
