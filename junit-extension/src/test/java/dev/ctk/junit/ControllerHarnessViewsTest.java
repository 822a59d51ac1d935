package dev.ctk.junit;

import static dev.ctk.junit.ControllerHarnessTest.controller;
import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static java.time.Duration.ofHours;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.controller.CacheState;
import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.ControllerStats;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Vocabulary;
import dev.ctk.controller.WorkQueueView;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Isolation;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.commons.JUnitException;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EventType;

/**
 * Controllers that another framework runs, seen through the harness: observed views in the failure
 * report, and {@code closeAfterTest} resources closed with the started controllers.
 */
class ControllerHarnessViewsTest {

  static final Vocabulary JOSDK = new Vocabulary("Java Operator SDK",
      "Java Operator SDK controller", "pending events", "event source",
      Map.of(ReconcileOutcome.SUCCESS, "SUCCESS", ReconcileOutcome.REQUEUE, "REQUEUE",
          ReconcileOutcome.REQUEUE_AFTER, "RESCHEDULE", ReconcileOutcome.ERROR, "ERROR"),
      "operator.start()");

  /** What the fixtures' resources saw when they were closed, in closing order. */
  static final List<String> CLOSED = new CopyOnWriteArrayList<>();
  static final AtomicReference<String> URL = new AtomicReference<>();

  @BeforeEach
  void forget() {
    CLOSED.clear();
    URL.set(null);
  }

  @Test
  void should_report_an_observed_probe_in_its_frameworks_words_when_the_test_fails() {
    // WHEN
    EngineExecutionResults results = run(FailsWithAnObservedProbe.class);
    // THEN the test's own failure is reported unchanged
    assertThat(onlyFailure(results)).isInstanceOf(AssertionError.class)
        .hasMessage("the test's own failure");
    // AND the probe's state is published under its name
    assertThat(reportEntries(results)).containsExactly(
        Map.of("ctk.cluster", where()),
        Map.of("ctk.controller.webapp", """
            Java Operator SDK controller "webapp": running, caches NOT synced
              pending events: queued [default/api], in flight [], waiting [default/bad]; 1 add, \
            1 retry
              reconciles: 3 (1 succeeded, 1 failed, 1 requeued)
              default/bad: 1 reconcile, last ERROR IllegalStateException: backend down
              default/later: 1 reconcile, last RESCHEDULE 1h
              default/web: 1 reconcile, last SUCCESS
              last error of default/bad:
                java.lang.IllegalStateException: backend down
                \tat com.example.Backend.call(Backend.java:12)
                \tat com.example.BadReconciler.reconcile(BadReconciler.java:34)"""));
  }

  @Test
  void should_report_a_view_that_throws_as_unreadable_and_still_report_the_others() {
    // WHEN
    EngineExecutionResults results = run(FailsWithAnUnreadableView.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(AssertionError.class)
        .hasMessage("the test's own failure");
    assertThat(reportEntries(results)).containsExactly(
        Map.of("ctk.cluster", where()),
        Map.of("ctk.controller.broken", """
            Java Operator SDK controller "broken": unreadable, reading its state threw:
                java.lang.IllegalStateException: event sources not registered yet
                \tat com.example.EventSources.require(EventSources.java:21)
                \tat com.example.EventSources.stats(EventSources.java:30)"""),
        Map.of("ctk.controller.fine", """
            controller "fine": running, caches synced
              work queue: queued [], in flight [], waiting []; 0 adds, 0 retries
              reconciles: 0 (0 succeeded, 0 failed, 0 requeued)"""));
  }

  @Test
  void should_close_resources_and_controllers_in_reverse_registration_order_before_the_cluster() {
    // WHEN
    EngineExecutionResults results = run(RegistersResourcesAroundAController.class);
    // THEN
    assertAllPassed(results, 1);
    assertThat(CLOSED).containsExactly(
        "a lambda: controller running, cluster open",
        "second: controller running, cluster open",
        "first: controller closed, cluster open");
  }

  @Test
  void should_wrap_a_checked_exception_from_a_resource_and_still_close_the_others() {
    // WHEN
    EngineExecutionResults results = run(ClosesAResourceThatThrows.class);
    // THEN JUnit reports the test failed while its extension context closed, with ctk's message
    Throwable failure = onlyFailure(results);
    assertThat(failure).isInstanceOf(JUnitException.class)
        .hasMessage("Failed to close extension context");
    failure = failure.getCause();
    assertThat(failure).isInstanceOf(IllegalStateException.class).hasMessage("Closing "
        + "closeAfterTest resource #2 (Resource[disk]) after the test failed: "
        + "java.io.IOException: disk gone. The other controllers and resources of the test were "
        + "closed; the cause has the whole error, with its stack trace. Fix the resource's close(), "
        + "or close it in the test itself.");
    assertThat(failure.getCause()).isInstanceOf(IOException.class).hasMessage("disk gone");
    assertThat(CLOSED).containsExactly("disk: controller running, cluster open",
        "first: controller closed, cluster open");
  }

  @Test
  void should_refuse_to_observe_or_register_after_the_test_is_over() {
    // WHEN the second test uses the harness of the first
    EngineExecutionResults results = run(UsesTheHarnessOfAnEarlierTest.class);
    // THEN
    assertAllPassed(results, 2);
  }

  @Test
  void should_refuse_to_observe_a_view_twice() {
    // WHEN
    EngineExecutionResults results = run(ObservesTwice.class);
    // THEN
    assertAllPassed(results, 2);
  }

  private static String where() {
    return "fake mode, ctk fake API server at " + URL.get() + ", namespace default";
  }

  private static List<Map<String, String>> reportEntries(EngineExecutionResults results) {
    return results.allEvents().stream()
        .filter(e -> e.getType() == EventType.REPORTING_ENTRY_PUBLISHED)
        .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs())
        .filter(entry -> !entry.containsKey("ctk.timeline"))   // TimelineTest checks the timeline
        .collect(Collectors.toList());
  }

  /** Records, when closed, whether the controller still ran and whether the cluster answered. */
  record Resource(String name, KubernetesClient client, AtomicReference<Controller> controller)
      implements AutoCloseable {

    @Override
    public void close() {
      CLOSED.add(name + ": " + state(client, controller.get()));
    }

    @Override
    public String toString() {
      return "Resource[" + name + "]";
    }
  }

  /** Records like {@link Resource}, then fails with a checked exception. */
  record FailingResource(KubernetesClient client, AtomicReference<Controller> controller)
      implements AutoCloseable {

    @Override
    public void close() throws IOException {
      CLOSED.add("disk: " + state(client, controller.get()));
      throw new IOException("disk gone");
    }

    @Override
    public String toString() {
      return "Resource[disk]";
    }
  }

  static String state(KubernetesClient client, Controller controller) {
    String cluster;
    try {
      client.configMaps().inNamespace("default").list();
      cluster = "open";
    } catch (RuntimeException e) {
      cluster = "closed";
    }
    return "controller " + (controller.isRunning() ? "running" : "closed") + ", cluster "
        + cluster;
  }

  @Fixture
  @ControllerTest
  static class FailsWithAnObservedProbe {

    @Test
    void fails(ControllerHarness harness) {
      URL.set(harness.cluster().url());
      ControllerProbe probe = harness.observe(ControllerProbe.builder("webapp")
          .withVocabulary(JOSDK).build());
      probe.watchCaches(() -> List.of(new CacheState("event source WebApp", false, true, false)));
      probe.reconcileStarted(ObjectKey.of("default", "web")).succeeded();
      probe.reconcileStarted(ObjectKey.of("default", "bad"))
          .failed(ControllerHarnessTest.backendDown());
      probe.addedRateLimited(ObjectKey.of("default", "bad"), ofHours(1));
      probe.reconcileStarted(ObjectKey.of("default", "later")).requeuedAfter(ofHours(1));
      probe.removed(ObjectKey.of("default", "later"));
      probe.added(ObjectKey.of("default", "api"));
      throw new AssertionError("the test's own failure");
    }
  }

  @Fixture
  @ControllerTest
  static class FailsWithAnUnreadableView {

    @Test
    void fails(ControllerHarness harness) {
      URL.set(harness.cluster().url());
      harness.observe(new BrokenView());
      harness.observe(ControllerProbe.create("fine"));
      throw new AssertionError("the test's own failure");
    }
  }

  @Fixture
  @ControllerTest
  static class RegistersResourcesAroundAController {

    @Test
    void registers(KubernetesClient client, ControllerHarness harness) {
      AtomicReference<Controller> controller = new AtomicReference<>();
      harness.closeAfterTest(new Resource("first", client, controller));
      controller.set(harness.start(controller(client, "order-probe")));
      harness.closeAfterTest(new Resource("second", client, controller));
      AutoCloseable lambda = () -> CLOSED.add("a lambda: " + state(client, controller.get()));
      assertThat(harness.closeAfterTest(lambda)).isSameAs(lambda);
    }
  }

  @Fixture
  @ControllerTest
  static class ClosesAResourceThatThrows {

    @Test
    void registers(KubernetesClient client, ControllerHarness harness) {
      AtomicReference<Controller> controller = new AtomicReference<>();
      harness.closeAfterTest(new Resource("first", client, controller));
      controller.set(harness.start(controller(client, "throwing-probe")));
      harness.closeAfterTest(new FailingResource(client, controller));
    }
  }

  /** The first test keeps its harness; the second uses it after the first test is over. */
  @Fixture
  @ControllerTest
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class UsesTheHarnessOfAnEarlierTest {

    static ControllerHarness earlier;

    @Test
    @Order(1)
    void keeps(ControllerHarness harness) {
      earlier = harness;
    }

    @Test
    @Order(2)
    void usesItLater() {
      IllegalStateException observing = catchThrowableOfType(IllegalStateException.class,
          () -> earlier.observe(ControllerProbe.builder("webapp").withVocabulary(JOSDK).build()));
      IllegalStateException registering = catchThrowableOfType(IllegalStateException.class,
          () -> earlier.closeAfterTest(new Resource("late", null, null)));
      IllegalStateException registeringALambda = catchThrowableOfType(
          IllegalStateException.class, () -> earlier.closeAfterTest(() -> { }));
      assertThat(observing).hasMessage("Cannot observe Java Operator SDK controller \"webapp\": "
          + "the test this ControllerHarness belongs to is over and its controllers were closed. "
          + "Use the harness injected into the current test.");
      assertThat(registering).hasMessage("Cannot register closeAfterTest resource #1 "
          + "(Resource[late]): the test this ControllerHarness belongs to is over and its "
          + "controllers were closed. Use the harness injected into the current test.");
      assertThat(registeringALambda).hasMessage("Cannot register closeAfterTest resource #1 "
          + "(a lambda): the test this ControllerHarness belongs to is over and its controllers "
          + "were closed. Use the harness injected into the current test.");
    }
  }

  @Fixture
  @ControllerTest(isolation = Isolation.PER_CLASS)
  static class ObservesTwice {

    static ControllerProbe classProbe;

    @BeforeAll
    static void observe(ControllerHarness harness) {
      classProbe = harness.observe(ControllerProbe.builder("webapp").withVocabulary(JOSDK)
          .build());
    }

    @Test
    void inTheSameHarness(KubernetesClient client, ControllerHarness harness) {
      ControllerProbe probe = harness.observe(ControllerProbe.create("config-syncer"));
      Controller started = harness.start(controller(client, "started-probe"));
      IllegalStateException again = catchThrowableOfType(IllegalStateException.class,
          () -> harness.observe(probe));
      IllegalStateException startedOne = catchThrowableOfType(IllegalStateException.class,
          () -> harness.observe(started));
      assertThat(again).hasMessage("Controller \"config-syncer\" is already observed by this "
          + "harness (observed or started before). Observe each controller once.");
      assertThat(startedOne).hasMessage("Controller \"started-probe\" is already observed by "
          + "this harness (observed or started before). Observe each controller once.");
      assertThat(harness.views()).containsExactly(classProbe, probe, started);
    }

    @Test
    void inAnEnclosingHarness(ControllerHarness harness) {
      IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
          () -> harness.observe(classProbe));
      assertThat(error).hasMessage("Java Operator SDK controller \"webapp\" is already observed "
          + "by the harness of an enclosing class, whose failure reports cover this test too. "
          + "Observe each controller once.");
      assertThat(harness.views()).containsExactly(classProbe);
    }
  }

  /** A view whose state cannot be read, as a framework's may be before it registered its sources. */
  static final class BrokenView implements ControllerView {

    @Override
    public String name() {
      return "broken";
    }

    @Override
    public Vocabulary vocabulary() {
      return JOSDK;
    }

    @Override
    public boolean isRunning() {
      return true;
    }

    @Override
    public List<CacheState> caches() {
      return List.of();
    }

    @Override
    public WorkQueueView workQueue() {
      throw notRegistered();
    }

    @Override
    public ControllerStats stats() {
      throw notRegistered();
    }

    @Override
    public List<ReconcileRecord> reconcileLog() {
      throw notRegistered();
    }

    private static IllegalStateException notRegistered() {
      IllegalStateException error = new IllegalStateException("event sources not registered yet");
      error.setStackTrace(new StackTraceElement[] {
          new StackTraceElement("com.example.EventSources", "require", "EventSources.java", 21),
          new StackTraceElement("com.example.EventSources", "stats", "EventSources.java", 30)});
      return error;
    }
  }
}
