package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Several workers: keys are reconciled in parallel, but one key never by two workers at once. */
class ControllerWorkersTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private final StubInformer<ConfigMap> configMaps = new StubInformer<>(ConfigMap.class);
  private final CountDownLatch releaseAll = new CountDownLatch(1);
  private Controller controller;

  @AfterEach
  void closeController() {
    releaseAll.countDown();
    if (controller != null) {
      controller.close();
    }
  }

  @Test
  void a_key_added_while_in_flight_is_reconciled_once_more_afterwards_never_in_parallel() {
    ObjectKey key = ObjectKey.of("default", "k");
    CountDownLatch releaseFirst = new CountDownLatch(1);
    List<String> events = new CopyOnWriteArrayList<>();
    AtomicInteger calls = new AtomicInteger();
    controller = start(4, k -> {
      int call = calls.incrementAndGet();
      events.add("enter " + call);
      if (call == 1) {
        awaitLatch(releaseFirst);
      }
      events.add("exit " + call);
      return Result.done();
    });
    controller.workQueue().add(key);
    await("the first reconcile is in flight").atMost(WAIT)
        .until(() -> events.equals(List.of("enter 1")));

    controller.workQueue().add(key);

    WorkQueueStats whileInFlight = controller.workQueue().stats();
    assertThat(whileInFlight.inFlightKeys()).containsExactly("default/k");
    assertThat(whileInFlight.depth()).as("three idle workers, yet the key is not handed out")
        .isZero();
    assertThat(whileInFlight.queuedKeys()).isEmpty();
    assertThat(controller.reconcileLog()).isEmpty();
    releaseFirst.countDown();
    await("the second reconcile is done").atMost(WAIT)
        .until(() -> controller.reconcileLog().size() == 2
            && controller.workQueue().stats().isIdle());
    assertThat(events).containsExactly("enter 1", "exit 1", "enter 2", "exit 2");
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::summary)
        .containsExactly("#1 default/k SUCCESS", "#2 default/k SUCCESS");
  }

  @Test
  void four_workers_reconcile_different_keys_at_once_and_never_one_key_twice_at_once() {
    int keys = 40;
    int reAddsPerKey = 20;
    CountDownLatch allFourBusy = new CountDownLatch(4);
    AtomicBoolean barrierGaveUp = new AtomicBoolean();
    AtomicInteger active = new AtomicInteger();
    AtomicInteger maxActive = new AtomicInteger();
    AtomicInteger sameKeyOverlaps = new AtomicInteger();
    Map<ObjectKey, AtomicInteger> activePerKey = new ConcurrentHashMap<>();
    Map<ObjectKey, AtomicInteger> reAdds = new ConcurrentHashMap<>();
    Set<String> workers = ConcurrentHashMap.newKeySet();
    AtomicReference<Controller> self = new AtomicReference<>();
    controller = start(4, key -> {
      workers.add(Thread.currentThread().getName());
      maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
      AtomicInteger onThisKey = activePerKey.computeIfAbsent(key, k -> new AtomicInteger());
      if (onThisKey.incrementAndGet() > 1) {
        sameKeyOverlaps.incrementAndGet();
      }
      if (allFourBusy.getCount() > 0 && !barrierGaveUp.get()) {
        // the first four reconciles wait for each other: only four parallel workers get past
        allFourBusy.countDown();
        if (!allFourBusy.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
          barrierGaveUp.set(true);
        }
      }
      if (reAdds.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet()
          <= reAddsPerKey) {
        self.get().workQueue().add(key);
      }
      for (int i = 0; i < 20; i++) {
        Thread.yield();
      }
      onThisKey.decrementAndGet();
      active.decrementAndGet();
      return Result.done();
    });
    self.set(controller);

    for (int i = 0; i < keys; i++) {
      controller.workQueue().add(ObjectKey.of("default", "key-" + i));
    }

    // keys are re-added only inside reconciles, so once the queue is idle it stays idle
    await("the work queue drains").atMost(Duration.ofSeconds(30))
        .until(() -> controller.workQueue().stats().isIdle());
    assertThat(maxActive.get()).as("reconciles running at once (different keys)").isEqualTo(4);
    assertThat(sameKeyOverlaps.get()).as("times one key was reconciled by two workers at once")
        .isZero();
    assertThat(controller.stats().reconcilesPerKey()).hasSize(keys)
        .allSatisfy((key, count) -> assertThat(count).as("reconciles of %s", key)
            .isEqualTo(reAddsPerKey + 1));
    assertThat(workers).containsExactlyInAnyOrder("ctk-busy-worker-1", "ctk-busy-worker-2",
        "ctk-busy-worker-3", "ctk-busy-worker-4");
  }

  private Controller start(int workers, Reconciler reconciler) {
    configMaps.synced = true;
    return Controller.builder("busy")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .withWorkers(workers)
        .withReconcileLogLimit(100_000)
        .withReconciler(reconciler)
        .build()
        .start();
  }

  private void awaitLatch(CountDownLatch latch) throws InterruptedException {
    if (!latch.await(WAIT.toSeconds(), TimeUnit.SECONDS) && releaseAll.getCount() > 0) {
      throw new AssertionError("test latch not released within " + WAIT);
    }
  }
}
