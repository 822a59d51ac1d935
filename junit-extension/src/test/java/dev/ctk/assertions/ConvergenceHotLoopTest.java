package dev.ctk.assertions;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.assertions.ConvergenceAssertTest.ROUND;
import static dev.ctk.assertions.ConvergenceAssertTest.bumpRound;
import static dev.ctk.assertions.ConvergenceAssertTest.changes;
import static dev.ctk.assertions.ConvergenceAssertTest.configMap;
import static dev.ctk.assertions.ConvergenceAssertTest.configMaps;
import static dev.ctk.assertions.ConvergenceAssertTest.ensureOwner;
import static dev.ctk.assertions.ConvergenceAssertTest.lines;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Reconciler;
import dev.ctk.controller.Result;
import dev.ctk.fake.RequestJournal;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Hot loops and churn, on real ctk controllers over a fake cluster. */
@ControllerTest(crds = "classpath:crds/network.yaml")
class ConvergenceHotLoopTest {

  @Test
  void should_pass_hasNoHotLoop_and_hasNoWriteChurn_for_a_controller_that_writes_once(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN
    Controller controller = harness.start(configMaps(client, "owner", ensureOwner(client)));
    RequestJournal journal = harness.requests();
    // WHEN
    client.resource(configMap("web")).create();
    assertThat(controller).within(ofSeconds(10)).hasReconciled("default/web");
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    // THEN
    assertThat(controller).hasReconcileCount("default/web", 2)
        .hasNoHotLoop(journal, 2).hasNoWriteChurn(journal, 1);
  }

  @Test
  void should_pass_hasNoHotLoop_when_outside_changes_caused_the_reconciles(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN
    Controller controller = harness.start(configMaps(client, "owner", ensureOwner(client)));
    RequestJournal journal = harness.requests();
    client.resource(configMap("web")).create();
    assertThat(controller).within(ofSeconds(10)).hasReconciled("default/web");
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    // WHEN the test changes the object three times, each once the controller settled
    for (int i = 1; i <= 3; i++) {
      String value = Integer.toString(i);
      client.configMaps().inNamespace("default").withName("web")
          .edit(cm -> new ConfigMapBuilder(cm).addToData("k", value).build());
      assertThat(controller).within(ofSeconds(10)).hasReconcileCount("default/web", 2 + i);
      assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    }
    // THEN five reconciles, but never more than two in a row without an outside change
    assertThat(controller).hasNoHotLoop(journal, 2);
  }

  @Test
  void should_fail_hasNoHotLoop_listing_the_own_writes_that_kept_the_key_busy(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN a controller that bumps an annotation on every reconcile, 12 times
    Controller controller = harness.start(configMaps(client, "bumper", bumpRound(client, 12)));
    RequestJournal journal = harness.requests();
    client.resource(configMap("web")).create();
    assertThat(controller).within(ofSeconds(10)).hasReconciled("default/web");
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasNoHotLoop(journal, 5));
    // THEN
    List<ApiRequestRecord> bumps = changes(journal, r -> "patch".equals(r.verb()));
    assertThat(bumps).hasSize(12);
    assertThat(client.configMaps().inNamespace("default").withName("web").get().getMetadata()
        .getAnnotations()).containsEntry(ROUND, "12");
    assertThat(error).hasMessage("""

        Expecting controller "bumper"
          to have no hot loop (at most 5 reconciles of a key without an outside change)
        but default/web was reconciled 13 times without an outside change; its own writes kept \
        it busy:
        %s""", lines(bumps));
  }

  @Test
  void should_fail_hasNoHotLoop_for_a_key_that_requeues_itself_without_writing(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN a controller that asks for 7 requeues, then is done
    AtomicInteger requeues = new AtomicInteger();
    Controller controller = harness.start(configMaps(client, "spinner",
        key -> requeues.incrementAndGet() <= 7 ? Result.requeue() : Result.done()));
    RequestJournal journal = harness.requests();
    client.resource(configMap("web")).create();
    assertThat(controller).within(ofSeconds(10)).hasReconcileCount("default/web", 8);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasNoHotLoop(journal, 5));
    // THEN
    List<ReconcileRecord> log = controller.reconcileLog();
    assertThat(error).hasMessage("""

        Expecting controller "spinner"
          to have no hot loop (at most 5 reconciles of a key without an outside change)
        but default/web was reconciled 8 times without an outside change; it wrote nothing that \
        changed anything, so its own requeues kept it busy; its last reconcile:
          %s""", log.get(log.size() - 1).summary());
  }

  @Test
  void should_refuse_hasNoHotLoop_and_churn_checks_under_within(ControllerHarness harness,
      KubernetesClient client) {
    // GIVEN
    Controller controller = harness.start(configMaps(client, "owner", ensureOwner(client)));
    // WHEN, THEN
    assertThatThrownBy(() -> assertThat(controller).within(ofSeconds(5))
        .hasNoHotLoop(harness.requests(), 5))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("hasNoHotLoop(journal, 5) cannot wait within 5s: it checks what already "
            + "happened, and holds at once before anything happened. Fix: first wait for the "
            + "controller, e.g. assertThat(controller).within(ofSeconds(10))"
            + ".reachesFixedPoint(journal), then call hasNoHotLoop(journal, 5) without "
            + "within(..).");
    assertThatThrownBy(() -> assertThat(controller).within(ofSeconds(5))
        .hasNoStatusChurn(harness.requests()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("hasNoStatusChurn(journal, 2) cannot wait within 5s");
  }

  @Test
  void should_fail_hasNoWriteChurn_naming_the_object_and_its_writes(ControllerHarness harness,
      KubernetesClient client) {
    // GIVEN
    Controller controller = harness.start(configMaps(client, "bumper", bumpRound(client, 12)));
    RequestJournal journal = harness.requests();
    client.resource(configMap("web")).create();
    assertThat(controller).within(ofSeconds(10)).hasReconciled("default/web");
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasNoWriteChurn(journal, 3));
    // THEN
    List<ApiRequestRecord> bumps = changes(journal, r -> "patch".equals(r.verb()));
    assertThat(error).hasMessage("""

        Expecting controller "bumper"
          to have no write churn (at most 3 changing writes of an object without an outside \
        change)
        but it changed configmaps default/web 12 times without an outside change:
        %s""", lines(bumps));
  }

  @Test
  void should_fail_hasNoStatusChurn_for_a_status_rewritten_on_every_reconcile(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN a controller that bumps status.round of a Network on every reconcile, 6 times
    Controller controller = harness.start(networks(client, "status-bumper",
        status -> status.put("round", ((Integer) status.getOrDefault("round", 0)) + 1),
        status -> ((Integer) status.getOrDefault("round", 0)) < 6));
    RequestJournal journal = harness.requests();
    networksOf(client).resource(network("blue")).create();
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasNoStatusChurn(journal));
    // THEN
    List<ApiRequestRecord> statusWrites = changes(journal, r -> "status".equals(r.subresource()));
    assertThat(statusWrites).hasSize(6);
    assertThat(error).hasMessage("""

        Expecting controller "status-bumper"
          to have no status churn (at most 2 changing writes of an object's status without an \
        outside change)
        but it changed networks default/blue/status 6 times without an outside change:
        %s""", lines(statusWrites));
  }

  @Test
  void should_pass_hasNoStatusChurn_for_a_status_set_once(ControllerHarness harness,
      KubernetesClient client) {
    // GIVEN a controller that sets status.phase once
    Controller controller = harness.start(networks(client, "status-once",
        status -> status.put("phase", "Ready"), status -> !status.containsKey("phase")));
    RequestJournal journal = harness.requests();
    networksOf(client).resource(network("blue")).create();
    // WHEN
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    // THEN
    assertThat(changes(journal, r -> "status".equals(r.subresource()))).hasSize(1);
    assertThat(controller).hasNoStatusChurn(journal).hasNoStatusChurn(journal, 1)
        .hasNoHotLoop(journal, 2);
  }

  /** Writes the status of a Network through the status subresource while {@code more} says so. */
  private static Controller networks(KubernetesClient client, String name,
      java.util.function.Consumer<Map<String, Object>> change,
      java.util.function.Predicate<Map<String, Object>> more) {
    Reconciler reconciler = key -> {
      GenericKubernetesResource live = networksOf(client).inNamespace(key.namespace())
          .withName(key.name()).get();
      if (live == null) {
        return Result.done();
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> status = live.getAdditionalProperties().get("status") == null
          ? new HashMap<>()
          : new HashMap<>((Map<String, Object>) live.getAdditionalProperties().get("status"));
      if (more.test(status)) {
        change.accept(status);
        live.getAdditionalProperties().put("status", status);
        networksOf(client).inNamespace(key.namespace()).resource(live).updateStatus();
      }
      return Result.done();
    };
    return Controller.builder(name)
        .watch(networksOf(client).inNamespace("default").runnableInformer(0),
            EventHandlers.enqueueObject())
        .withReconciler(reconciler)
        .build();
  }

  private static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> networksOf(KubernetesClient client) {
    return client.genericKubernetesResources("samplecrd.k8s.io/v1", "Network");
  }

  private static GenericKubernetesResource network(String name) {
    GenericKubernetesResource network = new GenericKubernetesResource();
    network.setApiVersion("samplecrd.k8s.io/v1");
    network.setKind("Network");
    network.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name)
        .withNamespace("default").build());
    network.setAdditionalProperty("spec", Map.of("cidr", "10.0.0.0/24"));
    return network;
  }
}
