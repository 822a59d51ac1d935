package dev.ctk.assertions;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.RateLimiter;
import dev.ctk.controller.WorkQueue;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkQueueAssertTest {

  private static final ObjectKey WEB = ObjectKey.of("default", "web");
  private static final ObjectKey API = ObjectKey.of("default", "api");
  private static final ObjectKey DB = ObjectKey.of("default", "db");

  // retries back off for an hour, so a retried key stays "waiting" for the whole test
  private final WorkQueue<ObjectKey> queue = WorkQueue.<ObjectKey>builder().withName("q")
      .withRateLimiter(RateLimiter.exponential(ofHours(1), ofHours(1))).build();

  @AfterEach
  void closeQueue() {
    queue.close();
  }

  @Test
  void should_pass_isEmpty_when_the_queue_holds_nothing() {
    // GIVEN a key that was added, handed out and done
    queue.add(WEB);
    ObjectKey key = take();
    queue.done(key);
    // WHEN / THEN
    assertThat(queue).isEmpty().hasDepth(0).hasNoKeysInFlight().doesNotContainKey(WEB);
  }

  @Test
  void should_fail_isEmpty_listing_queued_in_flight_and_waiting_keys() {
    // GIVEN one key in flight, one queued, one waiting on a delay
    queue.add(WEB);
    take();
    queue.add(API);
    queue.addAfter(DB, ofHours(1));
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(queue).isEmpty());
    // THEN
    assertThat(error).hasMessage("""

        Expecting work queue "q"
          to be empty
        but it held 3 keys:
          queued: [default/api]
          in flight: [default/web]
          waiting (delayed or backing off): [default/db]""");
  }

  @Test
  void should_pass_isEmpty_within_a_timeout_once_a_worker_has_drained_the_queue() {
    // GIVEN keys, and a worker that takes and finishes each of them on another thread
    queue.add(WEB);
    queue.add(API);
    CompletableFuture<Void> worker = CompletableFuture.runAsync(() -> {
      for (int i = 0; i < 2; i++) {
        queue.done(take());
      }
    });
    // WHEN / THEN
    assertThat(queue).within(ofSeconds(5)).isEmpty();
    worker.join();
  }

  @Test
  void should_fail_isEmpty_within_a_timeout_with_the_last_failures_message_once() {
    // GIVEN a key nobody takes
    queue.add(WEB);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(queue).within(ofMillis(200)).isEmpty());
    // THEN
    String expected = """

        Expecting work queue "q"
          to be empty within 200ms
        but it still held 1 key:
          queued: [default/web]
          in flight: []
          waiting (delayed or backing off): []""";
    assertThat(error).hasMessage(expected).hasNoCause();
    assertThat(error.getSuppressed()).isEmpty();
  }

  @Test
  void should_leave_the_original_assertion_immediate_when_within_is_called() {
    // GIVEN
    queue.add(WEB);
    WorkQueueAssert immediate = assertThat(queue);
    // WHEN
    immediate.within(ofSeconds(5));
    AssertionError error = catchThrowableOfType(AssertionError.class, immediate::isEmpty);
    // THEN the original still checks once, without "within"
    assertThat(error.getMessage()).contains("\n  to be empty\n").doesNotContain("within");
  }

  @Test
  void should_fail_hasDepth_with_the_actual_depth_and_contents() {
    // GIVEN
    queue.add(WEB);
    queue.add(API);
    take();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(queue).hasDepth(2));
    // THEN
    assertThat(error).hasMessage("""

        Expecting work queue "q"
          to have depth 2 (keys queued and ready)
        but its depth was 1:
          queued: [default/api]
          in flight: [default/web]
          waiting (delayed or backing off): []""");
  }

  @Test
  void should_pass_hasDepth_counting_only_ready_keys() {
    // GIVEN one ready key, one in flight and one waiting
    queue.add(WEB);
    take();
    queue.add(API);
    queue.addAfter(DB, ofHours(1));
    // WHEN / THEN
    assertThat(queue).hasDepth(1);
  }

  @Test
  void should_pass_containsKey_for_queued_in_flight_and_waiting_keys() {
    // GIVEN
    queue.add(WEB);
    take();
    queue.add(API);
    queue.addAfter(DB, ofHours(1));
    // WHEN / THEN
    assertThat(queue).containsKey(WEB).containsKey("default/api").containsKey(DB)
        .doesNotContainKey("default/other");
  }

  @Test
  void should_fail_containsKey_listing_what_the_queue_holds() {
    // GIVEN
    queue.add(API);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(queue).containsKey("default/web"));
    // THEN
    assertThat(error).hasMessage("""

        Expecting work queue "q"
          to contain default/web (queued, in flight or waiting)
        but it did not:
          queued: [default/api]
          in flight: []
          waiting (delayed or backing off): []""");
  }

  @Test
  void should_fail_doesNotContainKey_when_the_key_is_waiting() {
    // GIVEN
    queue.addAfter(WEB, ofHours(1));
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(queue).doesNotContainKey(WEB));
    // THEN
    assertThat(error).hasMessage("""

        Expecting work queue "q"
          not to contain default/web
        but it did:
          queued: []
          in flight: []
          waiting (delayed or backing off): [default/web]""");
  }

  @Test
  void should_fail_hasNoKeysInFlight_naming_the_keys_in_flight() {
    // GIVEN
    queue.add(WEB);
    queue.add(API);
    take();
    take();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(queue).hasNoKeysInFlight());
    // THEN
    assertThat(error).hasMessage("""

        Expecting work queue "q"
          to have no key in flight
        but 2 keys were in flight: [default/web, default/api]""");
  }

  @Test
  void should_pass_hasRetried_counting_rate_limited_adds() {
    // GIVEN
    queue.addRateLimited(WEB);
    queue.addRateLimited(API);
    // WHEN / THEN
    assertThat(queue).hasRetried(2).containsKey(WEB);
  }

  @Test
  void should_fail_hasRetried_with_the_actual_count() {
    // GIVEN
    queue.addRateLimited(WEB);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(queue).hasRetried(3));
    // THEN
    assertThat(error).hasMessage("""

        Expecting work queue "q"
          to have counted 3 retries (addRateLimited)
        but it counted 1.
          queued: []
          in flight: []
          waiting (delayed or backing off): [default/web]""");
  }

  @Test
  void should_prefix_the_message_with_the_description_set_by_as() {
    // GIVEN
    queue.add(WEB);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(queue).as("after the sync").within(ofMillis(50)).hasDepth(0));
    // THEN
    assertThat(error.getMessage()).startsWith("[after the sync] \nExpecting work queue \"q\"\n");
  }

  @Test
  void should_fail_on_a_null_queue() {
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat((WorkQueue<?>) null).isEmpty());
    // THEN
    assertThat(error).hasMessage("\nExpecting actual not to be null");
  }

  @Test
  void should_refuse_a_null_key_naming_the_check() {
    // WHEN
    NullPointerException error = catchThrowableOfType(NullPointerException.class,
        () -> assertThat(queue).containsKey((ObjectKey) null));
    // THEN
    assertThat(error).hasMessage("WorkQueueAssert.containsKey: the key is null. Pass "
        + "\"namespace/name\", \"name\" (cluster-scoped) or ObjectKey.of(namespace, name).");
  }

  @Test
  void should_wait_the_same_way_whatever_awaitilitys_global_defaults_say() {
    // GIVEN global defaults that would fail every wait at once, slow polling and observe it
    AtomicInteger evaluationsSeenByTheGlobalListener = new AtomicInteger();
    Awaitility.setDefaultFailFastCondition("the user's own fail-fast condition", () -> true);
    Awaitility.setDefaultConditionEvaluationListener(
        condition -> evaluationsSeenByTheGlobalListener.incrementAndGet());
    Awaitility.setDefaultPollInterval(ofSeconds(10));
    Awaitility.ignoreExceptionsByDefault();
    try {
      // WHEN a key is taken and done on another thread while the assertion waits
      queue.add(WEB);
      CompletableFuture<Void> worker = CompletableFuture.runAsync(() -> queue.done(take()));
      assertThat(queue).within(ofSeconds(5)).isEmpty();
      worker.join();
      queue.add(API);
      AssertionError error = catchThrowableOfType(AssertionError.class,
          () -> assertThat(queue).within(ofMillis(200)).isEmpty());
      // THEN it passed, then failed with ctk's own message, unseen by the global listener
      assertThat(error).hasMessage("""

          Expecting work queue "q"
            to be empty within 200ms
          but it still held 1 key:
            queued: [default/api]
            in flight: []
            waiting (delayed or backing off): []""");
      assertThat(evaluationsSeenByTheGlobalListener).hasValue(0);
    } finally {
      Awaitility.reset();
    }
  }

  @Test
  void should_reject_a_timeout_that_is_not_positive() {
    // WHEN
    IllegalArgumentException error = catchThrowableOfType(IllegalArgumentException.class,
        () -> assertThat(queue).within(Duration.ZERO));
    // THEN
    assertThat(error).hasMessage("within(PT0S): the timeout must be positive, such as "
        + "Duration.ofSeconds(5). Without within(..) an assertion checks once, at once.");
  }

  private ObjectKey take() {
    try {
      Optional<ObjectKey> key = queue.poll(ofSeconds(5));
      return key.orElseThrow(() -> new AssertionError("no key handed out within 5s"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
