package dev.ctk.assertions.internal;

import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.VirtualTime;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shared text of errors, measured times, slow reconciles and a controller's state report, on a
 * probe whose clock the test moves, so that every string is compared whole.
 */
class StateFormatTest {

  private static final ObjectKey WEB = ObjectKey.of("default", "web");
  private static final ObjectKey API = ObjectKey.of("default", "api");
  private static final ObjectKey DB = ObjectKey.of("default", "db");

  private final VirtualTime time = VirtualTime.create();
  private final ControllerProbe probe = ControllerProbe.builder("webapp").withTimeSource(time)
      .build();

  @Test
  void should_name_an_error_by_its_whole_first_line_however_long() {
    // GIVEN a one-line message of 300 characters
    String message = "x".repeat(300);
    // WHEN / THEN
    assertThat(StateFormat.error(new IllegalStateException(message)))
        .isEqualTo("IllegalStateException: " + message);
    assertThat(StateFormat.error(new IllegalStateException("first\nsecond")))
        .isEqualTo("IllegalStateException: first ...");
    assertThat(StateFormat.error(null)).isEqualTo("no error recorded");
  }

  @Test
  void should_write_a_measured_time_as_a_stopwatch_does() {
    assertThat(StateFormat.elapsed(Duration.ofNanos(850_400))).isEqualTo("850µs");
    assertThat(StateFormat.elapsed(ofMillis(4))).isEqualTo("4ms");
    assertThat(StateFormat.elapsed(ofMillis(999))).isEqualTo("999ms");
    assertThat(StateFormat.elapsed(ofMillis(12_345))).isEqualTo("12.3s");
    assertThat(StateFormat.elapsed(ofSeconds(125))).isEqualTo("2m5s");
  }

  @Test
  void should_report_a_key_in_flight_more_than_ten_times_its_median_and_at_least_a_second() {
    // GIVEN finished reconciles of 4ms, 6ms and 100ms (median 6ms)
    List<ReconcileRecord> log = List.of(finished(WEB, ofMillis(4)), finished(WEB, ofMillis(100)),
        finished(WEB, ofMillis(6)), finished(API, ofMillis(200)), finished(API, ofMillis(300)));
    Map<ObjectKey, Duration> running = new LinkedHashMap<>();
    running.put(WEB, ofMillis(12_300));
    running.put(API, ofMillis(2_400));
    // WHEN
    String text = SlowReconciles.lines(running, log, "  ");
    // THEN default/api (median 250ms, 9.6 times) is not slow
    assertThat(text).isEqualTo("  default/web in flight for 12.3s (its reconciles usually take 6ms)\n");
  }

  @Test
  void should_not_report_a_key_in_flight_under_a_second_however_many_times_its_median() {
    List<ReconcileRecord> log = List.of(finished(WEB, ofMillis(1)));
    assertThat(SlowReconciles.lines(Map.of(WEB, ofMillis(999)), log, "")).isEmpty();
    assertThat(SlowReconciles.lines(Map.of(WEB, ofSeconds(1)), log, ""))
        .isEqualTo("default/web in flight for 1.0s (its reconciles usually take 1ms)\n");
  }

  @Test
  void should_take_the_middle_of_an_even_number_of_reconciles_as_their_median() {
    List<ReconcileRecord> log = List.of(finished(WEB, ofMillis(100)), finished(WEB, ofMillis(300)));
    assertThat(SlowReconciles.lines(Map.of(WEB, ofMillis(2_000)), log, "")).isEmpty();
    assertThat(SlowReconciles.lines(Map.of(WEB, ofMillis(2_001)), log, ""))
        .isEqualTo("default/web in flight for 2.0s (its reconciles usually take 200ms)\n");
  }

  @Test
  void should_report_a_key_none_of_whose_reconciles_finished_only_after_five_seconds() {
    assertThat(SlowReconciles.lines(Map.of(DB, ofSeconds(5)), List.of(), "")).isEmpty();
    assertThat(SlowReconciles.lines(Map.of(DB, ofMillis(5_001)), List.of(), ""))
        .isEqualTo("default/db in flight for 5.0s (none of its reconciles has finished)\n");
  }

  @Test
  void should_report_the_state_with_slow_keys_and_each_last_error_whole_once() {
    // GIVEN default/web fails with a cause chain and a multi-line message, default/api fails with
    // the same error (the same object), default/db fails with an equal error (another object)
    IOException root = error(new IOException("connection reset"), "com.example.Backend", "read", 88);
    IllegalStateException failure = error(new IllegalStateException("backend call failed:\n"
        + "  status 503\n  body <html>busy</html>", root), "com.example.WebReconciler", "reconcile", 42);
    probe.reconcileStarted(WEB).failed(failure);
    probe.reconcileStarted(API).failed(failure);
    probe.reconcileStarted(DB).failed(error(new IllegalStateException("backend call failed:\n"
        + "  status 503\n  body <html>busy</html>", root), "com.example.WebReconciler", "reconcile", 42));
    probe.addedRateLimited(WEB, ofHours(1));
    probe.removed(API);   // the framework drops these two: nothing is pending for them
    probe.removed(DB);
    // AND a key whose reconciles take 4ms is in flight for 12.3s
    ObjectKey slow = ObjectKey.of("default", "slow");
    ControllerProbe.Reconciliation first = probe.reconcileStarted(slow);
    time.advance(ofMillis(4));
    first.succeeded();
    probe.reconcileStarted(slow);
    time.advance(ofMillis(12_300));
    // WHEN
    String report = StateFormat.report(probe);
    // THEN
    assertThat(report).isEqualTo("""
        controller "webapp": running, caches synced
          work queue: queued [], in flight [default/slow], waiting [default/web]; 0 adds, 1 retry
          reconciles: 4 (1 succeeded, 3 failed, 0 requeued)
          default/api: 1 reconcile, last ERROR IllegalStateException: backend call failed: ...
          default/db: 1 reconcile, last ERROR IllegalStateException: backend call failed: ...
          default/slow: 1 reconcile, last SUCCESS
          default/web: 1 reconcile, last ERROR IllegalStateException: backend call failed: ...
          default/slow in flight for 12.3s (its reconciles usually take 4ms)
          last error of default/api:
            java.lang.IllegalStateException: backend call failed:
              status 503
              body <html>busy</html>
            \tat com.example.WebReconciler.reconcile(WebReconciler.java:42)
            Caused by: java.io.IOException: connection reset
            \tat com.example.Backend.read(Backend.java:88)
          last error of default/db: the same as the last error of default/api, above
          last error of default/web: the same as the last error of default/api, above
        """);
  }

  private ReconcileRecord finished(ObjectKey key, Duration took) {
    ControllerProbe.Reconciliation reconciliation = probe.reconcileStarted(key);
    time.advance(took);
    return reconciliation.succeeded();
  }

  private static <T extends Throwable> T error(T error, String type, String method, int line) {
    error.setStackTrace(new StackTraceElement[] {new StackTraceElement(type, method,
        type.substring(type.lastIndexOf('.') + 1) + ".java", line)});
    return error;
  }
}
