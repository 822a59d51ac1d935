package dev.ctk.josdk;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.CacheState;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.WorkQueueStats;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Pending events and event sources of a real JOSDK operator on the fake. */
@ControllerTest(crds = "classpath:crds/widgets.josdk.ctk.dev.yaml")
class OperatorProbeQueueAndCachesTest {

  private final OperatorProbe probe = OperatorProbe.create();
  private final CountDownLatch slowStarted = new CountDownLatch(1);
  private final CountDownLatch releaseSlow = new CountDownLatch(1);

  @Test
  void should_show_events_pending_behind_a_reconcile_in_flight(KubernetesClient client,
      ControllerHarness harness) throws InterruptedException {
    // GIVEN one reconcile thread, and a first reconcile of "slow" that blocks until released
    Operator operator = Operators.reportingTo(probe, client,
        o -> o.withConcurrentReconciliationThreads(1));
    operator.register(new WidgetReconciler((widget, context) -> {
      if ("first".equals(widget.getSpec().getMessage())) {
        slowStarted.countDown();
        assertThat(releaseSlow.await(30, TimeUnit.SECONDS)).isTrue();
      }
      return UpdateControl.noUpdate();
    }));
    harness.closeAfterTest(releaseSlow::countDown);
    probe.start(operator, harness);
    client.resource(Widget.named("slow", "first")).create();
    assertThat(slowStarted.await(10, TimeUnit.SECONDS)).isTrue();
    // WHEN a new generation of "slow" and a new widget arrive while "slow" is reconciled
    client.resources(Widget.class).withName("slow")
        .edit(w -> {
          w.getSpec().setMessage("second");
          return w;
        });
    client.resource(Widget.named("next", "first-of-next")).create();
    // THEN both wait as pending events: "slow" behind its own reconcile, "next" for the only thread
    ControllerView widgets = probe.controller("widgets");
    await("events for default/slow and default/next pending").atMost(ofSeconds(10))
        .untilAsserted(() -> {
          WorkQueueStats queue = widgets.workQueue().stats();
          assertThat(queue.inFlightKeys()).containsExactly("default/slow");
          assertThat(queue.queuedKeys()).containsExactlyInAnyOrder("default/slow", "default/next");
        });
    assertThat(widgets).workQueue().containsKey("default/next").hasDepth(2);
    // WHEN released
    releaseSlow.countDown();
    // THEN each pending event is reconciled once
    assertThat(widgets).within(ofSeconds(10))
        .hasReconciledSuccessfully("default/slow")
        .hasReconciledSuccessfully("default/next");
    assertThat(widgets).within(ofSeconds(5)).isIdle();
    assertThat(widgets).hasReconcileCount("default/slow", 2).hasReconcileCount("default/next", 1);
  }

  @Test
  void should_fail_hasSyncedCaches_before_the_operator_starts(KubernetesClient client) {
    // GIVEN a registered controller whose operator has not started
    Operator operator = Operators.reportingTo(probe, client);
    operator.register(new WidgetReconciler((widget, context) -> UpdateControl.noUpdate()));
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe.controller("widgets")).hasSyncedCaches());
    // THEN
    assertThat(error).hasMessage("""

        Expecting Java Operator SDK controller "widgets"
          to have synced its event source caches
        but 2 of 2 event sources have not synced:
          event source Widget (not started): not synced (not running)
          event source ConfigMap (not started): not synced (not running)
        the Java Operator SDK controller is not running: start it with \
        probe.start(operator, harness), or operator.start() on an Operator built with \
        withMetrics(probe).""");
    operator.stop();
  }

  @Test
  void should_report_one_cache_per_informer_of_each_event_source_once_started(
      KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    Operator operator = Operators.reportingTo(probe, client);
    operator.register(new WidgetReconciler((widget, context) -> UpdateControl.noUpdate()));
    // WHEN
    probe.start(operator, harness);
    // THEN
    ControllerView widgets = probe.controller("widgets");
    assertThat(widgets).hasSyncedCaches();
    assertThat(widgets.isRunning()).isTrue();
    assertThat(widgets.caches()).containsExactly(
        new CacheState("event source Widget (all namespaces)", true, true, true),
        new CacheState("event source ConfigMap (all namespaces)", true, true, true));
    // WHEN the operator stops
    operator.stop();
    // THEN
    assertThat(widgets.isRunning()).isFalse();
    assertThat(widgets.caches()).extracting(CacheState::running).containsExactly(false, false);
  }

  @Test
  void should_watch_the_namespaces_a_controller_is_configured_for(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN a controller limited to two namespaces
    Operator operator = Operators.reportingTo(probe, client);
    operator.register(new WidgetReconciler((widget, context) -> UpdateControl.noUpdate()),
        o -> o.settingNamespaces("default", "kube-public"));
    // WHEN
    probe.start(operator, harness);
    // THEN its own event source has one informer per namespace; the ConfigMap one follows it
    assertThat(probe.controller("widgets").caches()).extracting(CacheState::name).containsExactly(
        "event source Widget (namespace default)",
        "event source Widget (namespace kube-public)",
        "event source ConfigMap (namespace default)",
        "event source ConfigMap (namespace kube-public)");
  }
}
