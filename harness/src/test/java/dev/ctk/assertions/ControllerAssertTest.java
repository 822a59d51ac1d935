package dev.ctk.assertions;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.RateLimiter;
import dev.ctk.controller.Result;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.ControllerHarness;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A real controller over a real informer on a fake cluster. The reconciler's behaviour depends on the
 * ConfigMap's name; retries back off for an hour, so a failed key stays "waiting" and the state the
 * messages print is deterministic.
 */
class ControllerAssertTest {

  private final FakeCluster cluster = FakeCluster.start();
  private final KubernetesClient client = cluster.client();
  /** "slow": the first reconcile returns at once, later ones block until released. */
  private final AtomicInteger slowReconciles = new AtomicInteger();
  private final CountDownLatch slowReconcileStarted = new CountDownLatch(1);
  private final CountDownLatch releaseSlowReconcile = new CountDownLatch(1);
  private final Controller controller = Controller.builder("cm")
      .watch(client.configMaps().inNamespace("default").runnableInformer(0),
          EventHandlers.enqueueObject())
      .withReconciler(this::reconcile)
      .withRateLimiter(RateLimiter.exponential(ofHours(1), ofHours(1)))
      .build();

  private Result reconcile(ObjectKey key) throws InterruptedException {
    switch (key.name()) {
      case "bad":
        throw new IllegalStateException("backend down");
      case "later":
        return Result.requeueAfter(ofHours(1));
      case "again":
        return Result.requeue();
      case "slow":
        if (slowReconciles.incrementAndGet() > 1) {
          slowReconcileStarted.countDown();
          assertThat(releaseSlowReconcile.await(30, TimeUnit.SECONDS)).isTrue();
        }
        return Result.done();
      default:
        return Result.done();
    }
  }

  @AfterEach
  void close() {
    releaseSlowReconcile.countDown();
    controller.close();
    cluster.close();
  }

  @Test
  void should_pass_hasSyncedCaches_once_started() {
    // WHEN
    controller.start();
    // THEN
    assertThat(controller).hasSyncedCaches();
  }

  @Test
  void should_fail_hasSyncedCaches_for_a_controller_that_was_not_started() {
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasSyncedCaches());
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have synced its informer caches
        but 1 of 1 informer has not synced:
          ConfigMap informer: not synced (not running)
        the controller is not running: start it with controller.start() or \
        ControllerHarness.start(controller).""");
  }

  @Test
  void should_pass_reconcile_checks_for_a_key_that_succeeded() {
    // GIVEN
    controller.start();
    // WHEN
    create("web");
    // THEN
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
    settle();
    assertThat(controller).hasReconciled(ObjectKey.of("default", "web"))
        .hasReconcileCount("default/web", 1).hasReconciledAtMost("default/web", 1).isIdle()
        .hasEmptyWorkQueue();
  }

  @Test
  void should_fail_hasReconciled_listing_the_keys_that_were_reconciled() {
    // GIVEN
    controller.start();
    create("web");
    assertThat(controller).within(ofSeconds(5)).hasReconciled("default/web");
    settle();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasReconciled("default/other"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have reconciled default/other
        but it has not.
        reconciled keys: [default/web]
        work queue: queued [], in flight [], waiting []""");
  }

  @Test
  void should_fail_hasReconciledSuccessfully_with_the_error_of_the_last_reconcile() {
    // GIVEN
    controller.start();
    create("bad");
    assertThat(controller).within(ofSeconds(5)).hasFailedToReconcile("default/bad");
    settle();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasReconciledSuccessfully("default/bad"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have reconciled default/bad successfully
        but its last reconcile failed:
          ERROR IllegalStateException: backend down
        reconciles of default/bad: 1 (oldest first)
          1. ERROR IllegalStateException: backend down
        work queue: queued [], in flight [], waiting [default/bad]""");
  }

  @Test
  void should_fail_hasReconciledSuccessfully_within_a_timeout_with_the_last_failures_message_once() {
    // GIVEN a key whose reconcile asks for a rate-limited requeue (backing off for an hour)
    controller.start();
    create("again");
    assertThat(controller).within(ofSeconds(5)).hasRequeued("default/again");
    settle();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).within(ofMillis(200))
            .hasReconciledSuccessfully("default/again"));
    // THEN
    String expected = """

        Expecting controller "cm"
          to have reconciled default/again successfully within 200ms
        but its last reconcile asked for a rate-limited requeue:
          REQUEUE
        reconciles of default/again: 1 (oldest first)
          1. REQUEUE
        work queue: queued [], in flight [], waiting [default/again]""";
    assertThat(error).hasMessage(expected).hasNoCause();
    assertThat(error.getSuppressed()).isEmpty();
  }

  @Test
  void should_pass_hasReconciledSuccessfully_for_a_reconcile_that_asked_to_be_woken_later() {
    // GIVEN
    controller.start();
    // WHEN the reconcile returns requeueAfter(1h), as a periodic resync does
    create("later");
    // THEN it counts as a success, and the wait it asked for does not unsettle the key
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/later");
    assertThat(controller).workQueue().containsKey("default/later");
  }

  @Test
  void should_fail_hasReconciledSuccessfully_while_the_key_is_in_flight_again() {
    // GIVEN slow succeeded once, then an update started a second reconcile that is still running
    controller.start();
    create("slow");
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/slow");
    update("slow");
    assertThat(awaitLatch(slowReconcileStarted)).as("the second reconcile started").isTrue();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasReconciledSuccessfully("default/slow"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have reconciled default/slow successfully
        but default/slow is in flight again; its last finished reconcile:
          SUCCESS
        reconciles of default/slow: 1 (oldest first)
          1. SUCCESS
        work queue: queued [], in flight [default/slow], waiting []""");
  }

  @Test
  void should_fail_hasReconciledSuccessfully_while_the_key_waits_again() {
    // GIVEN web succeeded, and was added again with a delay
    controller.start();
    create("web");
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
    controller.workQueue().addAfter(ObjectKey.of("default", "web"), ofHours(1));
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasReconciledSuccessfully("default/web"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have reconciled default/web successfully
        but default/web is waiting again (delayed or backing off); its last finished reconcile:
          SUCCESS
        reconciles of default/web: 1 (oldest first)
          1. SUCCESS
        work queue: queued [], in flight [], waiting [default/web]""");
  }

  @Test
  void should_refuse_to_wait_on_hasReconciledAtMost() {
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        () -> assertThat(controller).within(ofSeconds(5)).hasReconciledAtMost("default/web", 1));
    // THEN
    assertThat(error).hasMessage("hasReconciledAtMost(default/web, 1) cannot wait within 5s: it "
        + "holds at once, before any event has been delivered, and an extra reconcile would only "
        + "break it after the wait. Fix: first wait for the effect, e.g. "
        + "assertThat(controller).within(ofSeconds(5)).hasReconciledAtLeast(\"default/web\", before + 1) "
        + "(before: its reconcile count before the events), or an object the reconcile writes, then call "
        + "hasReconciledAtMost(..) without within(..).");
  }

  @Test
  void should_refuse_a_null_key_naming_the_check() {
    // WHEN
    NullPointerException asText = catchThrowableOfType(NullPointerException.class,
        () -> assertThat(controller).hasReconciled((String) null));
    NullPointerException asKey = catchThrowableOfType(NullPointerException.class,
        () -> assertThat(controller).hasReconciledSuccessfully((ObjectKey) null));
    // THEN
    assertThat(asText).hasMessage("ControllerAssert.hasReconciled: the key is null. Pass "
        + "\"namespace/name\", \"name\" (cluster-scoped) or ObjectKey.of(namespace, name).");
    assertThat(asKey).hasMessage("ControllerAssert.hasReconciledSuccessfully: the key is null. "
        + "Pass \"namespace/name\", \"name\" (cluster-scoped) or ObjectKey.of(namespace, name).");
  }

  @Test
  void should_fail_hasReconciledSuccessfully_for_a_key_never_reconciled() {
    // GIVEN
    controller.start();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasReconciledSuccessfully("default/web"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have reconciled default/web successfully
        but it has not reconciled it.
        default/web was never reconciled
        work queue: queued [], in flight [], waiting []""");
  }

  @Test
  void should_pass_hasFailedToReconcile_by_type_and_by_message() {
    // GIVEN
    controller.start();
    // WHEN
    create("bad");
    // THEN
    assertThat(controller).within(ofSeconds(5)).hasFailedToReconcile("default/bad")
        .hasFailedToReconcile("default/bad", IllegalStateException.class)
        .hasFailedToReconcile("default/bad", RuntimeException.class)
        .hasFailedToReconcileWithMessageContaining("default/bad", "backend")
        .hasRequeued("default/bad");
  }

  @Test
  void should_fail_hasFailedToReconcile_for_a_key_that_succeeded() {
    // GIVEN
    controller.start();
    create("web");
    assertThat(controller).within(ofSeconds(5)).hasReconciled("default/web");
    settle();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasFailedToReconcile("default/web"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have failed to reconcile default/web
        but none of its reconciles failed.
        reconciles of default/web: 1 (oldest first)
          1. SUCCESS
        work queue: queued [], in flight [], waiting []""");
  }

  @Test
  void should_fail_hasFailedToReconcile_with_another_error_type() {
    // GIVEN
    controller.start();
    create("bad");
    assertThat(controller).within(ofSeconds(5)).hasFailedToReconcile("default/bad");
    settle();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasFailedToReconcile("default/bad", IOException.class));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have failed to reconcile default/bad with java.io.IOException
        but none of its failures matched.
        reconciles of default/bad: 1 (oldest first)
          1. ERROR IllegalStateException: backend down
        work queue: queued [], in flight [], waiting [default/bad]""");
  }

  @Test
  void should_fail_hasFailedToReconcileWithMessageContaining_quoting_the_text() {
    // GIVEN
    controller.start();
    create("bad");
    assertThat(controller).within(ofSeconds(5)).hasFailedToReconcile("default/bad");
    settle();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller)
            .hasFailedToReconcileWithMessageContaining("default/bad", "quota"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have failed to reconcile default/bad with an error message containing "quota"
        but none of its failures matched.
        reconciles of default/bad: 1 (oldest first)
          1. ERROR IllegalStateException: backend down
        work queue: queued [], in flight [], waiting [default/bad]""");
  }

  @Test
  void should_pass_hasRequeued_for_requeue_and_requeueAfter() {
    // GIVEN
    controller.start();
    // WHEN
    create("later");
    create("again");
    // THEN
    assertThat(controller).within(ofSeconds(5)).hasRequeued("default/later")
        .hasRequeued("default/again");
  }

  @Test
  void should_fail_hasRequeued_for_a_key_whose_reconciles_all_succeeded() {
    // GIVEN
    controller.start();
    create("web");
    assertThat(controller).within(ofSeconds(5)).hasReconciled("default/web");
    settle();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasRequeued("default/web"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have requeued default/web (requeue, requeueAfter or a failure)
        but none of its reconciles did.
        reconciles of default/web: 1 (oldest first)
          1. SUCCESS
        work queue: queued [], in flight [], waiting []""");
  }

  @Test
  void should_fail_reconcile_counts_with_the_actual_count() {
    // GIVEN web reconciled twice: on create and on update
    controller.start();
    create("web");
    assertThat(controller).within(ofSeconds(5)).hasReconcileCount("default/web", 1);
    settle();
    update("web");
    assertThat(controller).within(ofSeconds(5)).hasReconcileCount("default/web", 2);
    settle();
    // WHEN
    AssertionError atMost = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasReconciledAtMost("default/web", 1));
    AssertionError exactly = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasReconcileCount("default/web", 3));
    // THEN
    assertThat(atMost).hasMessage("""

        Expecting controller "cm"
          to have reconciled default/web at most 1 time
        but it reconciled it 2 times.
        reconciles of default/web: 2 (oldest first)
          1. SUCCESS
          2. SUCCESS
        work queue: queued [], in flight [], waiting []""");
    assertThat(exactly).hasMessage("""

        Expecting controller "cm"
          to have reconciled default/web exactly 3 times
        but it reconciled it 2 times.
        reconciles of default/web: 2 (oldest first)
          1. SUCCESS
          2. SUCCESS
        work queue: queued [], in flight [], waiting []""");
  }

  @Test
  void should_show_only_the_last_five_reconciles_of_a_key_numbered_from_the_first() {
    // GIVEN web reconciled 7 times
    controller.start();
    create("web");
    for (int i = 2; i <= 7; i++) {
      assertThat(controller).within(ofSeconds(5)).hasReconcileCount("default/web", i - 1);
      update("web");
    }
    assertThat(controller).within(ofSeconds(5)).hasReconcileCount("default/web", 7);
    settle();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasReconciledAtMost("default/web", 5));
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have reconciled default/web at most 5 times
        but it reconciled it 7 times.
        reconciles of default/web: 7 (last 5 shown, oldest first)
          3. SUCCESS
          4. SUCCESS
          5. SUCCESS
          6. SUCCESS
          7. SUCCESS
        work queue: queued [], in flight [], waiting []""");
  }

  @Test
  void should_fail_isIdle_listing_waiting_keys_and_their_last_failure() {
    // GIVEN
    controller.start();
    create("bad");
    assertThat(controller).within(ofSeconds(5)).hasFailedToReconcile("default/bad");
    settle();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).isIdle());
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to be idle (running, caches synced, work queue empty)
        but its work queue held 1 key:
          queued: []
          in flight: []
          waiting (delayed or backing off): [default/bad]
        last reconcile of default/bad failed (1 in a row): IllegalStateException: backend down""");
  }

  @Test
  void should_fail_isIdle_for_a_controller_that_is_not_running() {
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).isIdle());
    // THEN
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to be idle (running, caches synced, work queue empty)
        but it is not running: start it with controller.start() or \
        ControllerHarness.start(controller).""");
  }

  @Test
  void should_fail_workQueue_isEmpty_within_a_timeout_naming_the_controller() {
    // GIVEN
    controller.start();
    create("bad");
    assertThat(controller).within(ofSeconds(5)).hasFailedToReconcile("default/bad");
    settle();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).within(ofMillis(200)).workQueue().isEmpty());
    // THEN
    assertThat(error).hasMessage("""

        Expecting work queue of controller "cm"
          to be empty within 200ms
        but it still held 1 key:
          queued: []
          in flight: []
          waiting (delayed or backing off): [default/bad]
        last reconcile of default/bad failed (1 in a row): IllegalStateException: backend down""");
  }

  @Test
  void should_print_an_api_error_with_its_code_reason_and_message() {
    // GIVEN a reconciler that updates with a stale resourceVersion, and has failed once
    Controller conflicting = Controller.builder("conflicting")
        .watch(client.configMaps().inNamespace("default").runnableInformer(0),
            EventHandlers.enqueueObject())
        .withReconciler(key -> {
          ConfigMap stale = client.configMaps().inNamespace(key.namespace()).withName(key.name())
              .get();
          stale.getMetadata().setResourceVersion("1");
          client.resource(stale).update();
          return Result.done();
        })
        .withRateLimiter(RateLimiter.exponential(ofHours(1), ofHours(1)))
        .build();
    try {
      conflicting.start();
      create("web");
      assertThat(conflicting).within(ofSeconds(10)).hasFailedToReconcile("default/web")
          .workQueue().hasNoKeysInFlight();
      // WHEN
      AssertionError error = catchThrowableOfType(AssertionError.class,
          () -> assertThat(conflicting).hasReconciledSuccessfully("default/web"));
      // THEN
      String conflict = "ERROR 409 Conflict: Operation cannot be fulfilled on configmaps \"web\": "
          + "the object has been modified; please apply your changes to the latest version and "
          + "try again";
      assertThat(error).hasMessage("\nExpecting controller \"conflicting\"\n"
          + "  to have reconciled default/web successfully\n"
          + "but its last reconcile failed:\n"
          + "  " + conflict + "\n"
          + "reconciles of default/web: 1 (oldest first)\n"
          + "  1. " + conflict + "\n"
          + "work queue: queued [], in flight [], waiting [default/web]");
    } finally {
      conflicting.close();
    }
  }

  @Test
  void should_number_the_history_consistently_while_the_key_is_being_reconciled() {
    // GIVEN a key reconciled without pause: odd reconciles ask to be woken after 1ms, even ones
    // after 2ms, so each numbered line of a history can be checked against its number; the log
    // keeps 3 records, so the history never starts at 1
    AtomicInteger calls = new AtomicInteger();
    Controller busy = Controller.builder("busy")
        .watch(client.configMaps().inNamespace("default").runnableInformer(0),
            EventHandlers.enqueueObject())
        .withReconciler(key -> Result.requeueAfter(
            ofMillis(calls.incrementAndGet() % 2 == 1 ? 1 : 2)))
        .withReconcileLogLimit(3)
        .build();
    Pattern line = Pattern.compile("^  (\\d+)\\. REQUEUE_AFTER (\\d)ms$", Pattern.MULTILINE);
    Pattern count = Pattern.compile("reconciled it (\\d+) times?\\.\nreconciles of default/web: "
        + "(\\d+) ");
    try {
      busy.start();
      create("web");
      assertThat(busy).within(ofSeconds(5)).hasReconciled("default/web");
      for (int i = 0; i < 200; i++) {
        // WHEN
        AssertionError error = catchThrowableOfType(AssertionError.class,
            () -> assertThat(busy).hasReconcileCount("default/web", 0));
        // THEN the counts agree, and line n is the n-th reconcile
        Matcher counted = count.matcher(error.getMessage());
        assertThat(counted.find()).as(error.getMessage()).isTrue();
        assertThat(counted.group(2)).as(error.getMessage()).isEqualTo(counted.group(1));
        Matcher lines = line.matcher(error.getMessage());
        long last = 0;
        while (lines.find()) {
          long number = Long.parseLong(lines.group(1));
          assertThat(lines.group(2)).as("line %s of:%s", number, error.getMessage())
              .isEqualTo(number % 2 == 1 ? "1" : "2");
          last = number;
        }
        assertThat(last).as(error.getMessage()).isEqualTo(Long.parseLong(counted.group(1)));
      }
    } finally {
      busy.close();
    }
  }

  /** Waits until no key is in flight, so the queue state a message prints is settled. */
  private void settle() {
    assertThat(controller).within(ofSeconds(5)).workQueue().hasNoKeysInFlight();
  }

  private static boolean awaitLatch(CountDownLatch latch) {
    try {
      return latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private void create(String name) {
    client.configMaps().inNamespace("default").resource(configMap(name, "1")).create();
  }

  private void update(String name) {
    client.configMaps().inNamespace("default").withName(name)
        .edit(cm -> new ConfigMapBuilder(cm).addToData("v", cm.getData().get("v") + "1").build());
  }

  private static ConfigMap configMap(String name, String value) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default")
        .endMetadata().withData(Map.of("v", value)).build();
  }
}
