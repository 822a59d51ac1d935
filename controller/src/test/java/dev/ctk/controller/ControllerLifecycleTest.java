package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Start, stop and misuse of a controller, on scripted informers (no API server). */
class ControllerLifecycleTest {

  private final StubInformer<ConfigMap> configMaps = new StubInformer<>(ConfigMap.class);
  private final StubInformer<Secret> secrets = new StubInformer<>(Secret.class);
  private final List<Controller> controllers = new ArrayList<>();

  @AfterEach
  void closeControllers() {
    controllers.forEach(Controller::close);
  }

  @Test
  void start_fails_with_every_informer_listed_when_caches_do_not_sync_in_time() {
    secrets.synced = true;
    Controller controller = track(Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .watch(secrets.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .withCacheSyncTimeout(Duration.ofMillis(200))
        .build());

    assertThatThrownBy(controller::start)
        .isInstanceOf(CacheSyncTimeoutException.class)
        .hasMessage("""
            Controller "cm" could not start: informer caches did not sync within 200ms.
              ConfigMap informer: not synced
              Secret informer: synced
            Fix: check that the API server is reachable and that the controller may list and \
            watch these kinds, or raise withCacheSyncTimeout(..).""");
    assertThat(controller.isRunning()).isFalse();
    assertThat(configMaps.stops).as("the informer the controller started is stopped").isEqualTo(1);
    assertThat(configMaps.removed).as("its event handler is removed").isEqualTo(configMaps.added);
  }

  @Test
  void start_fails_at_once_when_an_informer_it_started_fails_to_start() {
    configMaps.startFuture.completeExceptionally(
        new IOException("connection refused\nsecond line of detail"));
    Controller controller = track(Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .withCacheSyncTimeout(Duration.ofMinutes(10))
        .build());

    assertThatThrownBy(controller::start)
        .isInstanceOf(CacheSyncTimeoutException.class)
        .hasMessage("""
            Controller "cm" could not start: informer caches did not sync, because an informer \
            failed to start.
              ConfigMap informer: failed to start: IOException: connection refused ...
            Fix: check that the API server is reachable and that the controller may list and \
            watch these kinds, or raise withCacheSyncTimeout(..).""")
        .hasCauseInstanceOf(IOException.class);
  }

  @Test
  void start_fails_with_the_first_failure_as_cause_and_every_other_suppressed() {
    IOException refused = new IOException("connection refused");
    IllegalStateException forbidden = new IllegalStateException("secrets are forbidden\nfor this user");
    configMaps.startFuture.completeExceptionally(refused);
    secrets.startFuture.completeExceptionally(forbidden);
    Controller controller = track(Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .watch(secrets.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .withCacheSyncTimeout(Duration.ofMinutes(10))
        .build());

    assertThatThrownBy(controller::start)
        .isInstanceOf(CacheSyncTimeoutException.class)
        .hasMessage("""
            Controller "cm" could not start: informer caches did not sync, because an informer \
            failed to start.
              ConfigMap informer: failed to start: IOException: connection refused
              Secret informer: failed to start: IllegalStateException: secrets are forbidden ...
            Fix: check that the API server is reachable and that the controller may list and \
            watch these kinds, or raise withCacheSyncTimeout(..).""")
        .hasCause(refused)
        .satisfies(e -> assertThat(e.getSuppressed()).containsExactly(forbidden));
  }

  @Test
  void start_starts_and_owns_only_informers_that_are_not_running() {
    configMaps.synced = true;
    secrets.synced = true;
    secrets.running = true;
    Controller controller = track(Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .watch(secrets.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .build());

    controller.start();

    assertThat(controller.isRunning()).isTrue();
    assertThat(controller.hasSynced()).isTrue();
    assertThat(configMaps.starts).isEqualTo(1);
    assertThat(secrets.starts).isZero();
    assertThat(controller.informers())
        .containsExactly(configMaps.informer(), secrets.informer());

    controller.close();

    assertThat(configMaps.stops).as("started by the controller, so stopped by it").isEqualTo(1);
    assertThat(secrets.stops).as("started by someone else, so left running").isZero();
    assertThat(configMaps.added).hasSize(1);
    assertThat(configMaps.removed).isEqualTo(configMaps.added);
    assertThat(secrets.removed).hasSize(1).isEqualTo(secrets.added);
    assertThat(controller.isRunning()).isFalse();
  }

  @Test
  void a_controller_starts_once() {
    configMaps.synced = true;
    Controller controller = track(Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .build()
        .start());

    assertThatThrownBy(controller::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Controller \"cm\" was already started; a controller starts once. Build a new "
            + "one with Controller.builder(\"cm\") to run it again.");
  }

  @Test
  void a_closed_controller_cannot_start() {
    Controller controller = track(Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .build());
    controller.close();

    assertThatThrownBy(controller::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Controller \"cm\" was already closed; a controller starts once. Build a new "
            + "one with Controller.builder(\"cm\") to run it again.");
    assertThat(configMaps.starts).isZero();
  }

  @Test
  void close_is_idempotent() {
    configMaps.synced = true;
    Controller controller = track(Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .build()
        .start());

    assertThat(controller.isClosed()).isFalse();
    controller.close();
    controller.close();

    assertThat(controller.isClosed()).isTrue();
    assertThat(configMaps.stops).isEqualTo(1);
    assertThat(configMaps.removed).hasSize(1);
    assertThat(controller.workQueue().isShuttingDown()).isTrue();
  }

  @Test
  void close_interrupts_a_reconcile_that_outlives_the_shutdown_timeout() {
    configMaps.synced = true;
    List<Throwable> seen = new CopyOnWriteArrayList<>();
    Controller controller = track(Controller.builder("stuck")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> {
          try {
            new CountDownLatch(1).await();
          } catch (InterruptedException e) {
            seen.add(e);
            throw e;
          }
          return Result.done();
        })
        .withShutdownTimeout(Duration.ofMillis(50))
        .build()
        .start());
    controller.workQueue().add(ObjectKey.of("default", "stuck"));
    await("the reconcile is in flight").atMost(Duration.ofSeconds(5))
        .until(() -> !controller.workQueue().stats().inFlightKeys().isEmpty());

    controller.close();

    await("the interrupted reconcile is recorded").atMost(Duration.ofSeconds(5))
        .until(() -> seen.size() == 1 && controller.reconcileLog().size() == 1);
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::outcome)
        .containsExactly(ReconcileOutcome.ERROR);
    await("no worker thread of \"stuck\" remains").atMost(Duration.ofSeconds(5))
        .until(() -> Thread.getAllStackTraces().keySet().stream()
            .noneMatch(t -> t.getName().startsWith("ctk-stuck-")));
    assertThat(controller.shutdownWarning()).isEqualTo("Controller \"stuck\": close() waited 50ms "
        + "(the shutdown timeout) but 1 key was still in flight: [default/stuck]; their workers were "
        + "interrupted. Fix: make the reconciler return sooner (and give up when interrupted), or "
        + "raise withShutdownTimeout(..) above the longest reconcile.");
  }

  @Test
  void a_failure_while_adding_an_event_handler_removes_the_handlers_already_added() {
    secrets.addEventHandlerFailure = new IllegalStateException("informer is closed");
    Controller controller = track(Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .watch(secrets.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .build());

    assertThatThrownBy(controller::start)
        .isInstanceOf(CtkException.class)
        .hasCause(secrets.addEventHandlerFailure)
        .hasMessage("Controller \"cm\" could not start: adding its event handler to the Secret "
            + "informer failed: java.lang.IllegalStateException: informer is closed. The controller "
            + "was closed. Fix: pass a fabric8 SharedIndexInformer that accepts event handlers (e.g. "
            + "from client.resources(..).inform() or runnableInformer(..)).");
    assertThat(configMaps.added).hasSize(1);
    assertThat(configMaps.removed).as("the handler added before the failure is removed")
        .isEqualTo(configMaps.added);
    assertThat(configMaps.starts + secrets.starts).as("no informer is started").isZero();
    assertThat(controller.isRunning()).isFalse();
    assertThat(controller.workQueue().isShuttingDown()).isTrue();
  }

  @Test
  void an_informer_whose_start_throws_fails_start_and_the_informers_started_before_are_stopped() {
    secrets.startThrows = new IllegalStateException("Cannot restart a stopped informer");
    Controller controller = track(Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .watch(secrets.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .build());

    assertThatThrownBy(controller::start)
        .isInstanceOf(CtkException.class)
        .hasCause(secrets.startThrows)
        .hasMessage("Controller \"cm\" could not start its Secret informer: Cannot restart a "
            + "stopped informer. The controller was closed. Fix: pass an informer that is running or "
            + "was never started (a stopped informer cannot be restarted).");
    assertThat(configMaps.starts).isEqualTo(1);
    assertThat(configMaps.stops).as("started by the controller, so stopped by it").isEqualTo(1);
    assertThat(secrets.stops).as("never started").isZero();
    assertThat(configMaps.removed).isEqualTo(configMaps.added);
    assertThat(secrets.removed).hasSize(1).isEqualTo(secrets.added);
  }

  @Test
  void an_informer_whose_start_throws_an_error_is_cleaned_up_and_the_error_is_rethrown() {
    AssertionError failure = new AssertionError("stub informer refuses to start");
    secrets.startThrows = failure;
    Controller controller = track(Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .watch(secrets.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .build());

    assertThatThrownBy(controller::start).isSameAs(failure);
    assertThat(configMaps.stops).isEqualTo(1);
    assertThat(configMaps.removed).hasSize(1).isEqualTo(configMaps.added);
    assertThat(secrets.removed).hasSize(1).isEqualTo(secrets.added);
    assertThat(controller.isRunning()).isFalse();
  }

  @Test
  void close_during_the_cache_sync_wait_ends_start_and_cleans_up() {
    Controller controller = track(Controller.builder("syncing")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .withCacheSyncTimeout(Duration.ofMinutes(10))
        .build());
    CompletableFuture<Throwable> startFailure = new CompletableFuture<>();
    Thread starter = new Thread(() -> {
      try {
        controller.start();
        startFailure.complete(null);
      } catch (Throwable e) {
        startFailure.complete(e);
      }
    }, "test-starter");
    starter.setDaemon(true);
    starter.start();
    await("start() waits for the cache").atMost(Duration.ofSeconds(5))
        .until(() -> configMaps.starts == 1 && starter.getState() == Thread.State.TIMED_WAITING);

    controller.close();

    await("start() returns").atMost(Duration.ofSeconds(5)).until(startFailure::isDone);
    assertThat(startFailure.join()).isInstanceOf(CtkException.class)
        .hasMessage("Controller \"syncing\" could not start: it was closed while waiting for "
            + "informer caches to sync.");
    assertThat(controller.isRunning()).isFalse();
    assertThat(configMaps.stops).isEqualTo(1);
    assertThat(configMaps.removed).hasSize(1).isEqualTo(configMaps.added);
    assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
        .noneMatch(name -> name.startsWith("ctk-syncing-"));
  }

  @Test
  void build_needs_an_informer() {
    assertThatThrownBy(() -> Controller.builder("cm").withReconciler(key -> Result.done()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Controller \"cm\" cannot be built: no informer to watch. Call watch(informer, "
            + "EventHandlers.enqueueObject()) at least once before build().");
  }

  @Test
  void build_needs_a_reconciler() {
    assertThatThrownBy(() -> Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Controller \"cm\" cannot be built: no reconciler. Call withReconciler(key -> "
            + "...) before build().");
  }

  @Test
  void build_needs_a_worker() {
    assertThatThrownBy(() -> Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .withWorkers(0)
        .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Controller \"cm\" cannot be built: withWorkers(0): a controller needs at least "
            + "1 worker.");
  }

  @Test
  void a_builder_builds_once() {
    Controller.Builder builder = Controller.builder("cm")
        .watch(configMaps.informer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done());
    track(builder.build());

    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("This Controller.Builder already built controller \"cm\". Use a new "
            + "Controller.builder(..) for another controller.");
  }

  @Test
  void a_controller_needs_a_name() {
    assertThatThrownBy(() -> Controller.builder(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A controller name must not be blank: it names the work queue and the worker "
            + "threads. Use e.g. Controller.builder(\"nginx-service\").");
  }

  private Controller track(Controller controller) {
    controllers.add(controller);
    return controller;
  }
}
