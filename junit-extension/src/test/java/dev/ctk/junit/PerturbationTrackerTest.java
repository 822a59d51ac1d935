package dev.ctk.junit;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Result;
import dev.ctk.fake.ApiFault;
import dev.ctk.fake.ClientTransport;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.FaultRule;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.RequestPattern;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.RestartableController;
import dev.ctk.harness.TestScope;
import dev.ctk.harness.internal.ControllerWrite;
import dev.ctk.harness.internal.FakeTestCluster;
import dev.ctk.harness.internal.perturb.PerturbationPoint;
import dev.ctk.harness.internal.perturb.PerturbationTracker;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@link PerturbationTracker}: numbering the controller's writes and injecting crash points, on a tiny controller
 * that, per ConfigMap, creates a Secret and then marks the ConfigMap synced: two writes per reconcile.
 */
class PerturbationTrackerTest extends FakeHarnessFixture {

  static final String CONTROLLER = "cm-secrets";

  @Test
  void should_number_the_writes_sent_from_inside_reconciles_and_not_those_of_the_test_body() {
    // GIVEN the reference run
    tracker = PerturbationTracker.attach(cluster, harness, null);
    RestartableController controller = harness.start(() -> secretsController(client));
    // WHEN the test body writes too
    client.configMaps().resource(configMap("web")).create();
    client.secrets().resource(new SecretBuilder().withNewMetadata().withName("other").withNamespace("default")
        .endMetadata().build()).create();
    // THEN
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(controller).hasReconciledSuccessfully("default/web");
    List<ControllerWrite> writes = tracker.controllerWrites();
    assertThat(writes).extracting(ControllerWrite::describe)
        .containsExactly("write #1: create Secret in default", "write #2: patch ConfigMap default/web");
    assertThat(writes).allMatch(w -> w.controller().equals(CONTROLLER) && w.instance() == 1);
    ApiRequestRecord patch = journalEntry(writes.get(1));
    assertThat(patch.summary()).startsWith("#" + patch.sequence() + " patch configmaps default/web (merge");
    assertThat(patch.code()).isEqualTo(200);
    assertThat(tracker.injections()).isEmpty();
    assertThat(tracker.fired()).isFalse();
    assertThat(tracker.notFiredReason()).isEqualTo("this is the reference run: it has no perturbation point");
    assertThat(tracker.hasFactory()).isTrue();
    assertThat(tracker.watchedKinds()).containsExactly("ConfigMap");
    assertThat(tracker.restartableKinds()).containsExactly("ConfigMap");
  }

  @Test
  void should_crash_before_write_2_refusing_it_so_that_the_fresh_instance_makes_the_patch() {
    // GIVEN
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.crashBefore(2));
    RestartableController controller = harness.start(() -> secretsController(client));
    // WHEN
    client.configMaps().resource(configMap("web")).create();
    // THEN
    await("instance 2 of the controller to mark default/web synced").atMost(ofSeconds(10))
        .until(() -> controller.instance() == 2 && synced("web"));
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(tracker.controllerWrites()).extracting(w -> w.describe() + " by instance " + w.instance())
        .containsExactly("write #1: create Secret in default by instance 1",
            "write #2: patch ConfigMap default/web by instance 1",
            "write #3: patch ConfigMap default/web by instance 2");
    assertThat(journalEntry(tracker.controllerWrites().get(1)).code()).isZero();
    assertThat(client.secrets().inNamespace("default").withName("web").get()).isNotNull();
    assertThat(tracker.fired()).isTrue();
    assertThat(tracker.notFiredReason()).isNull();
    assertThat(withoutTimes(tracker.injections())).containsExactly("crashed controller \"cm-secrets\" before "
        + "write #2 (patch ConfigMap default/web, refused); restarted as instance 2");
  }

  @Test
  void should_crash_right_after_write_1_so_that_the_fresh_instance_finds_the_secret_and_makes_the_patch() {
    // GIVEN
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.crashAfter(1));
    RestartableController controller = harness.start(() -> secretsController(client));
    // WHEN
    client.configMaps().resource(configMap("web")).create();
    // THEN
    await("instance 2 of the controller to mark default/web synced").atMost(ofSeconds(10))
        .until(() -> controller.instance() == 2 && synced("web"));
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(tracker.controllerWrites()).extracting(w -> w.describe() + " by instance " + w.instance())
        .containsExactly("write #1: create Secret in default by instance 1",
            "write #2: patch ConfigMap default/web by instance 2");
    assertThat(journalEntry(tracker.controllerWrites().get(0)).code()).isEqualTo(201);
    assertThat(withoutTimes(tracker.injections())).containsExactly("crashed controller \"cm-secrets\" right after "
        + "write #1 (create Secret in default); restarted as instance 2");
    assertThat(controller).hasReconciledSuccessfully("default/web");
  }

  @Test
  void should_refuse_every_later_request_of_the_crashed_instance() {
    // GIVEN
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.crashAfter(1));
    RestartableController controller = harness.start(() -> secretsController(client));
    Controller first = controller.current();
    // WHEN
    client.configMaps().resource(configMap("web")).create();
    // THEN instance 1's next request after write 1 (the GET that fabric8's patch starts with) was refused
    await("the restart").atMost(ofSeconds(10)).until(() -> controller.instance() == 2);
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(first.reconcileLog()).anyMatch(r -> r.key().toString().equals("default/web") && r.error() != null);
    List<ApiRequestRecord> refused = cluster.requests().entries().stream().filter(r -> r.code() == 0).toList();
    assertThat(refused).extracting(r -> r.verb() + " " + r.resource() + " " + r.objectKey() + " [" + r.fault() + "]")
        .containsExactly("get configmaps default/web [drop connection]");
    assertThat(tracker.controllerWrites()).noneMatch(w -> w.journalSequence() == refused.get(0).sequence());
  }

  @Test
  void should_not_fire_when_the_run_never_reaches_the_write() {
    // GIVEN
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.crashAfter(5));
    RestartableController controller = harness.start(() -> secretsController(client));
    // WHEN
    client.configMaps().resource(configMap("web")).create();
    // THEN
    await("default/web to be synced").atMost(ofSeconds(10)).until(() -> synced("web"));
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(tracker.fired()).isFalse();
    assertThat(tracker.notFiredReason()).isEqualTo("the run never got to write #5");
    assertThat(tracker.injections()).isEmpty();
    assertThat(controller.instance()).isEqualTo(1);
    assertThat(tracker.controllerWrites()).hasSize(2);
  }

  @Test
  void should_not_crash_a_controller_started_without_a_factory() {
    // GIVEN
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.crashBefore(1));
    harness.start(secretsController(client));
    // WHEN
    client.configMaps().resource(configMap("web")).create();
    // THEN
    await("default/web to be synced").atMost(ofSeconds(10)).until(() -> synced("web"));
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(tracker.fired()).isFalse();
    assertThat(tracker.notFiredReason()).isEqualTo("write #1 came from controller \"cm-secrets\", started without "
        + "a factory (harness.start(Controller))");
    assertThat(tracker.hasFactory()).isFalse();
    assertThat(tracker.watchedKinds()).containsExactly("ConfigMap");
    assertThat(tracker.restartableKinds()).isEmpty();
    assertThat(withoutTimes(tracker.injections())).containsExactly("did not crash controller \"cm-secrets\" at "
        + "write #1 (create Secret in default): it was started with harness.start(Controller), without a factory "
        + "to restart it from. Start it with harness.start(() -> ...) to crash-restart it");
  }

  @Test
  void should_settle_when_the_controllers_are_idle_and_not_for_a_controller_that_requeues_itself() {
    // GIVEN
    tracker = PerturbationTracker.attach(cluster, harness, null);
    harness.start(() -> RestartableControllerTest.configMapController(client, "quiet", Result.done()));
    client.configMaps().resource(configMap("web")).create();
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    // WHEN a second controller reconciles default/web again every 20 ms
    harness.start(RestartableControllerTest.configMapController(client, "hot", Result.requeueAfter(ofMillis(20))));
    // THEN
    assertThat(tracker.settle(ofSeconds(1))).isFalse();
  }

  @Test
  void should_remove_its_fault_rule_when_closed() {
    // GIVEN
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.crashBefore(1));
    assertThat(cluster.faults().rules()).hasSize(1);
    // WHEN
    tracker.close();
    // THEN
    assertThat(cluster.faults().rules()).isEmpty();
  }

  @Test
  void should_refuse_a_cluster_whose_clients_use_http() {
    try (FakeCluster http = FakeCluster.builder().withClientTransport(ClientTransport.HTTP).build()) {
      ControllerHarness httpHarness = TestScope.owning(new FakeTestCluster(http)).harness();
      // WHEN
      IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
          () -> PerturbationTracker.attach(http, httpHarness, null));
      // THEN
      assertThat(error).hasMessage("Perturbation testing needs the fake cluster's in-process transport: it tells a "
          + "controller's writes apart by the thread that sends them, and over HTTP requests are served on the "
          + "server's threads. This cluster was built with ClientTransport.HTTP. Fix: build it with the default "
          + "transport (ClientTransport.IN_PROCESS).");
    }
  }

  @Test
  void should_see_fault_rule_predicates_run_once_per_request_on_the_thread_that_sent_it() {
    // GIVEN a rule that records, per request, the threads its predicate ran on
    Map<Long, List<String>> threads = new ConcurrentHashMap<>();
    FaultRule rule = cluster.faults().when(RequestPattern.any().where("records its thread", r -> {
      threads.computeIfAbsent(r.sequence(), s -> new CopyOnWriteArrayList<>()).add(Thread.currentThread().getName());
      return false;
    })).answer(ApiFault.dropConnection());
    tracker = PerturbationTracker.attach(cluster, harness, null);
    harness.start(() -> secretsController(client));
    // WHEN
    client.configMaps().resource(configMap("web")).create();
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    rule.remove();
    // THEN every request's predicate ran once; the test's on the test thread, the controller's on its worker
    String test = Thread.currentThread().getName();
    ApiRequestRecord create = cluster.requests().entries(RequestPattern.create("ConfigMap")).get(0);
    assertThat(threads.get(create.sequence())).containsExactly(test);
    for (ControllerWrite write : tracker.controllerWrites()) {
      assertThat(threads.get(write.journalSequence())).containsExactly("ctk-" + CONTROLLER + "-worker-1");
    }
    assertThat(threads.values()).allMatch(list -> list.size() == 1);
  }

  // the controller under test

  /**
   * Per ConfigMap of {@code default} not yet annotated {@code synced=true}: creates a Secret of the same name if it
   * does not exist (a GET, then write 1), then annotates the ConfigMap (write 2, a merge patch).
   */
  static Controller secretsController(KubernetesClient client) {
    SharedIndexInformer<ConfigMap> configMaps = client.configMaps().inNamespace("default").runnableInformer(0);
    return Controller.builder(CONTROLLER)
        .watch(configMaps, EventHandlers.enqueueObject())
        .withReconciler(key -> {
          ConfigMap cm = configMaps.getStore().getByKey(key.toString());
          if (cm == null || isSynced(cm)) {
            return Result.done();
          }
          if (client.secrets().inNamespace("default").withName(key.name()).get() == null) {
            client.secrets().resource(new SecretBuilder().withNewMetadata().withName(key.name())
                .withNamespace("default").endMetadata().withStringData(Map.of("from", key.name())).build()).create();
          }
          client.configMaps().inNamespace("default").withName(key.name()).patch(
              PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"annotations\":{\"synced\":\"true\"}}}");
          return Result.done();
        })
        .build();
  }

  static boolean isSynced(ConfigMap cm) {
    Map<String, String> annotations = cm.getMetadata().getAnnotations();
    return annotations != null && "true".equals(annotations.get("synced"));
  }

  private boolean synced(String name) {
    ConfigMap cm = client.configMaps().inNamespace("default").withName(name).get();
    return cm != null && isSynced(cm);
  }

  static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withData(Map.of("k", "v")).build();
  }

  private ApiRequestRecord journalEntry(ControllerWrite write) {
    return cluster.requests().entries().stream().filter(r -> r.sequence() == write.journalSequence()).findFirst()
        .orElseThrow(() -> new AssertionError("no journal entry for " + write));
  }

  /** The injection lines without their leading {@code HH:mm:ss.SSS }, after checking that they have one. */
  static List<String> withoutTimes(List<String> lines) {
    assertThat(lines).allMatch(line -> line.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} .*"));
    return lines.stream().map(line -> line.substring(13)).toList();
  }
}
