package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The probe's queue model, its reconcile records and its caches, on a virtual clock. */
class ControllerProbeTest {

  private static final ObjectKey WEB = ObjectKey.of("default", "web");
  private static final ObjectKey API = ObjectKey.of("default", "api");

  private final ManualTimeSource time = new ManualTimeSource();
  private final ControllerProbe probe = ControllerProbe.builder("syncer").withTimeSource(time)
      .build();

  @Test
  void should_queue_an_added_key_once_and_count_every_add() {
    // WHEN
    probe.added(WEB);
    probe.added(API);
    probe.added(WEB);
    // THEN
    WorkQueueStats queue = probe.workQueue().stats();
    assertThat(queue.queuedKeys()).containsExactly("default/web", "default/api");
    assertThat(queue.depth()).isEqualTo(2);
    assertThat(queue.adds()).isEqualTo(3);
    assertThat(queue.retries()).isZero();
  }

  @Test
  void should_let_a_key_added_after_a_delay_wait_until_the_delay_passed() {
    // GIVEN
    probe.addedAfter(API, Duration.ofSeconds(20));
    probe.addedAfter(WEB, Duration.ofSeconds(10));
    // WHEN / THEN waiting keys are listed earliest deadline first
    assertThat(probe.workQueue().stats().waitingKeys()).containsExactly("default/web", "default/api");
    time.advance(Duration.ofSeconds(9));
    assertThat(probe.workQueue().stats().waitingKeys()).containsExactly("default/web", "default/api");
    time.advance(Duration.ofSeconds(1));
    assertThat(probe.workQueue().stats().waitingKeys()).containsExactly("default/api");
    time.advance(Duration.ofSeconds(10));
    // AND once their delays passed the keys are gone, although nobody re-added them
    assertThat(probe.workQueue().stats().isIdle()).isTrue();
    assertThat(probe.workQueue().stats().adds()).isZero();
  }

  @Test
  void should_replace_the_deadline_of_a_key_added_after_a_delay_again() {
    // GIVEN
    probe.addedAfter(WEB, Duration.ofSeconds(10));
    // WHEN
    probe.addedAfter(WEB, Duration.ofSeconds(30));
    time.advance(Duration.ofSeconds(20));
    // THEN
    assertThat(probe.workQueue().stats().waitingKeys()).containsExactly("default/web");
  }

  @Test
  void should_count_a_rate_limited_add_as_a_retry_and_let_the_key_wait() {
    // WHEN
    probe.addedRateLimited(WEB, Duration.ofSeconds(1));
    probe.addedRateLimited(WEB, Duration.ofSeconds(2));
    // THEN
    WorkQueueStats queue = probe.workQueue().stats();
    assertThat(queue.retries()).isEqualTo(2);
    assertThat(queue.adds()).isZero();
    assertThat(queue.waitingKeys()).containsExactly("default/web");
    assertThat(queue.queuedKeys()).isEmpty();
  }

  @Test
  void should_forget_a_removed_key_whether_queued_or_waiting() {
    // GIVEN
    probe.added(WEB);
    probe.addedAfter(API, Duration.ofHours(1));
    // WHEN
    probe.removed(WEB);
    probe.removed(API);
    // THEN
    assertThat(probe.workQueue().stats().isIdle()).isTrue();
    assertThat(probe.workQueue().stats().adds()).isEqualTo(1);
  }

  @Test
  void should_put_a_key_in_flight_when_its_reconcile_starts_and_take_it_out_when_it_ends() {
    // GIVEN a key queued and also waiting
    probe.added(WEB);
    probe.addedAfter(WEB, Duration.ofHours(1));
    probe.added(API);
    // WHEN
    ControllerProbe.Reconciliation reconciliation = probe.reconcileStarted(WEB);
    // THEN
    WorkQueueStats during = probe.workQueue().stats();
    assertThat(during.queuedKeys()).containsExactly("default/api");
    assertThat(during.waitingKeys()).isEmpty();
    assertThat(during.inFlightKeys()).containsExactly("default/web");
    // AND WHEN it ends
    reconciliation.succeeded();
    // THEN
    assertThat(probe.workQueue().stats().inFlightKeys()).isEmpty();
  }

  @Test
  void should_say_how_long_each_running_reconcile_has_run_on_its_clock() {
    // GIVEN two reconciles of one key and one of another, started at different times
    ControllerProbe.Reconciliation first = probe.reconcileStarted(WEB);
    time.advance(Duration.ofSeconds(2));
    ControllerProbe.Reconciliation api = probe.reconcileStarted(API);
    time.advance(Duration.ofMillis(500));
    ControllerProbe.Reconciliation second = probe.reconcileStarted(WEB);
    time.advance(Duration.ofMillis(300));
    // WHEN / THEN the earliest first, and a key running twice with its longer run
    assertThat(probe.runningReconciles()).containsExactly(
        Map.entry(WEB, Duration.ofMillis(2800)), Map.entry(API, Duration.ofMillis(800)));
    // AND WHEN the first reconcile of default/web ends
    first.succeeded();
    // THEN its other reconcile still runs
    assertThat(probe.runningReconciles()).containsExactly(
        Map.entry(API, Duration.ofMillis(800)), Map.entry(WEB, Duration.ofMillis(300)));
    api.failed(new IllegalStateException("boom"));
    second.succeeded();
    assertThat(probe.runningReconciles()).isEmpty();
  }

  @Test
  void should_show_a_key_added_while_in_flight_as_queued_again() {
    // GIVEN
    ControllerProbe.Reconciliation reconciliation = probe.reconcileStarted(WEB);
    // WHEN
    probe.added(WEB);
    reconciliation.succeeded();
    // THEN
    assertThat(probe.workQueue().stats().queuedKeys()).containsExactly("default/web");
  }

  @Test
  void should_count_failures_in_a_row_as_attempts_and_reset_them_on_success() {
    // WHEN
    List<ReconcileRecord> records = new ArrayList<>();
    records.add(probe.reconcileStarted(WEB).failed(new IOException("backend down")));
    records.add(probe.reconcileStarted(WEB).requeued());
    records.add(probe.reconcileStarted(WEB).failed(new IOException("backend down")));
    records.add(probe.reconcileStarted(WEB).succeeded());
    records.add(probe.reconcileStarted(WEB).failed(new IOException("backend down")));
    records.add(probe.reconcileStarted(WEB).requeuedAfter(Duration.ofSeconds(1)));
    records.add(probe.reconcileStarted(WEB).succeeded());
    records.add(probe.reconcileStarted(API).succeeded());
    // THEN
    assertThat(records).extracting(ReconcileRecord::attempt).containsExactly(0, 1, 2, 3, 0, 1, 0, 0);
    assertThat(records).extracting(ReconcileRecord::outcome).containsExactly(
        ReconcileOutcome.ERROR, ReconcileOutcome.REQUEUE, ReconcileOutcome.ERROR,
        ReconcileOutcome.SUCCESS, ReconcileOutcome.ERROR, ReconcileOutcome.REQUEUE_AFTER,
        ReconcileOutcome.SUCCESS, ReconcileOutcome.SUCCESS);
  }

  @Test
  void should_record_the_attempt_the_framework_gives() {
    // WHEN
    ReconcileRecord record = probe.reconcileStarted(WEB, 5).failed(new IOException("down"));
    // THEN
    assertThat(record.attempt()).isEqualTo(5);
    assertThat(record.summary()).isEqualTo("#1 default/web ERROR (attempt 5): java.io.IOException: "
        + "down");
  }

  @Test
  void should_refuse_a_negative_attempt() {
    // WHEN
    IllegalArgumentException error = catchThrowableOfType(IllegalArgumentException.class,
        () -> probe.reconcileStarted(WEB, -1));
    // THEN
    assertThat(error).hasMessage("ControllerProbe.reconcileStarted(default/web, -1): the attempt "
        + "cannot be negative (probe \"syncer\"). Pass 0 for a first attempt, n for the n-th "
        + "retry.");
    assertThat(probe.workQueue().stats().inFlightKeys()).isEmpty();
  }

  @Test
  void should_record_a_requeue_after_and_let_the_key_wait_that_long() {
    // GIVEN
    ControllerProbe.Reconciliation reconciliation = probe.reconcileStarted(WEB);
    time.advance(Duration.ofMillis(250));
    // WHEN
    ReconcileRecord record = reconciliation.requeuedAfter(Duration.ofSeconds(30));
    // THEN
    assertThat(record.outcome()).isEqualTo(ReconcileOutcome.REQUEUE_AFTER);
    assertThat(record.requeueAfter()).isEqualTo(Duration.ofSeconds(30));
    assertThat(record.start()).isEqualTo(ManualTimeSource.EPOCH);
    assertThat(record.duration()).isEqualTo(Duration.ofMillis(250));
    assertThat(record.worker()).isEqualTo(Thread.currentThread().getName());
    WorkQueueStats queue = probe.workQueue().stats();
    assertThat(queue.waitingKeys()).containsExactly("default/web");
    assertThat(queue.inFlightKeys()).isEmpty();
    assertThat(queue.retries()).isZero();
    time.advance(Duration.ofSeconds(30));
    assertThat(probe.workQueue().stats().waitingKeys()).isEmpty();
  }

  @Test
  void should_fail_when_a_reconcile_ends_twice() {
    // GIVEN
    ControllerProbe.Reconciliation reconciliation = probe.reconcileStarted(WEB);
    reconciliation.succeeded();
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        () -> reconciliation.failed(new IOException("late")));
    // THEN
    assertThat(error).hasMessage("The reconcile of default/web started on thread \""
        + Thread.currentThread().getName() + "\" already ended as SUCCESS; it cannot end again as "
        + "ERROR (probe \"syncer\"). End each Reconciliation once.");
    assertThat(probe.reconcileLog()).hasSize(1);
    assertThat(probe.stats().errors()).isZero();
  }

  @Test
  void should_name_the_outcomes_in_the_frameworks_words_when_a_reconcile_ends_twice() {
    // GIVEN
    ControllerProbe josdk = ControllerProbe.builder("webapp").withVocabulary(VocabularyTest.JOSDK)
        .build();
    ControllerProbe.Reconciliation reconciliation = josdk.reconcileStarted(WEB);
    reconciliation.requeuedAfter(Duration.ofSeconds(5));
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        reconciliation::succeeded);
    // THEN
    assertThat(error).hasMessage("The reconcile of default/web started on thread \""
        + Thread.currentThread().getName() + "\" already ended as RESCHEDULE; it cannot end again "
        + "as SUCCESS (probe \"webapp\"). End each Reconciliation once.");
  }

  @Test
  void should_count_every_insert_into_an_observed_queue_and_show_its_contents_as_queued()
      throws InterruptedException {
    // GIVEN
    BlockingQueue<String> queue = probe.observe(new LinkedBlockingQueue<>());
    // WHEN
    queue.add("default/web");
    assertThat(queue.offer("default/api")).isTrue();
    queue.put("default/web");
    assertThat(queue.offer("db", 1, TimeUnit.SECONDS)).isTrue();
    queue.addAll(List.of("default/a", "default/b"));
    // THEN every insert counts, and the queued keys are the contents, duplicates included
    WorkQueueStats stats = probe.workQueue().stats();
    assertThat(stats.adds()).isEqualTo(6);
    assertThat(stats.queuedKeys()).containsExactly("default/web", "default/api", "default/web",
        "db", "default/a", "default/b");
    assertThat(stats.depth()).isEqualTo(6);
    // AND WHEN the controller takes keys
    assertThat(queue.take()).isEqualTo("default/web");
    assertThat(queue.poll()).isEqualTo("default/api");
    assertThat(queue.poll(1, TimeUnit.SECONDS)).isEqualTo("default/web");
    queue.drainTo(new ArrayList<>(), 1);
    // THEN
    assertThat(probe.workQueue().stats().queuedKeys()).containsExactly("default/a", "default/b");
    assertThat(probe.workQueue().stats().adds()).isEqualTo(6);
  }

  @Test
  void should_not_count_an_insert_that_a_full_observed_queue_refused() {
    // GIVEN
    BlockingQueue<String> queue = probe.observe(new ArrayBlockingQueue<>(1));
    queue.add("default/web");
    // WHEN
    boolean accepted = queue.offer("default/api");
    Throwable refused = catchThrowable(() -> queue.add("default/db"));
    // THEN
    assertThat(accepted).isFalse();
    assertThat(refused).isInstanceOf(IllegalStateException.class);
    assertThat(probe.workQueue().stats().adds()).isEqualTo(1);
    assertThat(probe.workQueue().stats().queuedKeys()).containsExactly("default/web");
  }

  @Test
  void should_only_count_adds_it_is_told_about_while_it_observes_a_queue() {
    // GIVEN
    BlockingQueue<String> queue = probe.observe(new LinkedBlockingQueue<>());
    // WHEN
    probe.added(API);
    queue.add("default/web");
    // THEN
    assertThat(probe.workQueue().stats().queuedKeys()).containsExactly("default/web");
    assertThat(probe.workQueue().stats().adds()).isEqualTo(2);
  }

  @Test
  void should_map_the_elements_of_an_observed_queue_to_keys() {
    // GIVEN
    record Request(String namespace, String name) {}
    BlockingQueue<Request> queue = probe.observe(new LinkedBlockingQueue<>(),
        request -> ObjectKey.of(request.namespace(), request.name()));
    // WHEN
    queue.add(new Request("shop", "cart"));
    // THEN
    assertThat(probe.workQueue().stats().queuedKeys()).containsExactly("shop/cart");
  }

  @Test
  void should_fail_to_observe_a_second_queue() {
    // GIVEN
    probe.observe(new LinkedBlockingQueue<>());
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        () -> probe.observe(new LinkedBlockingQueue<>()));
    // THEN
    assertThat(error).hasMessage("ControllerProbe \"syncer\" already observes a queue; it cannot "
        + "observe a second one. Observe one queue per probe, or create a probe per controller.");
  }

  @Test
  void should_record_a_reconcile_body_that_returns_as_a_success() throws Exception {
    // GIVEN
    AtomicBoolean ran = new AtomicBoolean();
    // WHEN
    probe.reconcile("default/web", () -> {
      assertThat(probe.workQueue().stats().inFlightKeys()).containsExactly("default/web");
      ran.set(true);
    });
    // THEN
    assertThat(ran).isTrue();
    assertThat(probe.reconcileLog()).extracting(ReconcileRecord::summary)
        .containsExactly("#1 default/web SUCCESS");
    assertThat(probe.workQueue().stats().inFlightKeys()).isEmpty();
  }

  @Test
  void should_record_a_reconcile_body_that_throws_as_an_error_and_rethrow_it() {
    // GIVEN
    IOException failure = new IOException("backend down");
    AssertionError broken = new AssertionError("bug");
    // WHEN
    Throwable thrown = catchThrowable(() -> probe.reconcile("default/web", () -> {
      throw failure;
    }));
    Throwable thrownError = catchThrowable(() -> probe.reconcile("cluster-thing", () -> {
      throw broken;
    }));
    // THEN
    assertThat(thrown).isSameAs(failure);
    assertThat(thrownError).isSameAs(broken);
    assertThat(probe.reconcileLog()).extracting(ReconcileRecord::summary).containsExactly(
        "#1 default/web ERROR: java.io.IOException: backend down",
        "#2 cluster-thing ERROR: java.lang.AssertionError: bug");
    assertThat(probe.reconcileLog(WEB)).extracting(ReconcileRecord::error).containsExactly(failure);
    assertThat(probe.workQueue().stats().inFlightKeys()).isEmpty();
  }

  @Test
  void should_count_every_reconcile_while_its_log_keeps_only_the_newest() {
    // GIVEN
    ControllerProbe bounded = ControllerProbe.builder("bounded").withReconcileLogLimit(2).build();
    // WHEN
    bounded.reconcileStarted(WEB).failed(new IOException("down"));
    bounded.reconcileStarted(WEB).requeuedAfter(Duration.ofHours(1));
    bounded.reconcileStarted(API).succeeded();
    bounded.reconcileStarted(API).requeued();
    // THEN
    assertThat(bounded.reconcileLog()).extracting(ReconcileRecord::sequence).containsExactly(3L, 4L);
    assertThat(bounded.reconcileLog(WEB)).isEmpty();
    ControllerStats stats = bounded.stats();
    assertThat(stats.name()).isEqualTo("bounded");
    assertThat(stats.reconciles()).isEqualTo(4);
    assertThat(stats.successes()).isEqualTo(1);
    assertThat(stats.errors()).isEqualTo(1);
    assertThat(stats.requeues()).isEqualTo(2);
    assertThat(stats.droppedLogRecords()).isEqualTo(2);
    assertThat(stats.reconcilesPerKey()).containsExactly(java.util.Map.entry(WEB, 2L),
        java.util.Map.entry(API, 2L));
    assertThat(stats.lastReconcilePerKey().get(WEB).outcome())
        .isEqualTo(ReconcileOutcome.REQUEUE_AFTER);
    // default/api's last reconcile asked for a retry the probe was not told of: it counts as waiting
    assertThat(stats.queue().waitingKeys()).containsExactly("default/web", "default/api");
    assertThat(bounded.unaccountedKeys()).containsExactly(API);
    assertThat(stats.synced()).isTrue();
  }

  @Test
  void should_refuse_a_log_limit_below_one() {
    // WHEN
    IllegalArgumentException error = catchThrowableOfType(IllegalArgumentException.class,
        () -> ControllerProbe.builder("bounded").withReconcileLogLimit(0));
    // THEN
    assertThat(error).hasMessage("ControllerProbe.Builder.withReconcileLogLimit: 0 is not a valid "
        + "limit (probe \"bounded\"). Pass at least 1.");
  }

  @Test
  void should_refuse_to_build_twice() {
    // GIVEN
    ControllerProbe.Builder builder = ControllerProbe.builder("once");
    builder.build();
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        builder::build);
    // THEN
    assertThat(error).hasMessage("This ControllerProbe.Builder already built probe \"once\". Use a "
        + "new ControllerProbe.builder(..) for another probe.");
  }

  @Test
  void should_run_until_stopped_and_again_once_started() {
    // WHEN / THEN
    assertThat(probe.isRunning()).isTrue();
    assertThat(probe.workQueue().stats().shuttingDown()).isFalse();
    probe.stopped();
    assertThat(probe.isRunning()).isFalse();
    assertThat(probe.workQueue().stats().shuttingDown()).isTrue();
    probe.started();
    assertThat(probe.isRunning()).isTrue();
  }

  @Test
  void should_run_only_while_the_frameworks_running_state_says_so_too() {
    // GIVEN
    AtomicBoolean frameworkRuns = new AtomicBoolean(false);
    ControllerProbe watched = ControllerProbe.builder("webapp")
        .withRunningState(frameworkRuns::get).build();
    // WHEN / THEN
    assertThat(watched.isRunning()).isFalse();
    frameworkRuns.set(true);
    assertThat(watched.isRunning()).isTrue();
    watched.stopped();
    assertThat(watched.isRunning()).isFalse();
  }

  @Test
  void should_report_the_caches_it_watches_in_order_and_sync_when_all_did() {
    // GIVEN
    StubInformer<ConfigMap> configMaps = new StubInformer<>(ConfigMap.class);
    configMaps.running = true;
    AtomicBoolean sourceSynced = new AtomicBoolean(false);
    assertThat(probe.caches()).isEmpty();
    assertThat(probe.hasSynced()).as("no caches: nothing to wait for").isTrue();
    // WHEN
    probe.watch(configMaps.informer()).watchCaches(() -> List.of(
        new CacheState("event source WebApp", sourceSynced.get(), true, sourceSynced.get())));
    // THEN
    assertThat(probe.caches()).containsExactly(
        new CacheState("ConfigMap informer", false, true, false),
        new CacheState("event source WebApp", false, true, false));
    assertThat(probe.hasSynced()).isFalse();
    configMaps.synced = true;
    assertThat(probe.hasSynced()).isFalse();
    sourceSynced.set(true);
    assertThat(probe.hasSynced()).isTrue();
    assertThat(probe.stats().synced()).isTrue();
  }

  @Test
  void should_use_ctks_words_unless_told_otherwise() {
    // GIVEN
    ControllerProbe josdk = ControllerProbe.builder("webapp").withVocabulary(VocabularyTest.JOSDK)
        .build();
    // WHEN / THEN
    assertThat(probe.vocabulary()).isSameAs(Vocabulary.CTK);
    assertThat(probe.workQueue().vocabulary()).isSameAs(Vocabulary.CTK);
    assertThat(josdk.vocabulary()).isSameAs(VocabularyTest.JOSDK);
    assertThat(josdk.workQueue().vocabulary()).isSameAs(VocabularyTest.JOSDK);
    assertThat(josdk.workQueue().name()).isEqualTo("webapp");
    assertThat(josdk).hasToString("Java Operator SDK controller \"webapp\" (Java Operator SDK, "
        + "probe)");
  }

  @Test
  void should_keep_exact_counts_when_many_threads_feed_it() {
    // GIVEN
    int threads = 4;
    int reconcilesPerThread = 500;
    ControllerProbe shared = ControllerProbe.create("shared");
    // WHEN
    List<CompletableFuture<Void>> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      ObjectKey key = ObjectKey.of("default", "key-" + t);
      workers.add(CompletableFuture.runAsync(() -> {
        for (int i = 0; i < reconcilesPerThread; i++) {
          shared.added(key);
          ControllerProbe.Reconciliation reconciliation = shared.reconcileStarted(key);
          if (i % 2 == 0) {
            reconciliation.succeeded();
          } else {
            reconciliation.failed(new IOException("down"));
          }
        }
        shared.removed(key);   // the loop drops the key after its last attempt, which failed
      }));
    }
    workers.forEach(CompletableFuture::join);
    // THEN
    ControllerStats stats = shared.stats();
    assertThat(stats.reconciles()).isEqualTo(threads * reconcilesPerThread);
    assertThat(stats.successes()).isEqualTo(threads * reconcilesPerThread / 2);
    assertThat(stats.queue().adds()).isEqualTo(threads * reconcilesPerThread);
    assertThat(stats.queue().isIdle()).isTrue();
    assertThat(shared.reconcileLog()).hasSize(threads * reconcilesPerThread);
  }
}
