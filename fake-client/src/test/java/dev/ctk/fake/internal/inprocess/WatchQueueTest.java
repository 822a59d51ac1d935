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
import org.junit.jupiter.api.Timeout;

/**
 * When a watch queue asks for a delivery thread: only when it has something to hand over (and once at its start), so
 * that the demand fabric8 adds after every event wakes no thread when nothing waits; and an event not yet written is
 * written after the delivery thread is asked for, once, and counted against the queue's limit. A write that expects
 * an event asks for the thread before the event exists, within the cluster's limit, and loses nothing when no event
 * comes.
 */
class WatchQueueTest {

  /** Test threads: each task is given to {@link #take} unless shut down, then refused. */
  private abstract static class TestThreads extends AbstractExecutorService {
    boolean shut;

    abstract void take(Runnable task);

    @Override
    public final void execute(Runnable task) {
      if (shut) {
        throw new RejectedExecutionException("shut down");
      }
      take(task);
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

  /** Runs each task at once on the caller's thread and counts them. */
  private static final class InlineThreads extends TestThreads {
    int tasks;

    @Override
    void take(Runnable task) {
      tasks++;
      task.run();
    }
  }

  /** Keeps each task until {@link #runAll} runs it on the test's thread. */
  private static final class HeldThreads extends TestThreads {
    final List<Runnable> pending = new ArrayList<>();

    @Override
    void take(Runnable task) {
      pending.add(task);
    }

    void runAll() {
      while (!pending.isEmpty()) {
        pending.remove(0).run();
      }
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
  private final WatchDelivery delivery = new WatchDelivery(threads, 0, 0);

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

  /** A started queue on held threads, its start's drain run: it waits for its first event, with demand. */
  private final HeldThreads held = new HeldThreads();
  /** One drain may wait for an expected event, 20 s at most. */
  private final WatchDelivery waiting = new WatchDelivery(held, 1, TimeUnit.SECONDS.toNanos(20));

  private Recording startedOn(WatchDelivery on) {
    Recording queue = new Recording(on);
    queue.start(null);
    held.runAll();
    return queue;
  }

  @Test
  @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)   // a lost wake-up would spin 20 s
  void anExpectedEvent_isHandedOverByTheDrainAskedForBeforeIt() {
    Recording queue = startedOn(waiting);

    queue.expectEvent(1);
    assertThat(held.pending).as("a drain asked for before the event exists").hasSize(1);
    queue.send("e1");
    assertThat(held.pending).as("the event joins the drain under way: no second one").hasSize(1);
    held.runAll();   // the drain's wait ends when the event is queued, not after its 20 s

    assertThat(queue.delivered).containsExactly("e1");
  }

  @Test
  void aDrainWhoseEventNeverComes_endsAfterItsWait_andTheNextEventIsDeliveredAsUsual() {
    WatchDelivery delivery = new WatchDelivery(held, 1, TimeUnit.MILLISECONDS.toNanos(1));
    Recording queue = startedOn(delivery);

    queue.expectEvent(1);
    held.runAll();   // a refused write: no event within the wait
    queue.send("e1");
    assertThat(held.pending).as("the drain that waited ended: the event asks for a new one").hasSize(1);
    held.runAll();

    assertThat(queue.delivered).containsExactly("e1");
    assertThat(delivery.startWaiting()).as("the waiting drain gave its place back").isTrue();
  }

  @Test
  @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)   // a lost wake-up would spin 20 s
  void aCloseAskedForWhileTheDrainWaits_isDeliveredByThatDrain() {
    Recording queue = startedOn(waiting);

    queue.expectEvent(1);
    queue.close();
    assertThat(held.pending).hasSize(1);
    held.runAll();

    assertThat(queue.closes).isEqualTo(1);
  }

  @Test
  @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void onlyAsManyDrainsWaitAtOnceAsTheLimit_andNoneWithoutDemand() {
    Recording first = startedOn(waiting);
    Recording second = startedOn(waiting);

    first.expectEvent(1);
    second.expectEvent(1);
    assertThat(held.pending).as("one place: the second queue waits as before").hasSize(1);
    first.send("a");
    held.runAll();
    second.expectEvent(1);
    assertThat(held.pending).as("the place is free again").hasSize(1);
    second.send("b");
    held.runAll();
    first.expectEvent(1);

    assertThat(first.delivered).containsExactly("a");
    assertThat(second.delivered).containsExactly("b");
    assertThat(held.pending).as("the first queue's demand is used up: no drain ahead of an event it cannot take")
        .isEmpty();
  }

  @Test
  void aDrainRefusedOnAClosedCluster_givesItsPlaceBack_andTheCloseIsStillDelivered() {
    Recording queue = startedOn(waiting);
    held.shut = true;

    queue.expectEvent(1);
    assertThat(queue.closes).as("delivered at once on the writer's thread, as when a drain is refused")
        .isEqualTo(1);
    queue.close();

    assertThat(waiting.startWaiting()).isTrue();
    assertThat(queue.closes).as("once").isEqualTo(1);
  }

  @Test
  void aWriteToldToMoreWatchesThanMayWait_startsNoDrainAhead() {
    expectNoDrainAhead(startedOn(waiting), 2, "two watches, one place: neither waits");
  }

  /** Tells {@code queue} of a write to {@code watchesTold} watches: no drain may start before the event. */
  private void expectNoDrainAhead(Recording queue, int watchesTold, String why) {
    queue.expectEvent(watchesTold);
    assertThat(held.pending).as(why).isEmpty();
    queue.send("e1");
    held.runAll();

    assertThat(queue.delivered).containsExactly("e1");
  }

  @Test
  void theClustersOfOneJvm_shareThePlacesOfWaitingDrains_noneUnlessTheJvmOptsIn() {
    assertThat(System.getProperty(WatchDelivery.WAIT_AHEAD_PROPERTY)).as("this test JVM does not opt in").isNull();
    try (WatchDelivery first = new WatchDelivery("first"); WatchDelivery second = new WatchDelivery("second")) {
      assertThat(first.sharesWaitingDrainsWith(second)).isTrue();
      assertThat(first.waitersAtOnce()).isZero();
      assertThat(first.sharesWaitingDrainsWith(waiting)).as("a test's own count").isFalse();
    }
  }

  @Test
  void aJvmThatOptsIn_letsOneCoreFewerThanTheMachineHasWait_noneOnOneCore() {
    assertThat(WatchDelivery.waitersInThisJvm(true, 2)).isEqualTo(1);
    assertThat(WatchDelivery.waitersInThisJvm(true, 8)).isEqualTo(7);
    assertThat(WatchDelivery.waitersInThisJvm(true, 1)).isZero();
    assertThat(WatchDelivery.waitersInThisJvm(false, 8)).isZero();
  }

  @Test
  void withoutOptingIn_aWriteStartsNoDrainBeforeItsEvent_evenOnTwoCores() {
    WatchDelivery defaults = new WatchDelivery(held, WatchDelivery.waitersInThisJvm(false, 2),
        TimeUnit.SECONDS.toNanos(20));
    expectNoDrainAhead(startedOn(defaults), 1, "no place to wait in: no drain before the event");
  }
}
