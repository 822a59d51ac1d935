package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What failing user code (reconciler, listeners, event handlers, predicates, rate limiter) does to a
 * controller, and closing a controller from odd threads. On a scripted informer (no API server).
 */
class ControllerFailuresTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final ObjectKey A = ObjectKey.of("default", "a");
  private static final ObjectKey B = ObjectKey.of("default", "b");

  private final StubInformer<ConfigMap> configMaps = new StubInformer<>(ConfigMap.class);
  private final List<Controller> controllers = new ArrayList<>();
  private final CountDownLatch releaseAll = new CountDownLatch(1);

  @AfterEach
  void closeControllers() {
    releaseAll.countDown();
    controllers.forEach(Controller::close);
  }

  @Test
  void an_error_thrown_by_onReconcileEnd_does_not_stop_the_worker() {
    Controller controller = start(builder("end")
        .addReconcileListener(new ReconcileListener() {
          @Override
          public void onReconcileEnd(ReconcileRecord record) {
            throw new AssertionError("listener bug in onReconcileEnd");
          }
        })
        .withReconciler(key -> Result.done()));

    controller.workQueue().add(A);
    awaitDone(controller, A);
    controller.workQueue().add(B);

    awaitDone(controller, B);
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::summary)
        .containsExactly("#1 default/a SUCCESS", "#2 default/b SUCCESS");
    assertThat(controller.isRunning()).isTrue();
  }

  @Test
  void an_error_thrown_by_onReconcileStart_does_not_skip_the_reconcile() {
    Controller controller = start(builder("start")
        .addReconcileListener(new ReconcileListener() {
          @Override
          public void onReconcileStart(ObjectKey key, String worker) {
            throw new AssertionError("listener bug in onReconcileStart");
          }
        })
        .withReconciler(key -> Result.done()));

    controller.workQueue().add(A);
    awaitDone(controller, A);
    controller.workQueue().add(B);

    awaitDone(controller, B);
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::summary)
        .containsExactly("#1 default/a SUCCESS", "#2 default/b SUCCESS");
  }

  @Test
  void an_assertion_error_of_the_reconciler_is_a_failure_retried_with_backoff() {
    AtomicInteger calls = new AtomicInteger();
    Controller controller = start(builder("asserting")
        .withRateLimiter(RateLimiter.exponential(Duration.ofMillis(1), Duration.ofMillis(1)))
        .withReconciler(key -> {
          if (calls.incrementAndGet() == 1) {
            throw new AssertionError("expected 1 replica but was 2");
          }
          return Result.done();
        }));

    controller.workQueue().add(A);

    await("the retry succeeds").atMost(WAIT).until(() -> controller.reconcileLog().size() == 2);
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::summary).containsExactly(
        "#1 default/a ERROR: java.lang.AssertionError: expected 1 replica but was 2",
        "#2 default/a SUCCESS (attempt 1)");
  }

  @Test
  void an_error_thrown_by_an_event_handler_or_a_predicate_drops_only_its_event() {
    Controller controller = start(Controller.builder("handlers")
        .watch(configMaps.informer(), EventHandlers.enqueueMapped(cm -> {
          if (cm.getMetadata().getName().equals("bad")) {
            throw new AssertionError("mapper bug");
          }
          return List.of(ObjectKey.of(cm));
        }), new EventPredicate<>() {
          @Override
          public boolean onUpdate(ConfigMap oldObject, ConfigMap newObject) {
            throw new AssertionError("predicate bug");
          }
        })
        .withReconciler(key -> Result.done()));

    assertThatCode(() -> {
      configMaps.handler().onAdd(configMap("bad"));
      configMaps.handler().onUpdate(configMap("a"), configMap("a"));
      configMaps.handler().onDelete(configMap("bad"), false);
    }).doesNotThrowAnyException();
    configMaps.handler().onAdd(configMap("b"));

    awaitDone(controller, B);
    assertThat(controller.stats().reconcilesPerKey()).containsOnlyKeys(B);
  }

  @Test
  void a_failing_rate_limiter_does_not_stop_the_worker() {
    Controller controller = start(builder("limited")
        .withRateLimiter(new RateLimiter<>() {
          @Override
          public Duration when(ObjectKey item) {
            throw new AssertionError("rate limiter bug");
          }

          @Override
          public void forget(ObjectKey item) {}

          @Override
          public int numRequeues(ObjectKey item) {
            return 0;
          }
        })
        .withReconciler(key -> key.equals(A) ? Result.requeue() : Result.done()));

    controller.workQueue().add(A);
    awaitDone(controller, A);
    controller.workQueue().add(B);

    awaitDone(controller, B);
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::summary)
        .containsExactly("#1 default/a REQUEUE", "#2 default/b SUCCESS");
    assertThat(controller.workQueue().stats().isIdle()).as("the requeue of a was lost").isTrue();
  }

  @Test
  void a_reconcile_that_leaves_the_interrupt_flag_set_does_not_stop_the_worker() {
    Controller controller = start(builder("interrupting")
        .withReconciler(key -> {
          Thread.currentThread().interrupt();
          return Result.done();
        }));

    controller.workQueue().add(A);
    awaitDone(controller, A);
    controller.workQueue().add(B);

    awaitDone(controller, B);
    assertThat(controller.isRunning()).isTrue();
  }

  @Test
  void a_virtual_machine_error_ends_its_worker_after_recording_the_key() {
    InternalError fatal = new InternalError("simulated JVM failure");
    Controller controller = start(builder("fatal")
        .withReconciler(key -> {
          throw fatal;
        }));
    assertThat(controller.workerError()).isEmpty();

    controller.workQueue().add(A);

    // the worker ends with an uncaught InternalError, on purpose: do not let Awaitility fail on it
    await("the worker thread ends").dontCatchUncaughtExceptions().atMost(WAIT)
        .until(() -> ctkThreads("fatal").isEmpty());
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::summary)
        .containsExactly("#1 default/a ERROR: java.lang.InternalError: simulated JVM failure");
    assertThat(controller.workQueue().stats().inFlightKeys()).isEmpty();
    assertThat(controller.isRunning()).as("a worker is gone").isFalse();
    assertThat(controller.workerError()).as("the error that ended it").containsSame(fatal);
    assertThat(controller.isClosed()).isFalse();
  }

  @Test
  void requeueAfter_zero_retries_with_the_rate_limiter_instead_of_spinning() {
    ManualTimeSource time = new ManualTimeSource();
    Controller controller = start(builder("zero")
        .withTimeSource(time)
        .withReconciler(key -> Result.requeueAfter(Duration.ZERO)));

    controller.workQueue().add(A);

    await("the key waits on its backoff").atMost(WAIT).until(() -> controller.reconcileLog().size()
        == 1 && controller.workQueue().stats().waitingKeys().equals(List.of("default/a")));
    assertThat(time.pendingDelays()).containsExactly(Duration.ofMillis(5));
    time.advance(Duration.ofMillis(5));
    await("the second reconcile backs off longer").atMost(WAIT)
        .until(() -> controller.reconcileLog().size() == 2
            && controller.workQueue().stats().waitingKeys().equals(List.of("default/a")));
    assertThat(time.pendingDelays()).containsExactly(Duration.ofMillis(10));
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::summary)
        .containsExactly("#1 default/a REQUEUE", "#2 default/a REQUEUE (attempt 1)");
  }

  @Test
  void close_inside_a_reconcile_does_not_wait_for_its_own_key() {
    AtomicReference<Controller> self = new AtomicReference<>();
    CompletableFuture<String> closed = new CompletableFuture<>();
    Controller controller = start(builder("self-closing")
        .withShutdownTimeout(Duration.ofMinutes(10))
        .withReconciler(key -> {
          self.get().close();
          closed.complete("close() returned on " + Thread.currentThread().getName());
          return Result.done();
        }));
    self.set(controller);

    controller.workQueue().add(A);

    await("close() inside the reconcile returns").atMost(WAIT).until(closed::isDone);
    assertThat(closed.join()).isEqualTo("close() returned on ctk-self-closing-worker-1");
    await("the worker ends once its reconcile returned").atMost(WAIT)
        .until(() -> ctkThreads("self-closing").isEmpty());
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::summary)
        .containsExactly("#1 default/a SUCCESS");
    assertThat(controller.isRunning()).isFalse();
    assertThat(controller.shutdownWarning()).isNull();
    assertThat(configMaps.stops).isEqualTo(1);
  }

  @Test
  void close_inside_a_reconcile_still_waits_for_the_other_keys_in_flight() {
    AtomicReference<Controller> self = new AtomicReference<>();
    CountDownLatch aStarted = new CountDownLatch(1);
    CountDownLatch releaseA = new CountDownLatch(1);
    CompletableFuture<Integer> recordsOfAWhenCloseReturned = new CompletableFuture<>();
    Controller controller = start(builder("two")
        .withWorkers(2)
        .withShutdownTimeout(Duration.ofMinutes(10))
        .withReconciler(key -> {
          if (key.equals(A)) {
            aStarted.countDown();
            awaitLatch(releaseA);
          } else {
            awaitLatch(aStarted);
            self.get().close();
            recordsOfAWhenCloseReturned.complete(self.get().reconcileLog(A).size());
          }
          return Result.done();
        }));
    self.set(controller);

    controller.workQueue().add(A);
    controller.workQueue().add(B);
    await("b's reconcile is inside close()").atMost(WAIT)
        .until(() -> !controller.isRunning()
            && controller.workQueue().stats().inFlightKeys().equals(List.of("default/a",
            "default/b")));
    releaseA.countDown();

    await("close() inside b's reconcile returns").atMost(WAIT)
        .until(recordsOfAWhenCloseReturned::isDone);
    assertThat(recordsOfAWhenCloseReturned.join())
        .as("close() returned only after a was reconciled").isEqualTo(1);
    await("no worker remains").atMost(WAIT).until(() -> ctkThreads("two").isEmpty());
  }

  @Test
  void a_second_close_returns_only_once_the_controller_is_closed() {
    // GIVEN a reconcile of a that blocks until released, and a first close() waiting for it
    CountDownLatch aStarted = new CountDownLatch(1);
    CountDownLatch releaseA = new CountDownLatch(1);
    Controller controller = start(builder("twice")
        .withShutdownTimeout(Duration.ofMinutes(10))
        .withReconciler(key -> {
          aStarted.countDown();
          awaitLatch(releaseA);
          return Result.done();
        }));
    controller.workQueue().add(A);
    awaitLatchUnchecked(aStarted);
    CompletableFuture<String> firstReturned = new CompletableFuture<>();
    Thread first = closer(controller, "test-first-closer", firstReturned);
    await("the first close() waits for default/a").atMost(WAIT)
        .until(() -> !controller.isRunning() && first.getState() == Thread.State.TIMED_WAITING);
    // WHEN a second close() comes while the first drains
    CompletableFuture<String> secondReturned = new CompletableFuture<>();
    Thread second = closer(controller, "test-second-closer", secondReturned);
    await("the second close() returned or waits").atMost(WAIT)
        .until(() -> secondReturned.isDone() || second.getState() == Thread.State.WAITING
            || second.getState() == Thread.State.TIMED_WAITING);
    releaseA.countDown();
    // THEN it returned only when the first had closed the controller: a reconciled, no worker left
    assertThat(secondReturned.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join())
        .isEqualTo("records of default/a: 1, in flight: [], worker threads: []");
    assertThat(firstReturned.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join())
        .isEqualTo("records of default/a: 1, in flight: [], worker threads: []");
  }

  @Test
  void close_inside_a_reconcile_while_another_thread_closes_does_not_wait_for_itself() {
    // GIVEN a reconcile of a that, once released, closes its own controller, while a first close() waits for it
    AtomicReference<Controller> self = new AtomicReference<>();
    CountDownLatch aStarted = new CountDownLatch(1);
    CountDownLatch releaseA = new CountDownLatch(1);
    CompletableFuture<String> innerReturned = new CompletableFuture<>();
    Controller controller = start(builder("inner")
        .withShutdownTimeout(Duration.ofMinutes(10))
        .withReconciler(key -> {
          aStarted.countDown();
          awaitLatch(releaseA);
          self.get().close();
          innerReturned.complete("close() returned on " + Thread.currentThread().getName());
          return Result.done();
        }));
    self.set(controller);
    controller.workQueue().add(A);
    awaitLatchUnchecked(aStarted);
    CompletableFuture<String> firstReturned = new CompletableFuture<>();
    Thread first = closer(controller, "test-first-closer", firstReturned);
    await("the first close() waits for default/a").atMost(WAIT)
        .until(() -> !controller.isRunning() && first.getState() == Thread.State.TIMED_WAITING);
    // WHEN the reconcile goes on into its own close()
    releaseA.countDown();
    // THEN that close() returns at once (waiting would wait for itself), and the first one after it
    assertThat(innerReturned.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join())
        .isEqualTo("close() returned on ctk-inner-worker-1");
    assertThat(firstReturned.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join())
        .isEqualTo("records of default/a: 1, in flight: [], worker threads: []");
  }

  @Test
  void an_interrupted_close_still_interrupts_and_joins_the_workers() {
    List<Throwable> seen = new CopyOnWriteArrayList<>();
    Controller controller = start(builder("intr")
        .withShutdownTimeout(Duration.ofMinutes(10))
        .withReconciler(key -> {
          try {
            new CountDownLatch(1).await();
          } catch (InterruptedException e) {
            seen.add(e);
            throw e;
          }
          return Result.done();
        }));
    controller.workQueue().add(A);
    await("the reconcile is in flight").atMost(WAIT)
        .until(() -> controller.workQueue().stats().inFlightKeys().equals(List.of("default/a")));
    CompletableFuture<Boolean> keptInterrupt = new CompletableFuture<>();
    Thread closer = new Thread(() -> {
      controller.close();
      keptInterrupt.complete(Thread.currentThread().isInterrupted());
    }, "test-closer");
    closer.setDaemon(true);
    closer.start();
    await("close() waits for the key in flight").atMost(WAIT)
        .until(() -> !controller.isRunning() && closer.getState() == Thread.State.TIMED_WAITING);

    closer.interrupt();

    await("close() returns").atMost(WAIT).until(keptInterrupt::isDone);
    assertThat(keptInterrupt.join()).as("the interrupt flag of the closing thread").isTrue();
    await("no worker of \"intr\" remains").atMost(WAIT).until(() -> ctkThreads("intr").isEmpty());
    assertThat(seen).hasSize(1);
    assertThat(controller.shutdownWarning()).isEqualTo("Controller \"intr\": close() was "
        + "interrupted but 1 key was still in flight: [default/a]; their workers were interrupted. "
        + "Fix: make the reconciler return sooner (and give up when interrupted), or raise "
        + "withShutdownTimeout(..) above the longest reconcile.");
  }

  @Test
  void a_reconcile_that_blocks_is_shown_running_with_how_long_it_ran_on_the_controllers_clock()
      throws InterruptedException {
    // GIVEN a reconcile of a that blocks until released, on a clock the test moves
    ManualTimeSource time = new ManualTimeSource();
    CountDownLatch aStarted = new CountDownLatch(1);
    CountDownLatch releaseA = new CountDownLatch(1);
    Controller controller = start(builder("slow")
        .withTimeSource(time)
        .withReconciler(key -> {
          aStarted.countDown();
          awaitLatch(releaseA);
          return Result.done();
        }));
    assertThat(controller.runningReconciles()).isEmpty();
    controller.workQueue().add(A);
    awaitLatch(aStarted);
    // WHEN 12.3 s pass
    time.advance(Duration.ofMillis(12_300));
    // THEN
    assertThat(controller.runningReconciles()).containsExactly(Map.entry(A, Duration.ofMillis(12_300)));
    // AND WHEN it returns
    releaseA.countDown();
    awaitDone(controller, A);
    // THEN nothing runs, and its record has the same start
    assertThat(controller.runningReconciles()).isEmpty();
    assertThat(controller.reconcileLog(A)).singleElement()
        .satisfies(r -> assertThat(r.duration()).isEqualTo(Duration.ofMillis(12_300)));
  }

  private Controller.Builder builder(String name) {
    return Controller.builder(name).watch(configMaps.informer(), EventHandlers.enqueueObject());
  }

  private Controller start(Controller.Builder builder) {
    configMaps.synced = true;
    Controller controller = builder.build();
    controllers.add(controller);
    return controller.start();
  }

  /** Waits until key was reconciled and is no longer in flight (its record then exists). */
  private static void awaitDone(Controller controller, ObjectKey key) {
    await(key + " is reconciled and done").atMost(WAIT)
        .until(() -> controller.stats().lastReconcilePerKey().containsKey(key)
            && !controller.workQueue().stats().inFlightKeys().contains(key.toString()));
  }

  private void awaitLatch(CountDownLatch latch) throws InterruptedException {
    if (!latch.await(WAIT.toSeconds(), TimeUnit.SECONDS) && releaseAll.getCount() > 0) {
      throw new AssertionError("test latch not released within " + WAIT);
    }
  }

  private void awaitLatchUnchecked(CountDownLatch latch) {
    try {
      awaitLatch(latch);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * Starts a daemon thread that closes {@code controller} and then completes {@code returned} with what it saw as
   * close() returned: the records of a, the keys in flight, and the controller's live worker threads.
   */
  private static Thread closer(Controller controller, String name, CompletableFuture<String> returned) {
    Thread thread = new Thread(() -> {
      controller.close();
      returned.complete("records of default/a: " + controller.reconcileLog(A).size() + ", in flight: "
          + controller.workQueue().stats().inFlightKeys() + ", worker threads: "
          + ctkThreads(controller.name()));
    }, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private static List<String> ctkThreads(String controllerName) {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
        .map(Thread::getName).filter(name -> name.startsWith("ctk-" + controllerName + "-"))
        .toList();
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withNamespace("default").withName(name)
        .endMetadata().build();
  }
}
