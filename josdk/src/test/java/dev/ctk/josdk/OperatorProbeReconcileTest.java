package dev.ctk.josdk;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** Reconcile outcomes of a real JOSDK operator (default configuration) on the fake, as ctk records them. */
@ControllerTest(crds = "classpath:crds/widgets.josdk.ctk.dev.yaml")
class OperatorProbeReconcileTest {

  private static final ObjectKey A = ObjectKey.of("default", "a");

  private final OperatorProbe probe = OperatorProbe.create();

  @Test
  void should_record_a_success_per_resource_with_the_status_patched_by_server_side_apply(
      KubernetesClient client, ControllerHarness harness) {
    // GIVEN a reconciler that writes what it saw into the status
    Operator operator = Operators.reportingTo(probe, client);
    operator.register(new WidgetReconciler((widget, context) -> {
      Widget patch = new Widget();
      patch.getMetadata().setName(widget.getMetadata().getName());
      patch.getMetadata().setNamespace(widget.getMetadata().getNamespace());
      patch.setStatus(new Widget.Status());
      patch.getStatus().setSeen(widget.getSpec().getMessage());
      patch.getStatus().setObservedGeneration(widget.getMetadata().getGeneration());
      return UpdateControl.patchStatus(patch);
    }));
    probe.start(operator, harness);
    // WHEN
    client.resource(Widget.named("a", "hello")).create();
    client.resource(Widget.named("b", "world")).create();
    // THEN
    ControllerView widgets = probe.controller("widgets");
    assertThat(widgets).within(ofSeconds(10))
        .hasReconciledSuccessfully("default/a")
        .hasReconciledSuccessfully("default/b");
    assertThat(widgets).within(ofSeconds(5)).isIdle();
    assertThat(widgets).hasReconcileCount("default/a", 1).hasReconcileCount("default/b", 1);
    Widget a = client.resources(Widget.class).withName("a").get();
    assertThat(a.getStatus().getSeen()).isEqualTo("hello");
    assertThat(a.getStatus().getObservedGeneration()).isEqualTo(a.getMetadata().getGeneration());
  }

  @Test
  void should_record_each_failed_attempt_with_JOSDK_retry_count_until_a_retry_succeeds(
      KubernetesClient client, ControllerHarness harness) {
    // GIVEN a reconciler that fails its first two attempts; retries every 50ms
    Operator operator = Operators.reportingTo(probe, client);
    operator.register(new WidgetReconciler((widget, context) -> {
      int attempt = context.getRetryInfo().map(r -> r.getAttemptCount()).orElse(0);
      if (attempt < 2) {
        throw new IllegalStateException("backend down (attempt " + attempt + ")");
      }
      return UpdateControl.noUpdate();
    }), o -> o.withRetry(Operators.retryEvery(ofMillis(50))));
    probe.start(operator, harness);
    // WHEN
    client.resource(Widget.named("a", "hello")).create();
    // THEN
    ControllerView widgets = probe.controller("widgets");
    assertThat(widgets).within(ofSeconds(10)).hasReconciledSuccessfully("default/a");
    assertThat(widgets).hasFailedToReconcile("default/a", IllegalStateException.class)
        .hasFailedToReconcileWithMessageContaining("default/a", "backend down (attempt 1)")
        .hasReconcileCount("default/a", 3)
        .workQueue().hasRetried(2);
    List<ReconcileRecord> log = widgets.reconcileLog(A);
    assertThat(log).extracting(ReconcileRecord::outcome).containsExactly(
        ReconcileOutcome.ERROR, ReconcileOutcome.ERROR, ReconcileOutcome.SUCCESS);
    assertThat(log).extracting(ReconcileRecord::attempt).containsExactly(0, 1, 2);
  }

  @Test
  void should_fail_hasReconciledSuccessfully_in_JOSDK_words_while_a_retry_is_due(
      KubernetesClient client, ControllerHarness harness) {
    // GIVEN a reconciler that always fails; JOSDK retries only after an hour
    Operator operator = Operators.reportingTo(probe, client);
    operator.register(new WidgetReconciler((widget, context) -> {
      throw new IllegalStateException("backend down");
    }), o -> o.withRetry(Operators.retryEvery(ofHours(1))));
    probe.start(operator, harness);
    client.resource(Widget.named("a", "hello")).create();
    ControllerView widgets = probe.controller("widgets");
    assertThat(widgets).within(ofSeconds(10)).hasFailedToReconcile("default/a");
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(widgets).hasReconciledSuccessfully("default/a"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting Java Operator SDK controller "widgets"
          to have reconciled default/a successfully
        but its last reconcile failed:
          ERROR IllegalStateException: backend down
        reconciles of default/a: 1 (oldest first)
          1. ERROR IllegalStateException: backend down
        pending events: queued [], in flight [], waiting [default/a]""");
    assertThat(widgets).workQueue().hasRetried(1);
  }

  @Test
  void should_record_a_reschedule_as_RESCHEDULE_and_reconcile_again_after_its_delay(
      KubernetesClient client, ControllerHarness harness) {
    // GIVEN a reconciler that asks to be rescheduled after 100ms once, then is done
    AtomicInteger calls = new AtomicInteger();
    Operator operator = Operators.reportingTo(probe, client);
    operator.register(new WidgetReconciler((widget, context) -> calls.incrementAndGet() == 1
        ? UpdateControl.<Widget>noUpdate().rescheduleAfter(ofMillis(100))
        : UpdateControl.noUpdate()));
    probe.start(operator, harness);
    // WHEN
    client.resource(Widget.named("a", "hello")).create();
    // THEN
    ControllerView widgets = probe.controller("widgets");
    assertThat(widgets).within(ofSeconds(10)).hasReconcileCount("default/a", 2);
    assertThat(widgets.reconcileLog(A)).extracting(ReconcileRecord::outcome, ReconcileRecord::requeueAfter)
        .containsExactly(Tuple.tuple(ReconcileOutcome.REQUEUE_AFTER, ofMillis(100)),
            Tuple.tuple(ReconcileOutcome.SUCCESS, null));
    assertThat(widgets).within(ofSeconds(5)).isIdle();
  }

  @Test
  void should_record_an_instant_reschedule_as_RESCHEDULE_after_0_and_keep_the_key_pending(
      KubernetesClient client, ControllerHarness harness) {
    // GIVEN a reconciler that asks for an instant reschedule once, then is done
    AtomicInteger calls = new AtomicInteger();
    Operator operator = Operators.reportingTo(probe, client);
    operator.register(new WidgetReconciler((widget, context) -> calls.incrementAndGet() == 1
        ? UpdateControl.<Widget>noUpdate().reschedule()
        : UpdateControl.noUpdate()));
    probe.start(operator, harness);
    // WHEN
    client.resource(Widget.named("a", "hello")).create();
    // THEN the reschedule's event is counted once, as one more add of the key
    ControllerView widgets = probe.controller("widgets");
    assertThat(widgets).within(ofSeconds(10)).hasReconcileCount("default/a", 2);
    assertThat(widgets.reconcileLog(A)).extracting(ReconcileRecord::outcome, ReconcileRecord::requeueAfter)
        .containsExactly(Tuple.tuple(ReconcileOutcome.REQUEUE_AFTER, ofMillis(0)),
            Tuple.tuple(ReconcileOutcome.SUCCESS, null));
    assertThat(widgets).within(ofSeconds(5)).isIdle();
    assertThat(widgets.workQueue().stats().adds()).isEqualTo(2);
  }

  @Test
  void should_show_a_rescheduled_key_as_waiting_and_settled(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN a reconciler that reschedules after an hour, as a periodic check does
    Operator operator = Operators.reportingTo(probe, client);
    operator.register(new WidgetReconciler(
        (widget, context) -> UpdateControl.<Widget>noUpdate().rescheduleAfter(ofHours(1))));
    probe.start(operator, harness);
    // WHEN
    client.resource(Widget.named("a", "hello")).create();
    // THEN the reconcile counts as successful, and the key waits for its reschedule
    ControllerView widgets = probe.controller("widgets");
    assertThat(widgets).within(ofSeconds(10)).hasReconciledSuccessfully("default/a");
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(widgets).isIdle());
    assertThat(error).hasMessage("""

        Expecting Java Operator SDK controller "widgets"
          to be idle (running, caches synced, pending events empty)
        but its pending events held 1 key:
          queued: []
          in flight: []
          waiting (delayed or backing off): [default/a]""");
  }

  @Test
  void should_record_the_cleanup_as_a_reconcile_and_let_the_finalizer_go(
      KubernetesClient client, ControllerHarness harness) {
    // GIVEN a reconciler with a cleanup, so JOSDK adds its finalizer; the first cleanup fails
    List<String> cleanups = new CopyOnWriteArrayList<>();
    Operator operator = Operators.reportingTo(probe, client);
    operator.register(new WidgetCleaner((widget, context) -> UpdateControl.noUpdate(),
        (widget, context) -> {
          cleanups.add(widget.getMetadata().getName());
          if (cleanups.size() == 1) {
            throw new IllegalStateException("cannot deregister yet");
          }
          return DeleteControl.defaultDelete();
        }), o -> o.withRetry(Operators.retryEvery(ofMillis(50))));
    probe.start(operator, harness);
    ControllerView cleaner = probe.controller("widget-cleaner");
    client.resource(Widget.named("a", "hello")).create();
    assertThat(cleaner).within(ofSeconds(10)).hasReconciledSuccessfully("default/a");
    // THEN JOSDK's execution that only added the finalizer is not a reconcile
    assertThat(client.resources(Widget.class).withName("a").get().getMetadata().getFinalizers())
        .containsExactly("widgets.josdk.ctk.dev/finalizer");
    assertThat(cleaner).hasReconcileCount("default/a", 1);
    // WHEN
    client.resources(Widget.class).withName("a").delete();
    // THEN the cleanup ran twice (failed, then let the finalizer go) and the widget is gone
    await("widget default/a deleted once its finalizer is removed").atMost(ofSeconds(10))
        .until(() -> client.resources(Widget.class).withName("a").get() == null);
    assertThat(cleanups).containsExactly("a", "a");
    assertThat(cleaner).within(ofSeconds(5)).hasReconcileCount("default/a", 3);
    assertThat(cleaner).hasFailedToReconcile("default/a", IllegalStateException.class)
        .hasReconciledSuccessfully("default/a");
    assertThat(cleaner.reconcileLog(A)).extracting(ReconcileRecord::outcome).containsExactly(
        ReconcileOutcome.SUCCESS, ReconcileOutcome.ERROR, ReconcileOutcome.SUCCESS);
    assertThat(cleaner).within(ofSeconds(5)).isIdle();
  }
}
