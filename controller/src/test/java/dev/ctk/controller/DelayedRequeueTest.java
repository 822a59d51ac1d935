package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

/**
 * A hand-written loop's delayed retries as its probe sees them: waiting until the key is back in the queue, retries
 * counted, and a failure whose next step nobody told the probe keeps it from looking idle.
 */
class DelayedRequeueTest {

  private static final ObjectKey WEB = ObjectKey.of("default", "web");

  private final ManualTimeSource time = new ManualTimeSource();
  private final ControllerProbe probe = ControllerProbe.builder("syncer").withTimeSource(time).build();
  private final BlockingQueue<String> queue = probe.observe(new LinkedBlockingQueue<>());
  private final DelayedRequeue<String> requeue = probe.delayedRequeue(queue);

  @Test
  void should_show_a_retried_key_waiting_until_it_is_back_in_the_queue() throws Exception {
    // GIVEN a reconcile that fails, and the loop's retry in two seconds
    failOnce("default/web");
    requeue.retryAfter("default/web", Duration.ofSeconds(2));
    // THEN it waits, counted as a retry
    assertThat(probe.workQueue().stats().waitingKeys()).containsExactly("default/web");
    assertThat(probe.workQueue().stats().retries()).isEqualTo(1);
    assertThat(probe.unaccountedKeys()).isEmpty();
    // WHEN one second passes THEN it still waits
    time.advance(Duration.ofSeconds(1));
    assertThat(probe.workQueue().stats().isIdle()).isFalse();
    assertThat(queue).isEmpty();
    // WHEN the delay passed THEN it is back in the queue, not waiting any more
    time.advance(Duration.ofSeconds(1));
    assertThat(queue).containsExactly("default/web");
    WorkQueueStats stats = probe.workQueue().stats();
    assertThat(stats.queuedKeys()).containsExactly("default/web");
    assertThat(stats.waitingKeys()).isEmpty();
    assertThat(stats.adds()).isEqualTo(1);
    assertThat(requeue.pending()).isEmpty();
  }

  @Test
  void should_keep_the_latest_deadline_when_a_key_is_requeued_again() {
    // WHEN
    requeue.after("default/web", Duration.ofSeconds(5));
    requeue.after("default/web", Duration.ofSeconds(10));
    time.advance(Duration.ofSeconds(6));
    // THEN the first timer was cancelled
    assertThat(queue).isEmpty();
    assertThat(probe.workQueue().stats().waitingKeys()).containsExactly("default/web");
    time.advance(Duration.ofSeconds(4));
    assertThat(queue).containsExactly("default/web");
    assertThat(probe.workQueue().stats().retries()).isZero();
  }

  @Test
  void should_count_a_failure_nobody_accounted_for_as_waiting() throws Exception {
    // WHEN the loop retries through its own executor, which the probe does not see
    failOnce("default/web");
    // THEN the probe cannot know: the key counts as waiting, with no deadline that would end it
    assertThat(probe.unaccountedKeys()).containsExactly(WEB);
    assertThat(probe.workQueue().stats().waitingKeys()).containsExactly("default/web");
    time.advance(Duration.ofHours(1));
    assertThat(probe.workQueue().stats().isIdle()).isFalse();
    // WHEN the loop says it dropped the key THEN the probe is idle
    probe.removed(WEB);
    assertThat(probe.unaccountedKeys()).isEmpty();
    assertThat(probe.workQueue().stats().isIdle()).isTrue();
  }

  @Test
  void should_account_for_a_failure_whose_retry_was_declared_first_or_queued_after() throws Exception {
    // WHEN a framework declares the backoff before it ends the reconcile
    ControllerProbe.Reconciliation first = probe.reconcileStarted(WEB);
    probe.addedRateLimited(WEB, Duration.ofSeconds(1));
    first.failed(new IOException("conflict"));
    // THEN nothing is unaccounted
    assertThat(probe.unaccountedKeys()).isEmpty();
    // WHEN a failed key is put straight back in the observed queue
    time.advance(Duration.ofSeconds(1));
    failOnce("default/web");
    queue.add("default/web");
    // THEN the insert accounts for it
    assertThat(probe.unaccountedKeys()).isEmpty();
    assertThat(probe.workQueue().stats().queuedKeys()).containsExactly("default/web");
  }

  @Test
  void should_drop_pending_requeues_when_closed_and_refuse_new_ones() {
    // GIVEN
    requeue.after("default/web", Duration.ofSeconds(5));
    // WHEN
    requeue.close();
    time.advance(Duration.ofSeconds(5));
    // THEN
    assertThat(queue).isEmpty();
    assertThat(probe.workQueue().stats().isIdle()).isTrue();
    IllegalStateException e = catchThrowableOfType(IllegalStateException.class,
        () -> requeue.retryAfter("default/web", Duration.ofSeconds(1)));
    assertThat(e).hasMessage("DelayedRequeue of probe \"syncer\" is closed; default/web was not requeued. Requeue "
        + "only while the controller runs.");
  }

  private void failOnce(String key) {
    Throwable thrown = catchThrowable(() -> probe.reconcile(key, () -> {
      throw new IOException("the API server said no");
    }));
    assertThat(thrown).isInstanceOf(IOException.class);
  }
}
