package dev.ctk.junit;

import static dev.ctk.junit.RestartableControllerTest.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Result;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.harness.RestartableProcess;
import dev.ctk.harness.internal.perturb.PerturbationPoint;
import dev.ctk.harness.internal.perturb.PerturbationRuns.TimelineLine;
import dev.ctk.harness.internal.perturb.PerturbationTimeline;
import dev.ctk.harness.internal.perturb.PerturbationTracker;
import dev.ctk.harness.values.ControllerProcess;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link RestartableProcess}: a controller of another framework started from a factory, each instance on a client of
 * its own whose User-Agent names it; views that follow restarts; and the perturbation tracker telling its writes
 * apart by that User-Agent, from whatever thread they are sent.
 */
class RestartableProcessTest extends FakeHarnessFixture {

  private final List<KubernetesClient> clients = new CopyOnWriteArrayList<>();
  private final List<Controller> instances = new CopyOnWriteArrayList<>();

  /** A ctk controller run as a process of its own: what a hand-written loop would be. */
  private ControllerProcess copier(RestartableProcess.Instance instance) {
    KubernetesClient own = instance.client();
    clients.add(own);
    Controller controller = Controller.builder("copier")
        .watch(own.configMaps().inNamespace("default").runnableInformer(0), EventHandlers.enqueueObject())
        .withReconciler(key -> {
          if (!key.name().endsWith("-copy")) {
            own.configMaps().inNamespace("default").resource(configMap(key.name() + "-copy")).createOr(c -> c.update());
          }
          return Result.done();
        })
        .build();
    instances.add(controller);
    controller.start();
    return ControllerProcess.of(List.of(controller), controller::close);
  }

  @Test
  void should_start_each_instance_on_a_client_of_its_own_and_follow_restarts_in_its_views() {
    // GIVEN
    RestartableProcess process = harness.startProcess("copier", this::copier);
    ControllerView view = process.controller("copier");
    client.configMaps().resource(configMap("a")).create();
    await().atMost(Duration.ofSeconds(5)).until(() -> client.configMaps().withName("a-copy").get() != null);
    // WHEN
    process.restart();
    client.configMaps().resource(configMap("b")).create();
    await().atMost(Duration.ofSeconds(5)).until(() -> client.configMaps().withName("b-copy").get() != null);
    // THEN instance 1 is stopped, its client closed; the view shows instance 2
    assertThat(process.instance()).isEqualTo(2);
    assertThat(instances).hasSize(2);
    assertThat(instances.get(0).isRunning()).isFalse();
    assertThat(view.isRunning()).isTrue();
    assertThat(view.reconcileLog()).isEqualTo(instances.get(1).reconcileLog());
    assertThatClientIsClosed(clients.get(0));
    // AND each instance's requests carry its own User-Agent
    List<String> agents = cluster.requests().entries().stream().map(ApiRequestRecord::client)
        .filter(agent -> agent != null && agent.startsWith("ctk-process/copier/")).distinct().toList();
    assertThat(agents).hasSize(2);
    assertThat(agents.get(0)).startsWith("ctk-process/copier/1 ");
    assertThat(agents.get(1)).startsWith("ctk-process/copier/2 ");
    assertThat(harness.processInstance(agents.get(1))).hasValueSatisfying(instance -> {
      assertThat(instance.name()).isEqualTo("copier");
      assertThat(instance.number()).isEqualTo(2);
    });
    assertThat(harness.views()).contains(view);
    assertThat(harness.restartables()).containsExactly(process);
  }

  @Test
  void should_stop_the_running_instance_when_the_test_ends() {
    // GIVEN
    RestartableProcess process = harness.startProcess("copier", this::copier);
    // WHEN
    harness.close();
    // THEN
    assertThat(instances).singleElement().satisfies(c -> assertThat(c.isRunning()).isFalse());
    assertThatClientIsClosed(clients.get(0));
    IllegalStateException restart = catchThrowableOfType(IllegalStateException.class, process::restart);
    assertThat(restart).hasMessageContaining("Cannot restart controller process \"copier\": the test it belongs to "
        + "is over");
  }

  @Test
  void should_say_which_instance_the_factory_failed_to_start_and_keep_the_cause() {
    // GIVEN a factory that fails on instance 2
    AtomicInteger calls = new AtomicInteger();
    RestartableProcess process = harness.startProcess("copier", instance -> {
      if (calls.incrementAndGet() == 2) {
        throw new IllegalArgumentException("no such CRD: widgets.example.com");
      }
      return copier(instance);
    });
    // WHEN
    IllegalStateException failure = catchThrowableOfType(IllegalStateException.class, process::restart);
    // THEN
    assertThat(failure).hasMessageStartingWith("The factory of controller process \"copier\" failed to start "
        + "instance 2: java.lang.IllegalArgumentException: no such CRD: widgets.example.com. Fix the factory")
        .hasCauseInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void should_refuse_an_instance_whose_controllers_are_named_otherwise_than_instance_1s() {
    // GIVEN a factory whose second instance shows another controller
    AtomicInteger calls = new AtomicInteger();
    RestartableProcess process = harness.startProcess("copier", instance -> {
      ControllerProcess started = copier(instance);
      if (calls.incrementAndGet() == 1) {
        return started;
      }
      ControllerView renamed = RestartableControllerTest.configMapController(client, "renamed", Result.done());
      return ControllerProcess.of(List.of(renamed), started);
    });
    // WHEN
    IllegalStateException failure = catchThrowableOfType(IllegalStateException.class, process::restart);
    // THEN the fresh instance is stopped again, and the message says what differs
    assertThat(failure).hasMessage("Controller process \"copier\" instance 2 shows the controllers [renamed], but "
        + "instance 1 showed [copier]. Fix: build the same controllers, under the same names, on every call of the "
        + "factory.");
    assertThat(instances.get(1).isRunning()).isFalse();
  }

  @Test
  void should_number_a_process_s_writes_by_its_user_agent_whatever_thread_sends_them() {
    // GIVEN the reference run's tracker, which only numbers writes
    try (PerturbationTracker tracker = PerturbationTracker.attach(cluster, harness, null)) {
      harness.startProcess("copier", this::copier);
      // WHEN the test writes with its own client, then with the process's client from the test's thread
      client.configMaps().resource(configMap("by-test")).create();
      await().atMost(Duration.ofSeconds(5)).until(() -> client.configMaps().withName("by-test-copy").get() != null);
      clients.get(0).configMaps().inNamespace("default").resource(configMap("by-process-client")).create();
      // THEN the process's writes are numbered, the one sent outside any reconcile too (its copy may follow as
      // write #3); the test's are not
      List<String> writes = tracker.controllerWrites().stream()
          .map(w -> w.describe() + " by " + w.controller() + " instance " + w.instance()).toList();
      assertThat(writes).startsWith(
              "write #1: create ConfigMap in default by copier instance 1",
              "write #2: create ConfigMap in default by copier instance 1")
          .hasSizeBetween(2, 3);
      assertThat(writes.subList(2, writes.size())).allSatisfy(third -> assertThat(third)
          .isEqualTo("write #3: create ConfigMap in default by copier instance 1"));
    }
  }

  @Test
  void should_crash_a_process_at_its_write_refusing_it_and_restart_it_from_the_factory() {
    // GIVEN a tracker that crashes the sender of write 1 before it is served
    try (PerturbationTracker tracker = PerturbationTracker.attach(cluster, harness,
        PerturbationPoint.crashBefore(1))) {
      RestartableProcess process = harness.startProcess("copier", this::copier);
      // WHEN
      client.configMaps().resource(configMap("a")).create();
      // THEN instance 1's copy is refused, instance 2 makes it
      await().atMost(Duration.ofSeconds(5)).until(() -> client.configMaps().withName("a-copy").get() != null);
      assertThat(process.instance()).isEqualTo(2);
      assertThat(instances.get(0).isRunning()).isFalse();
      assertThat(tracker.controllerWrites()).extracting(w -> w.describe() + " by instance " + w.instance())
          .startsWith("write #1: create ConfigMap in default by instance 1",
              "write #2: create ConfigMap in default by instance 2");
      assertThat(tracker.injections()).anySatisfy(line -> assertThat(line).contains("crashed controller \"copier\" "
          + "before write #1 (create ConfigMap in default, refused); restarted as instance 2"));
      long refused = tracker.controllerWrites().get(0).journalSequence();
      assertThat(cluster.requests().entries()).filteredOn(r -> r.sequence() == refused)
          .singleElement().satisfies(r -> {
            assertThat(r.code()).as("write #1's answer: 0 for a dropped connection").isZero();
            assertThat(r.client()).startsWith("ctk-process/copier/1 ");
          });
      assertThat(tracker.fired()).isTrue();
    }
  }

  @Test
  void should_name_the_crashed_instance_that_sent_a_refused_write_in_the_timeline() {
    // GIVEN a process whose reconcile makes two copies, and a tracker that crashes it right after write 1
    long mark = cluster.requests().lastSequence();
    try (PerturbationTracker tracker = PerturbationTracker.attach(cluster, harness,
        PerturbationPoint.crashAfter(1))) {
      RestartableProcess process = harness.startProcess("copier", instance -> twoCopies(instance.client()));
      // WHEN
      client.configMaps().resource(configMap("a")).create();
      // THEN instance 1's second copy, sent after the crash, is refused and labelled with its sender
      await().atMost(Duration.ofSeconds(5)).until(() -> process.instance() == 2
          && client.configMaps().withName("a-copy-2").get() != null);
      List<String> timeline = PerturbationTimeline.read(cluster, tracker.injections(), tracker.controllerWrites(),
          tracker.refusedRequests(), mark).stream().map(TimelineLine::text).toList();
      assertThat(timeline).anySatisfy(line -> assertThat(line).matches("request #\\d+ create ConfigMap in default "
          + "-> connection dropped \\(refused: sent by controller \"copier\" instance 1, crashed\\)"));
      assertThat(timeline).filteredOn(line -> line.contains("(not a controller's)")).singleElement().asString()
          .as("the test's own create")
          .matches("request #\\d+ create ConfigMap in default -> 201 \\(not a controller's\\)");
    }
  }

  /** A process whose reconcile of {@code x} creates {@code x-copy-1} and then {@code x-copy-2}. */
  private ControllerProcess twoCopies(KubernetesClient own) {
    Controller controller = Controller.builder("copier")
        .watch(own.configMaps().inNamespace("default").runnableInformer(0), EventHandlers.enqueueObject())
        .withReconciler(key -> {
          if (!key.name().contains("-copy")) {
            for (String copy : List.of(key.name() + "-copy-1", key.name() + "-copy-2")) {
              own.configMaps().inNamespace("default").resource(configMap(copy)).createOr(c -> c.update());
            }
          }
          return Result.done();
        })
        .build();
    controller.start();
    return ControllerProcess.of(List.of(controller), controller::close);
  }

  private static void assertThatClientIsClosed(KubernetesClient closed) {
    Throwable failure = catchThrowableOfType(RuntimeException.class,
        () -> closed.configMaps().inNamespace("default").list());
    assertThat(failure).as("a request on the stopped instance's client").isNotNull();
  }
}
