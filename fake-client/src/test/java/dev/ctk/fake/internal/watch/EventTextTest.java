package dev.ctk.fake.internal.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** An event's text is written once, by the first thread that asks; a second asker waits for it. */
class EventTextTest {

  @Test
  void aWrittenEvent_isItsText() {
    assertThat(EventText.of("{\"type\":\"ADDED\"}").text()).isEqualTo("{\"type\":\"ADDED\"}");
  }

  @Test
  void aLazyEvent_isWrittenOnce_whoeverAsks() throws Exception {
    AtomicInteger writes = new AtomicInteger();
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    EventText event = EventText.lazy(() -> {
      writes.incrementAndGet();
      writing.countDown();
      await(finish);
      return "e1";
    });

    CompletableFuture<String> writer = new CompletableFuture<>();
    CompletableFuture<String> reader = new CompletableFuture<>();
    new Thread(() -> writer.complete(event.text()), "writer").start();
    await(writing);
    Thread readerThread = new Thread(() -> reader.complete(event.text()), "reader");
    readerThread.start();
    // the reader is either waiting for the writer's text or, if it could write too, writing it
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (readerThread.getState() != Thread.State.BLOCKED && writes.get() < 2 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    boolean readerArrived = readerThread.getState() == Thread.State.BLOCKED || writes.get() == 2;
    finish.countDown();
    assertThat(readerArrived).as("the reader reached the text while the writer was writing it").isTrue();

    assertThat(writer.get(10, TimeUnit.SECONDS)).isEqualTo("e1");
    assertThat(reader.get(10, TimeUnit.SECONDS)).isEqualTo("e1");
    assertThat(writes).as("the reader that came while it was written waited for it").hasValue(1);
    assertThat(event.text()).isEqualTo("e1");
    assertThat(writes).hasValue(1);
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).as("latch released within 10 s").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
