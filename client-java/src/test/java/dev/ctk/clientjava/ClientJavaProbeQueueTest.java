package dev.ctk.clientjava;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.WorkQueueStats;
import io.kubernetes.client.extended.controller.reconciler.Reconciler;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.extended.controller.reconciler.Result;
import io.kubernetes.client.extended.workqueue.RateLimitingQueue;
import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The probe's work queue and reconciler driven the way client-java's {@code DefaultController} drives
 * them (get, reconcile, then addRateLimited / addAfter / forget, then done), without a cluster, so
 * that every state is exact. Retries back off for an hour: a key that failed stays waiting.
 */
class ClientJavaProbeQueueTest {

  private final ClientJavaProbe probe = ClientJavaProbe.create("scripted");
  private final RateLimitingQueue<Request> queue =
      probe.rateLimitingQueue(new ItemExponentialFailureRateLimiter<>(ofHours(1), ofHours(1)));

  @AfterEach
  void shutDown() {
    queue.shutDown();
  }

  @Test
  void should_count_every_add_and_queue_each_key_once() {
    // WHEN
    queue.add(request("a"));
    queue.add(request("a"));
    queue.add(request("b"));
    queue.add(request("a"));
    // THEN
    WorkQueueStats stats = probe.workQueue().stats();
    assertThat(stats.queuedKeys()).containsExactly("default/a", "default/b");
    assertThat(stats.adds()).isEqualTo(4);
    assertThat(queue.length()).isEqualTo(2);
    assertThat(probe).workQueue().hasDepth(2).containsKey("default/a").hasNoKeysInFlight();
  }

  @Test
  void should_show_a_key_in_flight_from_get_and_queued_again_when_re_added_meanwhile()
      throws InterruptedException {
    // GIVEN
    queue.add(request("a"));
    // WHEN
    Request handedOut = queue.get();
    // THEN
    assertThat(probe.workQueue().stats().inFlightKeys()).containsExactly("default/a");
    assertThat(probe.workQueue().stats().queuedKeys()).isEmpty();
    // WHEN an event re-adds the key while a worker holds it
    queue.add(request("a"));
    // THEN client-java marks it dirty: queued again, and handed out after done
    assertThat(probe.workQueue().stats().queuedKeys()).containsExactly("default/a");
    runAsDefaultController(handedOut, probe.reconciler(request -> new Result(false)));
    assertThat(queue.length()).isEqualTo(1);
    assertThat(probe.workQueue().stats().queuedKeys()).containsExactly("default/a");
    assertThat(probe.workQueue().stats().inFlightKeys()).isEmpty();
  }

  @Test
  void should_record_each_outcome_as_client_java_result_says() throws InterruptedException {
    // GIVEN
    Reconciler reconciler = probe.reconciler(request -> switch (request.getName()) {
      case "requeue" -> new Result(true);
      case "later" -> new Result(true, ofHours(1));
      case "bad" -> throw new IllegalStateException("backend down");
      default -> new Result(false);
    });
    for (String name : List.of("done", "requeue", "later", "bad")) {
      queue.add(request(name));
    }
    // WHEN
    for (int i = 0; i < 4; i++) {
      runAsDefaultController(queue.get(), reconciler);
    }
    // THEN
    assertThat(probe.reconcileLog()).extracting(r -> r.key().name(), ReconcileRecord::outcome)
        .containsExactly(
            tuple("done", ReconcileOutcome.SUCCESS),
            tuple("requeue", ReconcileOutcome.REQUEUE),
            tuple("later", ReconcileOutcome.REQUEUE_AFTER),
            tuple("bad", ReconcileOutcome.ERROR));
    assertThat(probe.reconcileLog().get(2).requeueAfter()).isEqualTo(ofHours(1));
    assertThat(probe.reconcileLog().get(3).error()).hasMessage("backend down");
    WorkQueueStats stats = probe.workQueue().stats();
    assertThat(stats.waitingKeys()).containsExactlyInAnyOrder("default/requeue", "default/later",
        "default/bad");
    assertThat(stats.retries()).isEqualTo(2);
    assertThat(probe).hasReconciledSuccessfully("default/done")
        .hasReconciledSuccessfully("default/later")
        .hasRequeued("default/requeue")
        .hasFailedToReconcile("default/bad", IllegalStateException.class);
  }

  @Test
  void should_fail_hasReconciledSuccessfully_in_client_java_words() throws InterruptedException {
    // GIVEN
    queue.add(request("bad"));
    runAsDefaultController(queue.get(), probe.reconciler(request -> {
      throw new IllegalStateException("backend down");
    }));
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).hasReconciledSuccessfully("default/bad"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting Kubernetes Java client controller "scripted"
          to have reconciled default/bad successfully
        but its last reconcile failed:
          exception IllegalStateException: backend down
        reconciles of default/bad: 1 (oldest first)
          1. exception IllegalStateException: backend down
        work queue: queued [], in flight [], waiting [default/bad]""");
  }

  @Test
  void should_fail_isIdle_listing_the_keys_that_wait() throws InterruptedException {
    // GIVEN
    queue.add(request("later"));
    runAsDefaultController(queue.get(), probe.reconciler(request -> new Result(true, ofHours(1))));
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).isIdle());
    // THEN
    assertThat(error).hasMessage("""

        Expecting Kubernetes Java client controller "scripted"
          to be idle (running, caches synced, work queue empty)
        but its work queue held 1 key:
          queued: []
          in flight: []
          waiting (delayed or backing off): [default/later]""");
  }

  @Test
  void should_number_attempts_by_the_rate_limiter_s_numRequeues() throws InterruptedException {
    // GIVEN a reconciler that fails twice, then succeeds
    int[] calls = {0};
    Reconciler reconciler = probe.reconciler(request -> {
      if (calls[0]++ < 2) {
        throw new IllegalStateException("attempt " + (calls[0] - 1));
      }
      return new Result(false);
    });
    // WHEN an event brings the key back each time, before its hour of backoff is over
    for (int i = 0; i < 3; i++) {
      queue.add(request("flaky"));
      runAsDefaultController(queue.get(), reconciler);
    }
    // THEN
    assertThat(probe.reconcileLog()).extracting(ReconcileRecord::attempt, ReconcileRecord::outcome)
        .containsExactly(
            tuple(0, ReconcileOutcome.ERROR),
            tuple(1, ReconcileOutcome.ERROR),
            tuple(2, ReconcileOutcome.SUCCESS));
    assertThat(queue.numRequeues(request("flaky"))).isZero();
    // client-java still adds the key when its last backoff ends: it is shown waiting
    assertThat(probe.workQueue().stats().waitingKeys()).containsExactly("default/flaky");
  }

  @Test
  void should_record_a_null_result_as_an_exception_that_explains_it() throws InterruptedException {
    // GIVEN
    queue.add(request("null"));
    Reconciler reconciler = probe.reconciler(request -> null);
    // WHEN
    Result result = reconciler.reconcile(queue.get());
    // THEN
    assertThat(result).isNull();
    ReconcileRecord record = probe.reconcileLog().get(0);
    assertThat(record.outcome()).isEqualTo(ReconcileOutcome.ERROR);
    assertThat(record.error()).isInstanceOf(NullPointerException.class).hasMessageStartingWith(
        "the Reconciler (").hasMessageEndingWith(") of Kubernetes Java client controller "
        + "\"scripted\" returned null for default/null. DefaultController cannot handle a null "
        + "Result: the worker thread that called it ends and default/null stays in flight. Fix: "
        + "return new Result(false) when done, new Result(true) to retry with backoff, or new "
        + "Result(true, delay).");
  }

  @Test
  void should_infer_outcomes_from_the_queue_alone() throws InterruptedException {
    // GIVEN no reconciler wrapper: the controller calls its own reconciler
    for (String name : List.of("forgotten", "retried", "delayed")) {
      queue.add(request(name));
    }
    // WHEN
    Request forgotten = queue.get();
    queue.forget(forgotten);
    queue.done(forgotten);
    Request retried = queue.get();
    queue.addRateLimited(retried);
    queue.done(retried);
    Request delayed = queue.get();
    queue.addAfter(delayed, ofHours(2));
    queue.done(delayed);
    // THEN
    assertThat(probe.reconcileLog()).extracting(r -> r.key().name(), ReconcileRecord::outcome,
            ReconcileRecord::requeueAfter)
        .containsExactly(
            tuple("forgotten", ReconcileOutcome.SUCCESS, null),
            tuple("retried", ReconcileOutcome.REQUEUE, null),
            tuple("delayed", ReconcileOutcome.REQUEUE_AFTER,
                ofHours(2)));
  }

  @Test
  void should_record_reconciles_with_the_reconciler_alone() {
    // GIVEN a probe whose reconciler runs without its work queue
    ClientJavaProbe alone = ClientJavaProbe.create("alone");
    Reconciler reconciler = alone.reconciler(request -> new Result(request.getName().equals("x")));
    // WHEN
    reconciler.reconcile(request("x"));
    reconciler.reconcile(request("x"));
    reconciler.reconcile(request("y"));
    // THEN attempts count the requeues in a row
    assertThat(alone.reconcileLog()).extracting(r -> r.key().name(), ReconcileRecord::attempt,
            ReconcileRecord::outcome)
        .containsExactly(
            tuple("x", 0, ReconcileOutcome.REQUEUE),
            tuple("x", 1, ReconcileOutcome.REQUEUE),
            tuple("y", 0, ReconcileOutcome.SUCCESS));
    assertThat(alone.isRunning()).isTrue();
  }

  @Test
  void should_queue_a_delayed_key_once_its_delay_passed() {
    // WHEN
    queue.addAfter(request("soon"), ofMillis(50));
    // THEN
    assertThat(probe.workQueue().stats().waitingKeys()).containsExactly("default/soon");
    assertThat(probe).workQueue().within(ofSeconds(5)).hasDepth(1).containsKey("default/soon");
    assertThat(probe.workQueue().stats().adds()).isEqualTo(1);
    assertThat(probe.workQueue().stats().waitingKeys()).isEmpty();
  }

  @Test
  void should_run_from_the_first_get_until_the_queue_shuts_down() throws InterruptedException {
    // GIVEN
    assertThat(probe.isRunning()).isFalse();
    queue.add(request("a"));
    // WHEN
    queue.done(queue.get());
    // THEN
    assertThat(probe.isRunning()).isTrue();
    queue.shutDown();
    assertThat(probe.isRunning()).isFalse();
    assertThat(probe.workQueue().stats().shuttingDown()).isTrue();
  }

  @Test
  void should_refuse_a_second_work_queue_or_reconciler() {
    // GIVEN
    probe.reconciler(request -> new Result(false));
    // THEN
    assertThatThrownBy(probe::rateLimitingQueue).isInstanceOf(IllegalStateException.class)
        .hasMessage("ClientJavaProbe \"scripted\" already made a work queue. A probe observes one "
            + "controller: call rateLimitingQueue() once, or create a probe per controller.");
    assertThatThrownBy(() -> probe.reconciler(request -> new Result(false)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("ClientJavaProbe \"scripted\" already wraps a reconciler. A probe observes one "
            + "controller: call reconciler(..) once, or create a probe per controller.");
  }

  @Test
  void should_pass_on_requests_without_a_name_unrecorded() throws InterruptedException {
    // GIVEN
    Request nameless = new Request("default", null);
    // WHEN
    queue.add(nameless);
    Request handedOut = queue.get();
    Result result = probe.reconciler(request -> new Result(false)).reconcile(handedOut);
    queue.done(handedOut);
    // THEN
    assertThat(result).isEqualTo(new Result(false));
    assertThat(probe.reconcileLog()).isEmpty();
    assertThat(probe.workQueue().stats().adds()).isZero();
  }

  /** What DefaultController's worker does with a key it got. */
  private void runAsDefaultController(Request request, Reconciler reconciler) {
    Result result;
    try {
      result = reconciler.reconcile(request);
    } catch (RuntimeException e) {
      result = new Result(true);
    }
    if (result.isRequeue()) {
      if (result.getRequeueAfter() == null) {
        queue.addRateLimited(request);
      } else {
        queue.addAfter(request, result.getRequeueAfter());
      }
    } else {
      queue.forget(request);
    }
    queue.done(request);
  }

  private static Request request(String name) {
    return new Request("default", name);
  }
}
