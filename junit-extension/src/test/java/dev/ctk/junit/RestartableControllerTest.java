package dev.ctk.junit;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Result;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.RestartableController;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** {@code ControllerHarness.start(Supplier)}: a controller that can be crash-restarted, seen through one view. */
class RestartableControllerTest extends FakeHarnessFixture {

  @Test
  void should_drop_the_work_queue_and_the_cache_on_restart_and_rebuild_both_from_the_cluster() {
    // GIVEN instance 1 parks default/web in its queue for an hour; instance 2 does not
    AtomicInteger built = new AtomicInteger();
    RestartableController controller = harness.start(() -> {
      int instance = built.incrementAndGet();
      return configMapController(client, "syncer", instance == 1 ? Result.requeueAfter(ofHours(1)) : Result.done());
    });
    client.configMaps().resource(configMap("web")).create();
    assertThat(controller).within(ofSeconds(10)).hasReconciledSuccessfully("default/web");
    Controller first = controller.current();
    SharedIndexInformer<?> firstCache = first.informers().get(0);
    assertThat(controller.workQueue().stats().waitingKeys()).containsExactly("default/web");
    // WHEN
    controller.restart();
    // THEN a fresh instance, with a fresh cache listed from the cluster and an empty queue of its own
    assertThat(controller.instance()).isEqualTo(2);
    assertThat(built).hasValue(2);
    assertThat(controller.current()).isNotSameAs(first);
    assertThat(first.isRunning()).isFalse();
    assertThat(firstCache.isRunning()).isFalse();
    SharedIndexInformer<?> freshCache = controller.current().informers().get(0);
    assertThat(freshCache).isNotSameAs(firstCache);
    assertThat(freshCache.getStore().listKeys()).containsExactly("default/web");
    assertThat(controller).within(ofSeconds(10)).hasReconciledSuccessfully("default/web").isIdle();
    assertThat(controller.workQueue().stats().waitingKeys()).isEmpty();
    assertThat(controller.stats().reconcilesPerKey()).hasSize(1).containsValue(1L);
  }

  @Test
  void should_show_the_current_instance_in_the_view_and_in_the_harness() {
    // GIVEN
    RestartableController controller = harness.start(() -> configMapController(client, "syncer", Result.done()));
    Controller first = controller.current();
    assertThat(harness.controllers()).containsExactly(first);
    // WHEN
    controller.restart();
    client.configMaps().resource(configMap("api")).create();
    // THEN
    Controller second = controller.current();
    assertThat(controller).within(ofSeconds(10)).hasReconciledSuccessfully("default/api");
    assertThat(controller.name()).isEqualTo("syncer");
    assertThat(controller.isRunning()).isTrue();
    assertThat(controller.hasSynced()).isTrue();
    assertThat(controller.caches()).isEqualTo(second.caches());
    assertThat(controller.reconcileLog()).isEqualTo(second.reconcileLog());
    assertThat(controller.workQueue().name()).isEqualTo(second.workQueue().name());
    assertThat(first.reconcileLog()).noneMatch(r -> r.key().toString().equals("default/api"));
    assertThat(harness.controllers()).containsExactly(second);
    assertThat(harness.views()).containsExactly(second);
    assertThat(harness.restartables()).containsExactly(controller);
    assertThat(harness.restartableOf(second)).contains(controller);
    assertThat(harness.restartableOf(first)).isEmpty();
    assertThat(controller).hasToString("RestartableController \"syncer\" (instance 2)");
  }

  @Test
  void should_close_the_current_instance_when_the_harness_closes_and_refuse_later_restarts() {
    // GIVEN
    RestartableController controller = harness.start(() -> configMapController(client, "syncer", Result.done()));
    controller.restart();
    Controller second = controller.current();
    // WHEN
    harness.close();
    // THEN
    assertThat(second.isRunning()).isFalse();
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class, controller::restart);
    assertThat(error).hasMessage("Cannot restart controller \"syncer\": the test it belongs to is over and the "
        + "harness closed it (instance 2). Restart controllers only while their test runs.");
  }

  @Test
  void should_stop_quietly_when_the_test_ends_right_before_the_fresh_instance_starts() {
    // GIVEN
    RestartableController controller = harness.start(() -> configMapController(client, "syncer", Result.done()));
    List<Controller> fresh = new CopyOnWriteArrayList<>();
    // WHEN the harness closes between the build of instance 2 and its start
    boolean started = controller.restart(instance -> {
      fresh.add(instance.controller());
      harness.close();
    });
    // THEN
    assertThat(started).isFalse();
    assertThat(fresh).hasSize(1);
    assertThat(fresh.get(0).isRunning()).isFalse();
    assertThat(controller.current()).isSameAs(fresh.get(0));
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class, fresh.get(0)::start);
    assertThat(error).hasMessage("Controller \"syncer\" was already closed; a controller starts once. Build a new "
        + "one with Controller.builder(\"syncer\") to run it again.");
  }

  @Test
  void should_stop_quietly_when_the_test_ends_while_the_factory_builds_the_fresh_instance() {
    // GIVEN a factory that ends the test while it builds instance 2
    AtomicInteger built = new AtomicInteger();
    List<Controller> instances = new CopyOnWriteArrayList<>();
    RestartableController controller = harness.start(() -> {
      if (built.incrementAndGet() == 2) {
        harness.close();
      }
      Controller instance = configMapController(client, "syncer", Result.done());
      instances.add(instance);
      return instance;
    });
    // WHEN
    controller.restart();
    // THEN instance 2 was never started nor shown; both are closed
    assertThat(controller.instance()).isEqualTo(1);
    assertThat(instances).hasSize(2).noneMatch(Controller::isRunning);
    assertThat(harness.controllers()).containsExactly(instances.get(0));
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class, instances.get(1)::start);
    assertThat(error).hasMessage("Controller \"syncer\" was already closed; a controller starts once. Build a new "
        + "one with Controller.builder(\"syncer\") to run it again.");
  }

  @Test
  void should_keep_controllers_started_without_a_factory_as_they_were() {
    // WHEN
    Controller plain = harness.start(configMapController(client, "plain", Result.done()));
    // THEN
    assertThat(harness.controllers()).containsExactly(plain);
    assertThat(harness.views()).containsExactly(plain);
    assertThat(harness.restartables()).isEmpty();
    assertThat(harness.restartableOf(plain)).isEmpty();
  }

  @Test
  void should_fail_when_the_factory_returns_null() {
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        () -> harness.start((Supplier<Controller>) () -> null));
    // THEN
    assertThat(error).hasMessage("The controller factory given to ControllerHarness.start(Supplier) returned null "
        + "for instance 1. Fix: build a new Controller in the factory on each call, e.g. harness.start(() -> "
        + "MyController.create(client)), rather than returning one built outside it.");
    assertThat(harness.controllers()).isEmpty();
  }

  @Test
  void should_fail_to_restart_when_the_factory_returns_the_same_controller_again() {
    // GIVEN a factory that returns one controller built outside it
    Controller only = configMapController(client, "syncer", Result.done());
    RestartableController controller = harness.start(() -> only);
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class, controller::restart);
    // THEN
    assertThat(error).hasMessage("The controller factory of \"syncer\" returned the same Controller for instance "
        + "2 as for instance 1; a restart needs a fresh one (a controller starts once). Fix: build a new Controller "
        + "in the factory on each call, e.g. harness.start(() -> MyController.create(client)), rather than "
        + "returning one built outside it.");
    assertThat(controller.instance()).isEqualTo(1);
  }

  @Test
  void should_fail_when_the_factory_returns_a_controller_that_is_already_started() {
    // GIVEN
    Controller running = harness.start(configMapController(client, "running", Result.done()));
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        () -> harness.start(() -> running));
    // THEN
    assertThat(error).hasMessage("The controller factory of \"running\" returned a Controller that is already "
        + "started, for instance 1; ControllerHarness.start(Supplier) starts what the factory returns. Fix: build a "
        + "new Controller in the factory on each call, e.g. harness.start(() -> MyController.create(client)), "
        + "rather than returning one built outside it.");
    assertThat(harness.controllers()).containsExactly(running);
  }

  @Test
  void should_refuse_a_factory_after_the_test_is_over() {
    // GIVEN
    harness.close();
    AtomicInteger calls = new AtomicInteger();
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class, () -> harness.start(() -> {
      calls.incrementAndGet();
      return configMapController(client, "late", Result.done());
    }));
    // THEN
    assertThat(error).hasMessage("Cannot start a controller from a factory: the test this ControllerHarness "
        + "belongs to is over and its controllers were closed. Use the harness injected into the current test.");
    assertThat(calls).hasValue(0);
  }

  @Test
  void should_close_the_restarted_instance_after_a_controller_test_leaving_no_worker_thread() {
    // WHEN
    var results = EngineRuns.run(RestartsInATest.class);
    // THEN
    EngineRuns.assertAllPassed(results, 1);
    assertThat(INSTANCES).hasSize(2).noneMatch(Controller::isRunning);
    await("the worker threads of both instances to end").atMost(ofSeconds(10))
        .untilAsserted(() -> assertThat(ControllerHarnessTest.workerThreadsOf(INSTANCES)).isEmpty());
  }

  static final List<Controller> INSTANCES = new CopyOnWriteArrayList<>();

  @Fixture
  @ControllerTest
  static class RestartsInATest {

    @Test
    void restarts(KubernetesClient client, ControllerHarness harness) {
      INSTANCES.clear();
      RestartableController controller = harness.start(() -> {
        Controller built = configMapController(client, "restart-probe", Result.done());
        INSTANCES.add(built);
        return built;
      });
      client.configMaps().resource(configMap("web")).create();
      assertThat(controller).within(ofSeconds(10)).hasReconciledSuccessfully("default/web");
      controller.restart();
      assertThat(controller).within(ofSeconds(10)).hasReconciledSuccessfully("default/web");
      assertThat(harness.controllers()).containsExactly(controller.current());
    }
  }

  /** A controller over the ConfigMaps of {@code default} whose reconciles all return {@code result}. */
  static Controller configMapController(KubernetesClient client, String name, Result result) {
    return Controller.builder(name)
        .watch(client.configMaps().inNamespace("default").runnableInformer(0), EventHandlers.enqueueObject())
        .withReconciler(key -> result)
        .build();
  }

  static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withData(Map.of("k", "v")).build();
  }
}
