package dev.ctk.examples.docs;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;

import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.DelayedRequeue;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A hand-written loop that retries a failed key after a delay, through its probe's {@link DelayedRequeue} instead of
 * a timer of its own, so that the probe sees the retry pending (docs/frameworks.md).
 */
class DelayedRequeueExampleTest {

  @Test
  void a_retry_through_the_probe_is_seen_pending_and_counted() throws Exception {
    ControllerProbe probe = ControllerProbe.create("config-syncer");
    AtomicInteger attempts = new AtomicInteger();
    // region:requeue
    BlockingQueue<String> queue = probe.observe(new LinkedBlockingQueue<>());
    DelayedRequeue<String> requeue = probe.delayedRequeue(queue);        // on the probe's time source
    // endregion:requeue
    Thread worker = new Thread(() -> {
      try {
        while (true) {
          String key = queue.take();
          try {
            probe.reconcile(key, () -> {
              if (attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("the backend is not up yet");
              }
            });
          } catch (Exception e) {
            // region:retry
            requeue.retryAfter(key, Duration.ofMillis(300));              // waits, counted by hasRetried(n)
            // endregion:retry
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "config-syncer-worker");
    worker.start();
    try {
      queue.add("default/settings");
      assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully("default/settings").isIdle();
      assertThat(probe).workQueue().hasRetried(1);
      assertThat(probe).hasReconcileCount("default/settings", 2);
    } finally {
      worker.interrupt();
      worker.join();
      requeue.close();
    }
  }
}
