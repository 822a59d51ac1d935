package dev.ctk.junit;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.RateLimiter;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Result;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.TestScope;
import dev.ctk.harness.internal.FakeTestCluster;
import dev.ctk.harness.values.Isolation;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestClassOrder;
import org.junit.platform.testkit.engine.EventType;

/** Controllers started through the harness: closed after the test, reported when it fails. */
class ControllerHarnessTest {

  static final List<Controller> STARTED = new CopyOnWriteArrayList<>();
  static final AtomicReference<String> LATE_RECONCILE_OUTCOME = new AtomicReference<>();

  @BeforeEach
  void forget() {
    STARTED.clear();
  }

  @Test
  void should_close_harnessed_controllers_after_the_test_leaving_no_thread() {
    // WHEN
    var results = run(StartsTwoControllers.class);
    // THEN
    assertAllPassed(results, 1);
    assertThat(STARTED).hasSize(2).noneMatch(Controller::isRunning);
    await("the worker threads of the controllers this test started to end").atMost(ofSeconds(10))
        .untilAsserted(() -> assertThat(workerThreadsOf(STARTED)).isEmpty());
  }

  @Test
  void should_keep_controllers_started_in_before_all_running_for_the_whole_class() {
    // WHEN
    var results = run(StartsInBeforeAll.class);
    // THEN
    assertAllPassed(results, 2);
    assertThat(STARTED).hasSize(1).noneMatch(Controller::isRunning);
  }

  @Test
  void should_stop_controllers_started_in_a_nested_before_all_when_that_nested_class_ends() {
    // WHEN
    var results = run(StartsInNestedBeforeAll.class);
    // THEN the sibling class ran after the first one, without its controller
    assertAllPassed(results, 3);
    assertThat(STARTED).extracting(Controller::name)
        .containsExactly("outer-probe", "first-nested-probe");
    assertThat(STARTED).noneMatch(Controller::isRunning);
  }

  @Test
  void should_return_from_start_only_once_every_informer_watches() {
    // WHEN the fixture checks the informers right after start(..)
    var results = run(ChecksWatchesRightAfterStart.class);
    // THEN
    assertAllPassed(results, 1);
  }

  @Test
  void should_leave_no_half_opened_watch_when_a_controller_is_closed_right_after_start() {
    // GIVEN fabric8 logs "listSyncAndWatch failed ... Client is closed" when an informer is stopped
    // before its watch opened and the client closes under the pending watch request
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    PrintStream original = System.err;
    // WHEN controllers are closed as soon as they started, several times
    System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    try {
      for (int i = 0; i < 5; i++) {
        assertAllPassed(run(StartsTwoControllers.class), 1);
      }
    } finally {
      System.setErr(original);
    }
    // THEN
    assertThat(stderr.toString(StandardCharsets.UTF_8)).doesNotContain("listSyncAndWatch failed")
        .doesNotContain("Client is closed");
  }

  @Test
  void should_close_controllers_before_the_cluster_so_a_reconcile_running_at_the_end_can_use_it() {
    // GIVEN a reconcile that is still running when its test ends, and that calls the client only once
    // its controller is being closed
    LATE_RECONCILE_OUTCOME.set(null);
    // WHEN
    var results = run(ReconcilesWhileTheTestEnds.class);
    // THEN the reconcile found the cluster open
    assertAllPassed(results, 1);
    assertThat(STARTED).hasSize(1).noneMatch(Controller::isRunning);
    assertThat(LATE_RECONCILE_OUTCOME.get()).isEqualTo("read default/late after the controller "
        + "began to close");
    assertThat(STARTED.get(0).reconcileLog()).extracting(ReconcileRecord::outcome)
        .containsExactly(ReconcileOutcome.SUCCESS);
  }

  @Test
  void should_report_the_state_of_each_controller_when_a_test_fails() {
    // GIVEN
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    PrintStream original = System.err;
    // WHEN
    org.junit.platform.testkit.engine.EngineExecutionResults results;
    System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    try {
      results = run(FailsWithAController.class);
    } finally {
      System.setErr(original);
    }
    // THEN the test's own failure is reported unchanged
    assertThat(onlyFailure(results)).isInstanceOf(AssertionError.class)
        .hasMessage("the test's own failure");
    // AND the controller's state is published as a report entry
    String report = """
        controller "report-probe": running, caches synced
          work queue: queued [], in flight [], waiting [default/bad]; 2 adds, 1 retry
          reconciles: 2 (1 succeeded, 1 failed, 0 requeued)
          default/bad: 1 reconcile, last ERROR IllegalStateException: backend down
          default/web: 1 reconcile, last SUCCESS
          last error of default/bad:
            java.lang.IllegalStateException: backend down
            \tat com.example.Backend.call(Backend.java:12)
            \tat com.example.BadReconciler.reconcile(BadReconciler.java:34)""";
    List<Map<String, String>> entries = results.allEvents().stream()
        .filter(e -> e.getType() == EventType.REPORTING_ENTRY_PUBLISHED)
        .map(e -> e.getPayload(org.junit.platform.engine.reporting.ReportEntry.class)
            .orElseThrow().getKeyValuePairs())
        .filter(entry -> !entry.containsKey("ctk.timeline"))   // TimelineTest checks the timeline
        .collect(Collectors.toList());
    String where = "fake mode, ctk fake API server at " + FailsWithAController.url
        + ", namespace default";
    assertThat(entries).containsExactly(Map.of("ctk.cluster", where),
        Map.of("ctk.controller.report-probe", report));
    // AND printed to standard error, with the mode, the server and the namespace
    assertThat(stderr.toString(StandardCharsets.UTF_8))
        .contains("[ctk] fails(KubernetesClient, ControllerHarness) failed (" + where + "); "
            + report + "\n");
  }

  @Test
  void should_not_report_anything_when_the_test_passes() {
    // WHEN
    var results = run(StartsTwoControllers.class);
    // THEN
    assertAllPassed(results, 1);
    assertThat(results.allEvents().reportingEntryPublished().count()).isZero();
  }

  @Test
  void should_refuse_to_start_a_controller_after_the_test_is_over() {
    // GIVEN a harness whose test is over
    try (FakeCluster cluster = FakeCluster.start()) {
      ControllerHarness harness = TestScope.owning(new FakeTestCluster(cluster)).harness();
      harness.close();
      Controller controller = controller(cluster.client(), "late");
      // WHEN
      IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
          () -> harness.start(controller));
      // THEN
      assertThat(error).hasMessage("Cannot start controller \"late\": the test this "
          + "ControllerHarness belongs to is over and its controllers were closed. Use the "
          + "harness injected into the current test.");
      assertThat(controller.isRunning()).isFalse();
    }
  }

  static Controller controller(KubernetesClient client, String name) {
    return Controller.builder(name)
        .watch(client.configMaps().inNamespace("default").runnableInformer(0),
            EventHandlers.enqueueObject())
        .withReconciler(key -> {
          if (key.name().equals("bad")) {
            throw backendDown();
          }
          return Result.done();
        })
        .withWorkers(2)
        .withRateLimiter(RateLimiter.exponential(ofHours(1), ofHours(1)))
        .build();
  }

  /** The error of default/bad: its stack trace is fixed, so that reports are whole strings. */
  static IllegalStateException backendDown() {
    IllegalStateException error = new IllegalStateException("backend down");
    error.setStackTrace(new StackTraceElement[] {
        new StackTraceElement("com.example.Backend", "call", "Backend.java", 12),
        new StackTraceElement("com.example.BadReconciler", "reconcile", "BadReconciler.java", 34)});
    return error;
  }

  static List<String> threadNames() {
    return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
        .collect(Collectors.toList());
  }

  /** The live worker threads ({@code ctk-<name>-worker-<i>}) of these controllers, and no other. */
  static List<String> workerThreadsOf(List<Controller> controllers) {
    return threadNames().stream()
        .filter(name -> controllers.stream()
            .anyMatch(c -> name.startsWith("ctk-" + c.name() + "-worker-")))
        .collect(Collectors.toList());
  }

  static boolean awaitLatch(CountDownLatch latch) {
    try {
      return latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static void create(KubernetesClient client, String name) {
    client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata()
        .withName(name).endMetadata().build()).create();
  }

  @Fixture
  @ControllerTest
  static class StartsTwoControllers {

    @Test
    void starts(KubernetesClient client, ControllerHarness harness) {
      Controller a = harness.start(controller(client, "close-probe-a"));
      Controller b = harness.start(controller(client, "close-probe-b"));
      STARTED.addAll(List.of(a, b));
      assertThat(harness.controllers()).containsExactly(a, b);
      assertThat(a).hasSyncedCaches();
      assertThat(workerThreadsOf(List.of(a))).isNotEmpty();
    }
  }

  @Fixture
  @ControllerTest
  static class ChecksWatchesRightAfterStart {

    @Test
    void watches(KubernetesClient client, ControllerHarness harness) {
      Controller controller = harness.start(controller(client, "watch-probe"));
      assertThat(controller.informers()).isNotEmpty().allMatch(SharedIndexInformer::isWatching);
    }
  }

  /** The outer class's controller runs throughout; each nested class sees only its own. */
  @Fixture
  @ControllerTest(isolation = Isolation.PER_CLASS)
  @TestClassOrder(ClassOrderer.OrderAnnotation.class)
  static class StartsInNestedBeforeAll {

    private static Controller outer;
    private static Controller firstNested;

    @BeforeAll
    static void start(KubernetesClient client, ControllerHarness harness) {
      outer = harness.start(controller(client, "outer-probe"));
      STARTED.add(outer);
    }

    @Nested
    @Order(1)
    class First {

      @BeforeAll
      static void start(KubernetesClient client, ControllerHarness harness) {
        firstNested = harness.start(controller(client, "first-nested-probe"));
        STARTED.add(firstNested);
      }

      @Test
      void seesBoth(ControllerHarness harness) {
        assertThat(harness.controllers()).containsExactly(outer, firstNested);
        assertThat(firstNested.isRunning()).isTrue();
      }
    }

    @Nested
    @Order(2)
    class Second {

      @Test
      void seesOnlyTheOuterOne(ControllerHarness harness) {
        assertThat(harness.controllers()).containsExactly(outer);
        assertThat(firstNested.isRunning()).as("the first nested class's controller").isFalse();
        assertThat(outer.isRunning()).isTrue();
      }
    }

    @Test
    void outerTest(ControllerHarness harness) {
      assertThat(harness.controllers()).containsExactly(outer);
    }
  }

  /**
   * The reconcile of default/late blocks until its controller is being closed (the queue shuts down
   * first), then reads the object through the shared client.
   */
  @Fixture
  @ControllerTest
  static class ReconcilesWhileTheTestEnds {

    @Test
    void endsWhileAReconcileRuns(KubernetesClient client, ControllerHarness harness) {
      CountDownLatch reconciling = new CountDownLatch(1);
      AtomicReference<Controller> self = new AtomicReference<>();
      Controller controller = Controller.builder("late-probe")
          .watch(client.configMaps().inNamespace("default").runnableInformer(0),
              EventHandlers.enqueueObject())
          .withReconciler(key -> {
            reconciling.countDown();
            await("controller \"late-probe\" to begin closing").atMost(ofSeconds(30))
                .until(() -> self.get().workQueue().isShuttingDown());
            ConfigMap read = client.configMaps().inNamespace(key.namespace())
                .withName(key.name()).get();
            LATE_RECONCILE_OUTCOME.set("read " + ObjectKey.of(read)
                + " after the controller began to close");
            return Result.done();
          })
          .build();
      self.set(controller);
      STARTED.add(harness.start(controller));
      create(client, "late");
      assertThat(awaitLatch(reconciling)).as("the reconcile of default/late started").isTrue();
    }
  }

  @Fixture
  @ControllerTest(isolation = Isolation.PER_CLASS)
  static class StartsInBeforeAll {

    private static Controller shared;

    @BeforeAll
    static void start(KubernetesClient client, ControllerHarness harness) {
      shared = harness.start(controller(client, "class-probe"));
      STARTED.add(shared);
    }

    @Test
    void first(ControllerHarness harness) {
      assertThat(harness.controllers()).containsExactly(shared);
      assertThat(shared.isRunning()).isTrue();
    }

    @Test
    void second(ControllerHarness harness) {
      assertThat(harness.controllers()).containsExactly(shared);
      assertThat(shared.isRunning()).isTrue();
    }
  }

  @Fixture
  @ControllerTest
  static class FailsWithAController {

    static volatile String url;

    @Test
    void fails(KubernetesClient client, ControllerHarness harness) {
      url = harness.cluster().url();
      Controller controller = harness.start(controller(client, "report-probe"));
      create(client, "web");
      create(client, "bad");
      assertThat(controller).within(ofSeconds(5)).hasReconciled("default/web")
          .hasFailedToReconcile("default/bad").workQueue().hasNoKeysInFlight();
      throw new AssertionError("the test's own failure");
    }
  }
}
