package dev.ctk.fake.internal.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.internal.http.WatchSessions;
import dev.ctk.fake.internal.watch.EventText;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When a watch queue asks for a delivery thread: only when it has something to hand over (and once at its start), so
 * that the demand fabric8 adds after every event wakes no thread when nothing waits; and an event not yet written is
 * written after the delivery thread is asked for, once, and counted against the queue's limit.
 */
class WatchQueueTest {

  /** Runs each task at once on the caller's thread and counts them; refuses once shut down. */
  private static final class InlineThreads extends AbstractExecutorService {
    int tasks;
    boolean shut;

    @Override
    public void execute(Runnable task) {
      if (shut) {
        throw new RejectedExecutionException("shut down");
      }
      tasks++;
      task.run();
    }

    @Override
    public void shutdown() {
      shut = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shut = true;
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return shut;
    }

    @Override
    public boolean isTerminated() {
      return shut;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }

  /** A queue with fabric8's initial demand of one that records what it hands over. */
  private static final class Recording extends WatchQueue {
    final List<String> delivered = new ArrayList<>();
    final List<Exception> failures = new ArrayList<>();
    boolean failuresExpected;
    int closes;

    Recording(WatchDelivery delivery) {
      super(delivery, 1);
    }

    @Override
    int batchLimit() {
      return 1;
    }

    @Override
    void deliver(List<String> events) {
      delivered.addAll(events);
    }

    @Override
    void deliverClose() {
      closes++;
    }

    @Override
    void deliverFailure(Exception failure) {
      if (!failuresExpected) {
        throw new AssertionError("the recording client does not fail", failure);
      }
      failures.add(failure);
    }
  }

  private final InlineThreads threads = new InlineThreads();
  private final WatchDelivery delivery = new WatchDelivery(threads);

  /** A started queue that has handed over {@code e1}, using up fabric8's initial demand. */
  private Recording startedWithItsDemandUsedUp() {
    Recording queue = new Recording(delivery);
    queue.start(null);
    queue.send("e1");
    return queue;
  }

  @Test
  void demandAddedWithNothingQueued_asksForNoThread() {
    Recording queue = new Recording(delivery);
    queue.start(null);
    queue.send("e1");
    assertThat(queue.delivered).containsExactly("e1");
    assertThat(threads.tasks).as("a drain at start, one for e1").isEqualTo(2);

    queue.addDemand();   // fabric8 asks for the next event after handling e1: nothing waits

    assertThat(threads.tasks).as("no drain for a demand with nothing queued").isEqualTo(2);
    queue.send("e2");
    assertThat(queue.delivered).containsExactly("e1", "e2");
    assertThat(threads.tasks).isEqualTo(3);
  }

  @Test
  void eventsQueuedWithoutDemand_waitForIt_andTheCloseComesAfterThem() {
    Recording queue = new Recording(delivery);
    queue.start(null);
    queue.send("e1");
    queue.send("e2");
    queue.close();
    assertThat(queue.delivered).as("e2 waits for demand").containsExactly("e1");
    assertThat(queue.closes).isZero();
    int before = threads.tasks;

    queue.addDemand();

    assertThat(queue.delivered).containsExactly("e1", "e2");
    assertThat(queue.closes).isEqualTo(1);
    assertThat(threads.tasks - before).as("one drain hands over e2 and then the close").isEqualTo(1);
  }

  @Test
  void aCloseWithNothingQueued_isHandedOverWithoutDemand() {
    Recording queue = startedWithItsDemandUsedUp();
    int before = threads.tasks;

    queue.close();

    assertThat(queue.delivered).containsExactly("e1");
    assertThat(queue.closes).isEqualTo(1);
    assertThat(threads.tasks - before).as("one drain hands over the close").isEqualTo(1);
  }

  @Test
  void aQueueStartedAfterTheClusterClosed_deliversItsCloseOnTheStartingThread() {
    delivery.close();
    Recording queue = new Recording(delivery);

    queue.start(null);

    assertThat(queue.closes).isEqualTo(1);
    assertThat(queue.delivered).isEmpty();
  }

  @Test
  void anEventNotYetWritten_isWrittenAfterTheDeliveryThreadIsAskedFor() {
    Recording queue = new Recording(delivery);
    queue.start(null);
    int before = threads.tasks;
    List<Integer> drainsAskedWhenWritten = new ArrayList<>();

    queue.send(EventText.lazy(() -> {
      drainsAskedWhenWritten.add(threads.tasks - before);
      return "e1";
    }));

    assertThat(queue.delivered).containsExactly("e1");
    assertThat(drainsAskedWhenWritten).as("written once, with the drain for it already asked for").containsExactly(1);
  }

  @Test
  void anEventWaitingForDemand_isWrittenOnceOnTheWritersThread() {
    Recording queue = startedWithItsDemandUsedUp();
    List<String> writes = new ArrayList<>();

    queue.send(EventText.lazy(() -> {
      writes.add(Thread.currentThread().getName());
      return "e2";
    }));
    assertThat(writes).as("written by send, before any demand").containsExactly(Thread.currentThread().getName());
    queue.addDemand();

    assertThat(queue.delivered).containsExactly("e1", "e2");
    assertThat(writes).as("the drain reads what send wrote").hasSize(1);
  }

  @Test
  void anEventNotYetWritten_countsAgainstTheWriteQueueLimit_onceWritten() {
    Recording queue = startedWithItsDemandUsedUp();
    String tooLong = "x".repeat(WatchSessions.WRITE_QUEUE_BYTES + 1);

    queue.send(EventText.lazy(() -> tooLong));
    queue.send("e3");
    queue.addDemand();

    assertThat(queue.delivered).as("the client that did not read lost its queue: nothing after e1")
        .containsExactly("e1");
  }

  @Test
  void anEventTheDrainCannotWrite_endsTheWatchAsAFailedDelivery_andNothingIsQueuedAfterIt() {
    Recording queue = new Recording(delivery);
    queue.failuresExpected = true;
    queue.start(null);
    int[] asked = {0};

    queue.send(EventText.lazy(() -> {
      if (asked[0]++ == 0) {   // the drain asks first (the executor runs it inline): it fails there
        throw new IllegalStateException("cannot write the event");
      }
      return "e1";
    }));
    queue.send("e2");
    queue.addDemand();

    assertThat(queue.failures).extracting(Exception::getMessage).containsExactly("cannot write the event");
    assertThat(queue.delivered).as("nothing after the failure").isEmpty();
    assertThat(queue.closes).as("a failed stream is not also closed normally").isZero();
  }
}
