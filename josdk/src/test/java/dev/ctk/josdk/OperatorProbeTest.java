package dev.ctk.josdk;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.ControllerView;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.Controller;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The probe's API: names, wiring mistakes, and forwarding to the user's own Metrics. */
@ControllerTest(crds = "classpath:crds/widgets.josdk.ctk.dev.yaml")
class OperatorProbeTest {

  private final OperatorProbe probe = OperatorProbe.create();

  @Test
  void should_list_its_controllers_in_registration_order_by_JOSDK_name(KubernetesClient client) {
    // GIVEN
    Operator operator = Operators.reportingTo(probe, client);
    // WHEN
    operator.register(new WidgetCleaner((w, c) -> UpdateControl.noUpdate(),
        (w, c) -> DeleteControl.defaultDelete()));
    operator.register(new WidgetReconciler((w, c) -> UpdateControl.noUpdate()),
        o -> o.withName("other-widgets"));
    // THEN
    assertThat(probe.controllers()).extracting(ControllerView::name)
        .containsExactly("widget-cleaner", "other-widgets");
    assertThat(probe.controller("other-widgets").vocabulary()).isEqualTo(OperatorProbe.VOCABULARY);
    assertThat(probe).hasToString("OperatorProbe of controllers [widget-cleaner, other-widgets]");
    operator.stop();
  }

  @Test
  void should_refuse_an_unknown_controller_name_listing_the_registered_ones(
      KubernetesClient client) {
    // GIVEN
    Operator operator = Operators.reportingTo(probe, client);
    operator.register(new WidgetReconciler((w, c) -> UpdateControl.noUpdate()));
    // WHEN
    IllegalArgumentException error = catchThrowableOfType(IllegalArgumentException.class,
        () -> probe.controller("widgetreconciler"));
    // THEN
    assertThat(error).hasMessage("No Java Operator SDK controller named \"widgetreconciler\" "
        + "reported to this OperatorProbe. Registered controllers: [widgets]. Fix: use the name "
        + "from @ControllerConfiguration(name = ...) (by default the reconciler class's simple "
        + "name in lower case), and register the reconciler on an Operator built with "
        + "withMetrics(probe).");
    operator.stop();
  }

  @Test
  void should_say_none_is_registered_when_asked_for_a_controller_too_early() {
    // WHEN
    IllegalArgumentException error = catchThrowableOfType(IllegalArgumentException.class,
        () -> probe.controller("widgets"));
    // THEN
    assertThat(error).hasMessage("No Java Operator SDK controller named \"widgets\" reported to "
        + "this OperatorProbe. Registered controllers: none. Fix: use the name from "
        + "@ControllerConfiguration(name = ...) (by default the reconciler class's simple name in "
        + "lower case), and register the reconciler on an Operator built with withMetrics(probe).");
  }

  @Test
  void should_refuse_a_second_controller_of_the_same_name(KubernetesClient client) {
    // GIVEN a probe shared by two operators
    Operator first = Operators.reportingTo(probe, client);
    first.register(new WidgetReconciler((w, c) -> UpdateControl.noUpdate()));
    Operator second = Operators.reportingTo(probe, client);
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        () -> second.register(new WidgetReconciler((w, c) -> UpdateControl.noUpdate())));
    // THEN
    assertThat(error).hasMessage("This OperatorProbe already observes a Java Operator SDK "
        + "controller named \"widgets\". Fix: create one OperatorProbe per Operator "
        + "(OperatorProbe.create() in each test), and give each reconciler its own name.");
    first.stop();
    second.stop();
  }

  @Test
  void should_refuse_to_start_an_operator_that_does_not_report_to_it(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN an operator with JOSDK's default metrics
    Operator operator = new Operator(o -> o.withKubernetesClient(client)
        .withCloseClientOnStop(false));
    operator.register(new WidgetReconciler((w, c) -> UpdateControl.noUpdate()));
    // WHEN
    IllegalArgumentException error = catchThrowableOfType(IllegalArgumentException.class,
        () -> probe.start(operator, harness));
    // THEN
    assertThat(error).hasMessage("Cannot start the operator with this OperatorProbe: the operator "
        + "reports to no Metrics (JOSDK's default, Metrics.NOOP), not to this probe. Fix: build it "
        + "with new Operator(o -> o.withMetrics(probe)); to keep your own Metrics, pass "
        + "OperatorProbe.wrapping(yourMetrics) instead.");
    operator.stop();
  }

  @Test
  void should_refuse_to_start_an_operator_without_reconcilers(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN
    Operator operator = Operators.reportingTo(probe, client);
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        () -> probe.start(operator, harness));
    // THEN
    assertThat(error).hasMessage("Cannot start the operator: no reconciler is registered. Fix: "
        + "call operator.register(reconciler) before probe.start(operator, harness).");
    operator.stop();
  }

  @Test
  void should_refuse_to_start_an_operator_that_would_close_the_test_client(
      KubernetesClient client, ControllerHarness harness) {
    // GIVEN JOSDK's default closeClientOnStop = true, on the test's client
    Operator operator = new Operator(o -> o.withKubernetesClient(client).withMetrics(probe));
    operator.register(new WidgetReconciler((w, c) -> UpdateControl.noUpdate()));
    // WHEN
    IllegalArgumentException error = catchThrowableOfType(IllegalArgumentException.class,
        () -> probe.start(operator, harness));
    // THEN
    assertThat(error).hasMessage("Cannot start the operator: it would close the test's "
        + "KubernetesClient when it stops after the test (closeClientOnStop is true, JOSDK's "
        + "default), while the test's cluster still uses it. Fix: build it with new Operator(o -> "
        + "o.withKubernetesClient(client).withCloseClientOnStop(false).withMetrics(probe)).");
    assertThat(client.namespaces().withName("default").get()).isNotNull();
  }

  @Test
  void should_forward_every_call_to_the_wrapped_metrics(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN the user's own Metrics, wrapped
    RecordingMetrics own = new RecordingMetrics();
    OperatorProbe wrapping = OperatorProbe.wrapping(own);
    Operator operator = Operators.reportingTo(wrapping, client);
    operator.register(new WidgetReconciler((w, c) -> UpdateControl.noUpdate()));
    wrapping.start(operator, harness);
    // WHEN
    client.resource(Widget.named("a", "hello")).create();
    // THEN the probe records, and the user's Metrics saw the same processing
    assertThat(wrapping.controller("widgets")).within(ofSeconds(10))
        .hasReconciledSuccessfully("default/a");
    // JOSDK calls reconciliationFinished after reconciliationSucceeded, on its executor thread
    await("the wrapped Metrics to see reconciliationFinished a").atMost(ofSeconds(10))
        .until(() -> own.calls.contains("reconciliationFinished a"));
    assertThat(own.calls).containsSubsequence("controllerRegistered widgets",
        "eventReceived", "reconciliationSubmitted a", "reconciliationStarted a",
        "timeControllerExecution reconcile a", "reconciliationSucceeded a",
        "reconciliationFinished a");
    assertThat(wrapping.toString()).startsWith(
        "OperatorProbe of controllers [widgets], forwarding to " + own);
  }

  /** The user's own Metrics: records the calls it gets. */
  private static final class RecordingMetrics implements Metrics {

    private final List<String> calls = new CopyOnWriteArrayList<>();

    @Override
    public void controllerRegistered(Controller<? extends HasMetadata> controller) {
      calls.add("controllerRegistered " + controller.getConfiguration().getName());
    }

    @Override
    public void eventReceived(io.javaoperatorsdk.operator.processing.event.Event event,
        Map<String, Object> metadata) {
      calls.add("eventReceived");
    }

    @Override
    public void reconciliationSubmitted(HasMetadata resource,
        io.javaoperatorsdk.operator.api.reconciler.RetryInfo retryInfo,
        Map<String, Object> metadata) {
      calls.add("reconciliationSubmitted " + resource.getMetadata().getName());
    }

    @Override
    public void reconciliationStarted(HasMetadata resource, Map<String, Object> metadata) {
      calls.add("reconciliationStarted " + resource.getMetadata().getName());
    }

    @Override
    public void reconciliationSucceeded(HasMetadata resource, Map<String, Object> metadata) {
      calls.add("reconciliationSucceeded " + resource.getMetadata().getName());
    }

    @Override
    public void reconciliationFinished(HasMetadata resource,
        io.javaoperatorsdk.operator.api.reconciler.RetryInfo retryInfo,
        Map<String, Object> metadata) {
      calls.add("reconciliationFinished " + resource.getMetadata().getName());
    }

    @Override
    public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
      calls.add("timeControllerExecution " + execution.name() + " "
          + execution.resourceID().getName());
      return execution.execute();
    }

    @Override
    public String toString() {
      return "RecordingMetrics";
    }
  }
}
