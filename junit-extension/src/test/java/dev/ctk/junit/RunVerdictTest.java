package dev.ctk.junit;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.junit.RestartableControllerTest.configMap;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.assertions.internal.EarlyStop.RunStoppedEarly;
import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Result;
import dev.ctk.harness.RestartableController;
import dev.ctk.harness.internal.perturb.PerturbationPoint;
import dev.ctk.harness.internal.perturb.PerturbationTracker;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.junit.jupiter.api.Test;

/**
 * A perturbed run stops the test's waits once nothing can change any more ({@code RunVerdict}, armed by {@link
 * PerturbationTracker#stopWaitsEarly()}), never while a key waits on a delay, and releases a stale view while the
 * test waits on what it holds back.
 */
class RunVerdictTest extends FakeHarnessFixture {

  /** A tracker whose point is never reached: it only arms the verdict. */
  private void armed() {
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.crashAfter(99));
    tracker.stopWaitsEarly();
  }

  @Test
  void should_stop_a_tests_await_once_nothing_changed_while_its_condition_stayed_false() {
    // GIVEN an idle controller
    armed();
    harness.start(() -> RestartableControllerTest.configMapController(client, "idle", Result.done()));
    client.configMaps().resource(configMap("web")).create();
    // WHEN the test waits for something no one will do
    TerminalFailureException stopped = catchThrowableOfType(TerminalFailureException.class, () ->
        await("ConfigMap never to appear").atMost(ofSeconds(30))
            .until(() -> client.configMaps().withName("never").get() != null));
    // THEN
    assertThat(stopped).hasMessage("ctk stopped this perturbed run's wait: its outcome could no longer change");
    assertThat(stopped.getCause()).isInstanceOf(RunStoppedEarly.class).hasMessageContaining(" ms in which nothing "
        + "changed: no write reached the cluster (resourceVersion ").hasMessageContaining("every controller was idle "
        + "(no key queued, in flight or waiting on a delay, no reconcile), every informer was watching");
  }

  @Test
  void should_stop_a_ctk_assertion_that_waits_and_keep_its_own_message() {
    // GIVEN
    armed();
    RestartableController controller = harness.start(() ->
        RestartableControllerTest.configMapController(client, "idle", Result.done()));
    client.configMaps().resource(configMap("web")).create();
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
    // WHEN
    AssertionError failure = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).within(ofSeconds(30)).hasReconcileCount("default/web", 5));
    // THEN the assertion's own failure, with why it was stopped
    assertThat(failure).hasMessageContaining("within 30s").hasMessageContaining("(ctk stopped this perturbed run's "
        + "wait after ");
  }

  @Test
  void should_not_stop_a_wait_while_a_key_waits_on_a_delay() {
    // GIVEN a controller that requeues web once, 1.5 s later: idle meanwhile, but with a key waiting
    armed();
    Set<String> requeued = ConcurrentHashMap.newKeySet();
    RestartableController controller = harness.start(() -> Controller.builder("delayed")
        .watch(client.configMaps().inNamespace("default").runnableInformer(0), EventHandlers.enqueueObject())
        .withReconciler(key -> requeued.add(key.toString()) ? Result.requeueAfter(ofMillis(1500)) : Result.done())
        .build());
    client.configMaps().resource(configMap("web")).create();
    // WHEN the test waits for the second reconcile
    await("the delayed second reconcile").atMost(ofSeconds(10))
        .until(() -> controller.reconcileLog().size() == 2);
    // THEN it came: the wait was not stopped while the key waited
    assertThat(controller.reconcileLog()).hasSize(2);
  }

  @Test
  void should_leave_waits_alone_after_the_test_settled() {
    // GIVEN
    armed();
    harness.start(() -> RestartableControllerTest.configMapController(client, "idle", Result.done()));
    assertThat(tracker.settle(ofSeconds(10))).isTrue();
    // WHEN
    Throwable timeout = catchThrowableOfType(ConditionTimeoutException.class, () ->
        await().atMost(ofMillis(900)).until(() -> false));
    // THEN it ran to its timeout
    assertThat(timeout).isNotNull();
  }

  @Test
  void should_leave_a_tests_own_default_fail_fast_condition_in_place() {
    // GIVEN the test's own default fail-fast condition, which never fails
    Awaitility.setDefaultFailFastCondition("the test's own", () -> false);
    try {
      armed();
      harness.start(() -> RestartableControllerTest.configMapController(client, "idle", Result.done()));
      // WHEN
      Throwable timeout = catchThrowableOfType(ConditionTimeoutException.class, () ->
          await().atMost(ofMillis(1200)).until(() -> false));
      // THEN ctk did not replace it: the wait ran to its timeout
      assertThat(timeout).isNotNull();
    } finally {
      Awaitility.reset();
    }
  }

  @Test
  void should_release_a_stale_view_while_the_test_waits_for_what_it_holds_back() {
    // GIVEN a stale view from ConfigMap event 2: the controller's own patch of web
    tracker = PerturbationTracker.attach(cluster, harness, PerturbationPoint.staleView("ConfigMap", 2));
    tracker.stopWaitsEarly();
    RestartableController controller = harness.start(() -> PerturbationTrackerViewsTest.requeueingOnce(client));
    client.configMaps().resource(configMap("web")).create();
    // WHEN the test waits until the controller's cache shows the patch, which the hold keeps back
    await("the patch in the controller's cache").atMost(ofSeconds(10)).until(() -> {
      Object cached = controller.current().informers().get(0).getStore().getByKey("default/web");
      return cached != null && PerturbationTrackerTest.isSynced((ConfigMap) cached);
    });
    // THEN the view was released because the test waited, not at its 2 s bound
    assertThat(tracker.injections()).anySatisfy(line -> assertThat(line).contains("released 1 held ConfigMap watch "
        + "event in order while the test waited and nothing moved for 100 ms (it could not make the write the view "
        + "waits for)"));
    assertThat(tracker.fired()).isTrue();
  }
}
