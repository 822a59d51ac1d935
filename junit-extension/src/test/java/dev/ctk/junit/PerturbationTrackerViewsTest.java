package dev.ctk.junit;

import static dev.ctk.junit.PerturbationTrackerTest.configMap;
import static dev.ctk.junit.PerturbationTrackerTest.secretsController;
import static dev.ctk.junit.PerturbationTrackerTest.withoutTimes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Result;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.RequestPattern;
import dev.ctk.fake.values.WatchDelivery;
import dev.ctk.harness.RestartableController;
import dev.ctk.harness.internal.perturb.PerturbationPoint;
import dev.ctk.harness.internal.perturb.PerturbationTracker;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@link PerturbationTracker}: the perturbations of what a controller sees (a stale view, unobserved states, a restart
 * on a stale list).
 */
class PerturbationTrackerViewsTest extends FakeHarnessFixture {

  @Test
  void should_hold_the_watch_from_event_2_until_the_tests_next_write_was_served_then_release_it_in_order() {
    // GIVEN event 1 is the test's ADDED of web, event 2 the MODIFIED of the controller's patch; the controller
    // requeues web once, so it reconciles again on the stale view
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.staleView("ConfigMap", 2));
    RestartableController controller = harness.start(() -> requeueingOnce(client));
    // WHEN the test writes again while the view is stale
    client.configMaps().resource(configMap("web")).create();
    await("the stale view to hold an event").atMost(ofSeconds(10)).until(() -> tracker.injections().size() == 1);
    client.secrets().resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata()
        .withName("next").endMetadata().build()).create();
    // THEN the view stays stale until that write was served and the controller was idle again
    await("the stale view to be released").atMost(ofSeconds(10)).until(() -> tracker.injections().size() == 2);
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(tracker.fired()).isTrue();
    assertThat(tracker.notFiredReason()).isNull();
    List<String> injections = withoutTimes(tracker.injections());
    assertThat(injections.get(0)).isEqualTo("held ConfigMap watch events from event #2 on (stale cache)");
    assertThat(injections.get(1)).matches("released 1 held ConfigMap watch event in order after the test's next "
        + "write \\(request #\\d+ create Secret in default\\) was served and the controllers were idle for 100 ms; "
        + "1 reconcile started while the view was stale");
    assertThat(outcomes("MODIFIED")).containsExactly(WatchDelivery.Outcome.HELD, WatchDelivery.Outcome.RELEASED);
    assertThat(controller.current().informers().get(0).getStore().listKeys()).containsExactly("default/web");
    assertThat(PerturbationTrackerTest.isSynced((ConfigMap) controller.current().informers().get(0).getStore()
        .getByKey("default/web"))).isTrue();
    assertThat(cluster.watchFaults().rulesInForce()).isEmpty();
  }

  @Test
  void should_deliver_a_burst_of_three_updates_as_its_net_result_only() {
    // GIVEN a controller that records the value it finds in its cache at each reconcile
    tracker = PerturbationTracker.attach(cluster, harness,
        PerturbationPoint.unobservedStates("ConfigMap", 2, 3));
    List<String> seen = new CopyOnWriteArrayList<>();
    harness.start(() -> recordingController(client, seen));
    client.configMaps().resource(valued("web", "0")).create();
    await("the controller to see web=0").atMost(ofSeconds(10)).until(() -> seen.contains("0"));
    // WHEN three quick updates (events 2 to 4)
    for (String value : List.of("1", "2", "3")) {
      client.configMaps().resource(valued("web", value)).update();
    }
    // THEN
    await("the burst to be released").atMost(ofSeconds(10)).until(() -> tracker.injections().size() == 2);
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(withoutTimes(tracker.injections())).containsExactly(
        "held ConfigMap watch events from event #2 on (a burst of 3)",
        "released 3 held ConfigMap watch events as 1 net event (intermediate states unobserved) once the burst "
            + "was held");
    assertThat(seen).containsExactly("0", "3");
    assertThat(tracker.fired()).isTrue();
    assertThat(tracker.notFiredReason()).isNull();
    assertThat(outcomes("MODIFIED")).containsExactly(WatchDelivery.Outcome.HELD, WatchDelivery.Outcome.HELD,
        WatchDelivery.Outcome.HELD, WatchDelivery.Outcome.DROPPED, WatchDelivery.Outcome.DROPPED,
        WatchDelivery.Outcome.RELEASED);
  }

  @Test
  void should_deliver_a_burst_that_stopped_short_once_no_further_event_came_for_200_ms() {
    // GIVEN a burst of 5 planned, of which only 2 updates come
    tracker = PerturbationTracker.attach(cluster, harness,
        PerturbationPoint.unobservedStates("ConfigMap", 2, 5));
    List<String> seen = new CopyOnWriteArrayList<>();
    harness.start(() -> recordingController(client, seen));
    client.configMaps().resource(valued("web", "0")).create();
    await("the controller to see web=0").atMost(ofSeconds(10)).until(() -> seen.contains("0"));
    // WHEN
    for (String value : List.of("1", "2")) {
      client.configMaps().resource(valued("web", value)).update();
    }
    // THEN the 2 held updates arrive as one, without waiting for the 3 that never come
    await("the burst to be released").atMost(ofSeconds(10)).until(() -> tracker.injections().size() == 2);
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(withoutTimes(tracker.injections())).containsExactly(
        "held ConfigMap watch events from event #2 on (a burst of 5)",
        "released 2 held ConfigMap watch events as 1 net event (intermediate states unobserved) once no further "
            + "event came for 200 ms");
    assertThat(seen).containsExactly("0", "2");
    assertThat(tracker.fired()).isTrue();
  }

  @Test
  void should_restart_after_write_2_on_a_list_of_the_stale_kind_as_it_was_at_the_first_start() {
    // GIVEN web, not yet synced, when the controller first starts
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.staleRestart("ConfigMap", 2));
    client.configMaps().resource(configMap("web")).create();
    String firstStart = cluster.resourceVersion();
    // WHEN
    RestartableController controller = harness.start(() -> secretsController(client));
    // THEN instance 2 listed web as it was then (not yet synced), and patched it again
    await("instance 2 to settle").atMost(ofSeconds(10)).until(() -> tracker.injections().size() == 2);
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(controller.instance()).isEqualTo(2);
    assertThat(tracker.controllerWrites()).extracting(w -> w.describe() + " by instance " + w.instance())
        .containsExactly("write #1: create Secret in default by instance 1",
            "write #2: patch ConfigMap default/web by instance 1",
            "write #3: patch ConfigMap default/web by instance 2");
    assertThat(withoutTimes(tracker.injections())).containsExactly(
        "crashed controller \"cm-secrets\" right after write #2 (patch ConfigMap default/web); restarted as "
            + "instance 2, which listed ConfigMap as of resourceVersion " + firstStart + " (the controller's first "
            + "start), its ConfigMap watches held",
        "released 1 held ConfigMap watch event in order after the restarted controller was idle for 100 ms");
    List<ApiRequestRecord> lists = cluster.requests().entries(RequestPattern.list("ConfigMap"));
    assertThat(lists).extracting(ApiRequestRecord::fault)
        .containsExactly(null, "stale read at resourceVersion " + firstStart);
    assertThat(cluster.faults().rules()).hasSize(1);   // the tracker's own
    assertThat(cluster.watchFaults().rulesInForce()).isEmpty();
    assertThat(tracker.fired()).isTrue();
    assertThat(tracker.notFiredReason()).isNull();
  }

  @Test
  void should_not_fire_a_stale_view_when_no_reconcile_ran_while_it_held_an_event() {
    // GIVEN event 2 is the MODIFIED of the controller's patch, after which it has nothing to do
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.staleView("ConfigMap", 2));
    harness.start(() -> secretsController(client));
    // WHEN
    client.configMaps().resource(configMap("web")).create();
    // THEN
    await("the stale view to be released").atMost(ofSeconds(10)).until(() -> tracker.injections().size() == 2);
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(tracker.fired()).isFalse();
    assertThat(tracker.notFiredReason()).isEqualTo("no reconcile ran while the view was stale");
    assertThat(withoutTimes(tracker.injections())).containsExactly(
        "held ConfigMap watch events from event #2 on (stale cache)",
        "released 1 held ConfigMap watch event in order after 2 s (the test wrote nothing more meanwhile); no "
            + "reconcile started while the view was stale");
  }

  @Test
  void should_not_fire_unobserved_states_when_the_burst_did_not_recur_and_nothing_was_coalesced() {
    // GIVEN a burst of 2 planned at event 1: in the reference run, the ADDED of web and the controller's own patch
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.unobservedStates("ConfigMap", 1, 2));
    harness.start(() -> secretsController(client));
    // WHEN the ADDED is held, the controller never patches: the burst does not recur
    client.configMaps().resource(configMap("web")).create();
    // THEN
    await("the held event to be released").atMost(ofSeconds(10)).until(() -> tracker.injections().size() == 2);
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(tracker.fired()).isFalse();
    assertThat(tracker.notFiredReason())
        .isEqualTo("nothing was coalesced: the burst did not recur (the controller's own writes made it)");
    assertThat(withoutTimes(tracker.injections())).containsExactly(
        "held ConfigMap watch events from event #1 on (a burst of 2)",
        "released 1 held ConfigMap watch event as 1 net event (nothing coalesced: the burst did not recur) once no "
            + "further event came for 200 ms");
    assertThat(outcomes("ADDED")).containsExactly(WatchDelivery.Outcome.HELD, WatchDelivery.Outcome.RELEASED);
  }

  @Test
  void should_not_fire_a_stale_restart_when_the_fresh_instance_does_not_watch_the_kind() {
    // GIVEN a stale restart of Secret, which the controller only writes
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.staleRestart("Secret", 2));
    RestartableController controller = harness.start(() -> secretsController(client));
    // WHEN
    client.configMaps().resource(configMap("web")).create();
    // THEN it crashed and restarted, on a fresh view
    await("instance 2").atMost(ofSeconds(10)).until(() -> tracker.injections().size() == 1);
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(controller.instance()).isEqualTo(2);
    assertThat(withoutTimes(tracker.injections())).containsExactly("crashed controller \"cm-secrets\" right after "
        + "write #2 (patch ConfigMap default/web); restarted as instance 2");
    assertThat(tracker.fired()).isFalse();
    assertThat(tracker.notFiredReason()).isEqualTo("the fresh instance does not watch Secret");
    assertThat(cluster.requests().entries(RequestPattern.list("ConfigMap"))).extracting(ApiRequestRecord::fault)
        .containsOnlyNulls();
  }

  @Test
  void should_not_fire_a_stale_restart_when_the_fresh_instance_never_lists_the_kind() {
    // GIVEN every instance shares one running informer: a fresh instance does not list
    SharedIndexInformer<ConfigMap> shared = client.configMaps().inNamespace("default").inform();
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.staleRestart("ConfigMap", 2));
    client.configMaps().resource(configMap("web")).create();
    RestartableController controller = harness.start(() -> secretsOn(client, shared));
    // THEN
    await("instance 2 to settle").atMost(ofSeconds(10)).until(() -> tracker.injections().size() == 2);
    assertThat(controller.instance()).isEqualTo(2);
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    assertThat(tracker.fired()).isFalse();
    assertThat(tracker.notFiredReason()).isEqualTo("the stale list was never served");
    assertThat(withoutTimes(tracker.injections())).containsExactly(
        "crashed controller \"cm-secrets\" right after write #2 (patch ConfigMap default/web); restarted as "
            + "instance 2, its ConfigMap watches held, but it sent no LIST of ConfigMap as it started (the stale list "
            + "was never served)",
        "released 0 held ConfigMap watch events in order after the restarted controller was idle for 100 ms");
    assertThat(cluster.requests().entries(RequestPattern.list("ConfigMap"))).extracting(ApiRequestRecord::fault)
        .containsExactly((String) null);
    assertThat(cluster.faults().rules()).hasSize(1);   // the tracker's own
    shared.close();
  }

  /**
   * {@link PerturbationTrackerTest#secretsController}, requeueing each key once (1 ms) after its first reconcile, so
   * that it reconciles again right after its own patch.
   */
  static Controller requeueingOnce(KubernetesClient client) {
    return secretsOn(client, client.configMaps().inNamespace("default").runnableInformer(0), true);
  }

  /** {@link PerturbationTrackerTest#secretsController} on a given informer. */
  static Controller secretsOn(KubernetesClient client, SharedIndexInformer<ConfigMap> configMaps) {
    return secretsOn(client, configMaps, false);
  }

  private static Controller secretsOn(KubernetesClient client, SharedIndexInformer<ConfigMap> configMaps,
      boolean requeueOnce) {
    Set<String> requeued = ConcurrentHashMap.newKeySet();
    return Controller.builder(PerturbationTrackerTest.CONTROLLER)
        .watch(configMaps, EventHandlers.enqueueObject())
        .withReconciler(key -> {
          ConfigMap cm = configMaps.getStore().getByKey(key.toString());
          if (cm == null || PerturbationTrackerTest.isSynced(cm)) {
            return Result.done();
          }
          if (client.secrets().inNamespace("default").withName(key.name()).get() == null) {
            client.secrets().resource(new SecretBuilder().withNewMetadata().withName(key.name())
                .withNamespace("default").endMetadata().build()).create();
          }
          client.configMaps().inNamespace("default").withName(key.name()).patch(
              PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"annotations\":{\"synced\":\"true\"}}}");
          return requeueOnce && requeued.add(key.toString()) ? Result.requeueAfter(Duration.ofMillis(1))
              : Result.done();
        })
        .build();
  }

  /** Reconciles every ConfigMap of {@code default}, recording the value of {@code v} its cache holds. */
  static Controller recordingController(KubernetesClient client, List<String> seen) {
    SharedIndexInformer<ConfigMap> configMaps = client.configMaps().inNamespace("default").runnableInformer(0);
    return Controller.builder("recorder")
        .watch(configMaps, EventHandlers.enqueueObject())
        .withReconciler(key -> {
          ConfigMap cm = configMaps.getStore().getByKey(key.toString());
          if (cm != null) {
            seen.add(cm.getData().get("v"));
          }
          return Result.done();
        })
        .build();
  }

  static ConfigMap valued(String name, String value) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withData(Map.of("v", value)).build();
  }

  /** What happened to the watch events of this type, in log order. */
  private List<WatchDelivery.Outcome> outcomes(String eventType) {
    return cluster.watchFaults().deliveries().stream().filter(d -> eventType.equals(d.eventType()))
        .map(WatchDelivery::outcome).toList();
  }
}
