package dev.ctk.assertions;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.CacheState;
import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.ControllerStats;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.VirtualTime;
import dev.ctk.controller.Vocabulary;
import dev.ctk.controller.WorkQueueView;
import dev.ctk.fake.FakeCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

/**
 * ctk's controller and queue assertions on a {@link ControllerProbe} that speaks another framework's
 * words, fed by hand as a framework integration feeds it. Delays are an hour long, so a waiting key
 * stays waiting for the whole test and messages are deterministic.
 */
class ControllerProbeAssertTest {

  static final Vocabulary JOSDK = new Vocabulary("Java Operator SDK",
      "Java Operator SDK controller", "pending events", "event source",
      Map.of(ReconcileOutcome.SUCCESS, "SUCCESS", ReconcileOutcome.REQUEUE, "REQUEUE",
          ReconcileOutcome.REQUEUE_AFTER, "RESCHEDULE", ReconcileOutcome.ERROR, "ERROR"),
      "operator.start()");

  private static final ObjectKey WEB = ObjectKey.of("default", "web");
  private static final ObjectKey API = ObjectKey.of("default", "api");

  private final ControllerProbe probe = ControllerProbe.builder("webapp").withVocabulary(JOSDK)
      .build();

  @Test
  void should_pass_hasSyncedCaches_once_every_event_source_synced() {
    // GIVEN
    probe.watchCaches(() -> List.of(
        new CacheState("event source WebApp (namespace shop)", true, true, true)));
    // WHEN / THEN
    assertThat(probe).hasSyncedCaches();
  }

  @Test
  void should_fail_hasSyncedCaches_in_the_frameworks_words() {
    // GIVEN
    probe.watchCaches(() -> List.of(
        new CacheState("event source WebApp (namespace shop)", true, true, true),
        new CacheState("event source Deployment (namespace shop)", false, true, false)));
    probe.stopped();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).hasSyncedCaches());
    // THEN
    assertThat(error).hasMessage("""

        Expecting Java Operator SDK controller "webapp"
          to have synced its event source caches
        but 1 of 2 event sources has not synced:
          event source WebApp (namespace shop): synced
          event source Deployment (namespace shop): not synced (running)
        the Java Operator SDK controller is not running: start it with operator.start().""");
  }

  @Test
  void should_fail_hasSyncedCaches_when_the_view_says_not_synced_although_each_cache_did() {
    // GIVEN a view whose own sync state is stricter than its caches'
    ControllerView view = new DelegatingView(probe) {
      @Override
      public boolean hasSynced() {
        return false;
      }
    };
    probe.watchCaches(() -> List.of(new CacheState("event source WebApp", true, true, true)));
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(view).hasSyncedCaches());
    // THEN
    assertThat(error).hasMessage("""

        Expecting Java Operator SDK controller "webapp"
          to have synced its event source caches
        but it reports its caches as not synced, while each event source it lists is synced:
          event source WebApp: synced""");
  }

  @Test
  void should_read_a_real_fabric8_informer_the_probe_watches() {
    // GIVEN
    try (FakeCluster cluster = FakeCluster.start()) {
      SharedIndexInformer<ConfigMap> informer = cluster.client().configMaps()
          .inNamespace("default").runnableInformer(0);
      ControllerProbe watching = ControllerProbe.create("config-syncer").watch(informer);
      AssertionError beforeStart = catchThrowableOfType(AssertionError.class,
          () -> assertThat(watching).hasSyncedCaches());
      assertThat(CacheState.of(informer))
          .isEqualTo(new CacheState("ConfigMap informer", false, false, false));
      // WHEN
      informer.start();
      try {
        // THEN
        assertThat(watching).within(ofSeconds(10)).hasSyncedCaches();
        await("the ConfigMap informer's watch to open").atMost(ofSeconds(10))
            .until(informer::isWatching);
        assertThat(watching.caches())
            .containsExactly(new CacheState("ConfigMap informer", true, true, true));
        assertThat(beforeStart).hasMessage("""

            Expecting controller "config-syncer"
              to have synced its informer caches
            but 1 of 1 informer has not synced:
              ConfigMap informer: not synced (not running)""");
      } finally {
        informer.stop();
      }
      assertThat(CacheState.of(informer).running()).isFalse();
    }
  }

  @Test
  void should_pass_hasReconciledSuccessfully_after_a_reschedule_that_waits() {
    // GIVEN
    probe.added(WEB);
    // WHEN the reconcile asks to run again in an hour
    probe.reconcileStarted(WEB).requeuedAfter(ofHours(1));
    // THEN
    assertThat(probe).hasReconciledSuccessfully("default/web").hasRequeued("default/web")
        .hasReconcileCount("default/web", 1);
    assertThat(probe).workQueue().containsKey("default/web").hasDepth(0);
  }

  @Test
  void should_fail_hasReconciledSuccessfully_with_the_history_in_the_frameworks_words() {
    // GIVEN a reschedule, then a failure retried in an hour
    IllegalStateException backendDown = new IllegalStateException("backend down");
    probe.reconcileStarted(WEB).requeuedAfter(ofHours(1));
    probe.reconcileStarted(WEB).failed(backendDown);
    probe.addedRateLimited(WEB, ofHours(1));
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).hasReconciledSuccessfully("default/web"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting Java Operator SDK controller "webapp"
          to have reconciled default/web successfully
        but its last reconcile failed:
          ERROR IllegalStateException: backend down
        reconciles of default/web: 2 (oldest first)
          1. RESCHEDULE 1h
          2. ERROR IllegalStateException: backend down
        pending events: queued [], in flight [], waiting [default/web]""");
    // AND the error it names goes with it, whole
    assertThat(error).hasCause(backendDown);
    assertThat(error.getSuppressed()).isEmpty();
  }

  @Test
  void should_fail_hasReconciledSuccessfully_within_a_timeout_telling_the_message_and_the_error_once() {
    // GIVEN a failure with a cause and a long multi-line message, retried in an hour
    IOException root = new IOException("connection reset");
    IllegalStateException failure = new IllegalStateException("backend call failed:\n  status 503\n"
        + "  body: " + "busy ".repeat(60).strip(), root);
    probe.reconcileStarted(WEB).failed(failure);
    probe.addedRateLimited(WEB, ofHours(1));
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).within(ofMillis(100)).hasReconciledSuccessfully("default/web"));
    // THEN the message names the error by its first line
    String expected = """

        Expecting Java Operator SDK controller "webapp"
          to have reconciled default/web successfully within 100ms
        but its last reconcile failed:
          ERROR IllegalStateException: backend call failed: ...
        reconciles of default/web: 1 (oldest first)
          1. ERROR IllegalStateException: backend call failed: ...
        pending events: queued [], in flight [], waiting [default/web]""";
    assertThat(error).hasMessage(expected).hasCause(failure);
    assertThat(error.getSuppressed()).isEmpty();
    // AND what JUnit prints gives the message, the error's message and its cause once each
    String printed = printed(error);
    assertThat(occurrences(printed, "to have reconciled default/web successfully")).isEqualTo(1);
    assertThat(occurrences(printed, "status 503")).isEqualTo(1);
    assertThat(occurrences(printed, "body: " + "busy ".repeat(60).strip())).isEqualTo(1);
    assertThat(printed).contains("\nCaused by: java.lang.IllegalStateException: backend call failed:\n"
        + "  status 503\n  body: " + "busy ".repeat(60).strip() + "\n\tat ")
        .contains("\nCaused by: java.io.IOException: connection reset\n");
  }

  @Test
  void should_carry_each_different_error_the_history_names_once_the_newest_as_cause() {
    // GIVEN five failures: two that print the same, one other, the newest one again
    IllegalStateException older = stackless(new IllegalStateException("backend down"));
    IllegalStateException sameAsOlder = stackless(new IllegalStateException("backend down"));
    IllegalArgumentException other = stackless(new IllegalArgumentException("bad spec"));
    IllegalStateException newest = stackless(new IllegalStateException("quota exceeded"));
    for (Throwable failure : List.of(older, sameAsOlder, other, newest, newest)) {
      probe.reconcileStarted(WEB).failed(failure);
    }
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).hasReconciledSuccessfully("default/web"));
    // THEN
    assertThat(error).hasCause(newest);
    assertThat(error.getSuppressed()).containsExactly(other, sameAsOlder);
  }

  @Test
  void should_say_which_key_is_in_flight_far_longer_than_its_reconciles_usually_take() {
    // GIVEN a probe on a clock the test moves; default/web's reconciles take 4ms
    VirtualTime time = VirtualTime.create();
    ControllerProbe timed = ControllerProbe.builder("webapp").withVocabulary(JOSDK)
        .withTimeSource(time).build();
    for (int i = 0; i < 2; i++) {
      ControllerProbe.Reconciliation reconciliation = timed.reconcileStarted(WEB);
      time.advance(ofMillis(4));
      reconciliation.succeeded();
    }
    // AND default/ok's take 2s
    ControllerProbe.Reconciliation ok = timed.reconcileStarted(ObjectKey.of("default", "ok"));
    time.advance(ofSeconds(2));
    ok.succeeded();
    // WHEN default/web, default/api (never finished) and default/ok run for 12.3s
    timed.reconcileStarted(WEB);
    timed.reconcileStarted(API);
    timed.reconcileStarted(ObjectKey.of("default", "ok"));
    time.advance(ofMillis(12_300));
    AssertionError idle = catchThrowableOfType(AssertionError.class,
        () -> assertThat(timed).isIdle());
    AssertionError empty = catchThrowableOfType(AssertionError.class,
        () -> assertThat(timed).workQueue().isEmpty());
    AssertionError succeeded = catchThrowableOfType(AssertionError.class,
        () -> assertThat(timed).hasReconciledSuccessfully(WEB));
    // THEN default/ok, under 10 times its 2s, is not named
    assertThat(idle).hasMessage("""

        Expecting Java Operator SDK controller "webapp"
          to be idle (running, caches synced, pending events empty)
        but its pending events held 3 keys:
          queued: []
          in flight: [default/web, default/api, default/ok]
          waiting (delayed or backing off): []
        default/web in flight for 12.3s (its reconciles usually take 4ms)
        default/api in flight for 12.3s (none of its reconciles has finished)""");
    assertThat(empty).hasMessage("""

        Expecting pending events of Java Operator SDK controller "webapp"
          to be empty
        but it held 3 keys:
          queued: []
          in flight: [default/web, default/api, default/ok]
          waiting (delayed or backing off): []
        default/web in flight for 12.3s (its reconciles usually take 4ms)
        default/api in flight for 12.3s (none of its reconciles has finished)""");
    assertThat(succeeded).hasMessage("""

        Expecting Java Operator SDK controller "webapp"
          to have reconciled default/web successfully
        but default/web is in flight again; its last finished reconcile:
          SUCCESS
        reconciles of default/web: 2 (oldest first)
          1. SUCCESS
          2. SUCCESS
        pending events: queued [], in flight [default/web, default/api, default/ok], waiting []
        default/web in flight for 12.3s (its reconciles usually take 4ms)""");
  }

  @Test
  void should_fail_hasReconciledSuccessfully_while_an_event_is_pending_again() {
    // GIVEN
    probe.reconcileStarted(API).requeuedAfter(ofHours(1));
    // WHEN a new event arrives for the key
    probe.added(API);
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).hasReconciledSuccessfully(API));
    // THEN
    assertThat(error).hasMessage("""

        Expecting Java Operator SDK controller "webapp"
          to have reconciled default/api successfully
        but default/api is queued again; its last finished reconcile:
          RESCHEDULE 1h
        reconciles of default/api: 1 (oldest first)
          1. RESCHEDULE 1h
        pending events: queued [default/api], in flight [], waiting [default/api]""");
  }

  @Test
  void should_pass_hasReconciledSuccessfully_within_a_timeout_while_another_thread_feeds_the_probe() {
    // GIVEN a framework thread that handles the event on its own
    probe.added(WEB);
    CompletableFuture<Void> framework = CompletableFuture.runAsync(() -> {
      ControllerProbe.Reconciliation reconciliation = probe.reconcileStarted(WEB);
      reconciliation.succeeded();
    });
    // WHEN / THEN
    assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
    framework.join();
    assertThat(probe).isIdle();
  }

  @Test
  void should_pass_hasFailedToReconcile_for_a_reconcile_body_that_threw() {
    // GIVEN
    Exception thrown = catchThrowableOfType(IllegalStateException.class,
        () -> probe.reconcile("default/web", () -> {
          throw new IllegalStateException("backend down");
        }));
    // WHEN / THEN
    assertThat(thrown).hasMessage("backend down");
    assertThat(probe).hasFailedToReconcile("default/web", IllegalStateException.class)
        .hasFailedToReconcileWithMessageContaining("default/web", "backend");
  }

  @Test
  void should_fail_hasFailedToReconcile_listing_reschedules_and_successes() {
    // GIVEN
    probe.reconcileStarted(WEB).requeuedAfter(ofSeconds(30));
    probe.reconcileStarted(WEB).succeeded();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).hasFailedToReconcile("default/web"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting Java Operator SDK controller "webapp"
          to have failed to reconcile default/web
        but none of its reconciles failed.
        reconciles of default/web: 2 (oldest first)
          1. RESCHEDULE 30s
          2. SUCCESS
        pending events: queued [], in flight [], waiting []""");
  }

  @Test
  void should_fail_hasRequeued_naming_the_frameworks_outcomes() {
    // GIVEN
    probe.reconcileStarted(WEB).succeeded();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).hasRequeued("default/web"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting Java Operator SDK controller "webapp"
          to have requeued default/web (requeue, reschedule or a failure)
        but none of its reconciles did.
        reconciles of default/web: 1 (oldest first)
          1. SUCCESS
        pending events: queued [], in flight [], waiting []""");
  }

  @Test
  void should_fail_isIdle_listing_pending_events_and_the_last_failure() {
    // GIVEN
    probe.reconcileStarted(WEB).failed(new IllegalStateException("backend down"));
    probe.addedRateLimited(WEB, ofHours(1));
    probe.added(API);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).isIdle());
    // THEN
    assertThat(error).hasMessage("""

        Expecting Java Operator SDK controller "webapp"
          to be idle (running, caches synced, pending events empty)
        but its pending events held 2 keys:
          queued: [default/api]
          in flight: []
          waiting (delayed or backing off): [default/web]
        last reconcile of default/web failed (1 in a row): IllegalStateException: backend down""");
  }

  @Test
  void should_fail_isIdle_when_a_failed_keys_next_step_was_never_told() {
    // GIVEN a hand-written loop that retries through its own executor, which the probe does not see
    ControllerProbe loop = ControllerProbe.create("config-syncer");
    loop.reconcileStarted(WEB).failed(new IllegalStateException("backend down"));
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class, () -> assertThat(loop).isIdle());
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "config-syncer"
          to be idle (running, caches synced, work queue empty)
        but its work queue held 1 key:
          queued: []
          in flight: []
          waiting (delayed or backing off): [default/web]
        last reconcile of default/web failed (1 in a row): IllegalStateException: backend down
        It cannot tell whether it is idle: the last reconcile of default/web failed or asked for a retry, and the \
        probe was not told what happens next (a retry after a delay, an add, or a drop). Tell it: requeue through \
        probe.delayedRequeue(queue).retryAfter(key, delay) (or probe.addedRateLimited(key, delay), \
        probe.added(key)), or call probe.removed(key) when the key is dropped.""");
    // AND once the loop requeues through the probe's seam, the retry is seen and then ends
    BlockingQueue<String> queue = loop.observe(new LinkedBlockingQueue<>());
    loop.delayedRequeue(queue).retryAfter("default/web", java.time.Duration.ZERO);
    assertThat(loop).within(ofSeconds(5)).workQueue().hasDepth(1).containsKey("default/web").hasRetried(1);
    assertThat(queue).containsExactly("default/web");
  }

  @Test
  void should_fail_isIdle_when_stopped_or_not_synced_saying_how_to_start_it() {
    // GIVEN
    probe.watchCaches(() -> List.of(new CacheState("event source WebApp", false, true, false)));
    // WHEN
    AssertionError notSynced = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).isIdle());
    probe.stopped();
    AssertionError stopped = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).isIdle());
    // THEN
    assertThat(notSynced).hasMessage("""

        Expecting Java Operator SDK controller "webapp"
          to be idle (running, caches synced, pending events empty)
        but its event source caches have not synced.""");
    assertThat(stopped).hasMessage("""

        Expecting Java Operator SDK controller "webapp"
          to be idle (running, caches synced, pending events empty)
        but it is not running: start it with operator.start().""");
  }

  @Test
  void should_fail_workQueue_isEmpty_naming_the_pending_events_of_the_controller() {
    // GIVEN
    ControllerProbe.Reconciliation running = probe.reconcileStarted(WEB);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).workQueue().isEmpty());
    running.succeeded();
    // THEN
    assertThat(error).hasMessage("""

        Expecting pending events of Java Operator SDK controller "webapp"
          to be empty
        but it held 1 key:
          queued: []
          in flight: [default/web]
          waiting (delayed or backing off): []""");
    assertThat(probe).workQueue().isEmpty();
  }

  @Test
  void should_fail_on_the_queue_alone_naming_it_in_the_frameworks_words() {
    // GIVEN
    WorkQueueView queue = probe.workQueue();
    probe.added(WEB);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(queue).hasDepth(0));
    // THEN
    assertThat(error).hasMessage("""

        Expecting pending events "webapp"
          to have depth 0 (keys queued and ready)
        but its depth was 1:
          queued: [default/web]
          in flight: []
          waiting (delayed or backing off): []""");
  }

  @Test
  void should_fail_hasRetried_naming_addRateLimited_only_in_ctks_words() {
    // GIVEN
    ControllerProbe handWritten = ControllerProbe.create("config-syncer");
    probe.addedRateLimited(WEB, ofHours(1));
    handWritten.addedRateLimited(WEB, ofHours(1));
    // WHEN
    AssertionError josdk = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).workQueue().hasRetried(2));
    AssertionError ctk = catchThrowableOfType(AssertionError.class,
        () -> assertThat(handWritten).workQueue().hasRetried(2));
    // THEN
    assertThat(josdk).hasMessage("""

        Expecting pending events of Java Operator SDK controller "webapp"
          to have counted 2 retries
        but it counted 1.
          queued: []
          in flight: []
          waiting (delayed or backing off): [default/web]""");
    assertThat(ctk).hasMessage("""

        Expecting work queue of controller "config-syncer"
          to have counted 2 retries (addRateLimited)
        but it counted 1.
          queued: []
          in flight: []
          waiting (delayed or backing off): [default/web]""");
  }

  @Test
  void should_check_a_hand_written_controller_through_its_observed_queue_and_reconciles()
      throws Exception {
    // GIVEN a hand-written controller's queue and reconcile, each attached in one line
    ControllerProbe handWritten = ControllerProbe.create("config-syncer");
    BlockingQueue<String> queue = handWritten.observe(new LinkedBlockingQueue<>());
    queue.put("default/web");
    queue.put("default/web");
    // WHEN / THEN the duplicate insert shows
    assertThat(handWritten).workQueue().hasDepth(2).containsKey("default/web");
    // AND WHEN the worker takes both and reconciles
    for (int i = 0; i < 2; i++) {
      String key = queue.take();
      handWritten.reconcile(key, () -> { });
    }
    // THEN
    assertThat(handWritten).hasReconciledSuccessfully("default/web")
        .hasReconcileCount("default/web", 2).isIdle();
    assertThat(handWritten).workQueue().isEmpty();
  }

  /** A view that forwards everything to another; tests override what they need. */
  private static class DelegatingView implements ControllerView {

    private final ControllerView delegate;

    DelegatingView(ControllerView delegate) {
      this.delegate = delegate;
    }

    @Override
    public String name() {
      return delegate.name();
    }

    @Override
    public Vocabulary vocabulary() {
      return delegate.vocabulary();
    }

    @Override
    public boolean isRunning() {
      return delegate.isRunning();
    }

    @Override
    public List<CacheState> caches() {
      return delegate.caches();
    }

    @Override
    public WorkQueueView workQueue() {
      return delegate.workQueue();
    }

    @Override
    public ControllerStats stats() {
      return delegate.stats();
    }

    @Override
    public List<ReconcileRecord> reconcileLog() {
      return delegate.reconcileLog();
    }
  }

  /** What {@code printStackTrace} prints, as JUnit prints a failure. */
  static String printed(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    return text.toString().replace(System.lineSeparator(), "\n");
  }

  /** How many times {@code part} occurs in {@code text}. */
  static int occurrences(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }

  private static <T extends Throwable> T stackless(T error) {
    error.setStackTrace(new StackTraceElement[0]);
    return error;
  }
}
