package dev.ctk.assertions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.controller.ControllerStats;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.WorkQueueStats;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The snapshot of one key is consistent even when the controller reconciles the key between the
 * reads of its log and of its counters: the reads are scripted here, so the race is deterministic.
 */
class KeyStateTest {

  private static final ObjectKey WEB = ObjectKey.of("default", "web");
  private static final ReconcileRecord FIRST = record(1, ReconcileOutcome.SUCCESS);
  private static final ReconcileRecord SECOND = record(2, ReconcileOutcome.ERROR);
  private static final ReconcileRecord THIRD = record(3, ReconcileOutcome.REQUEUE);
  private static final ReconcileRecord FOURTH = record(4, ReconcileOutcome.SUCCESS);

  @Test
  void should_cut_a_newer_log_at_the_last_reconcile_the_counters_know() {
    // GIVEN the log is read with two reconciles, the counters with three, the log again with four
    Deque<List<ReconcileRecord>> logReads =
        new ArrayDeque<>(List.of(List.of(FIRST, SECOND), List.of(FIRST, SECOND, THIRD, FOURTH)));
    // WHEN
    KeyState state = KeyState.of(logReads::pop, () -> stats(3, THIRD), WEB);
    // THEN count, history and last outcome describe the same three reconciles
    assertThat(state.total()).isEqualTo(3);
    assertThat(state.last()).isEqualTo(THIRD);
    assertThat(state.records()).containsExactly(FIRST, SECOND, THIRD);
    assertThat(state.history()).isEqualTo("""
        reconciles of default/web: 3 (oldest first)
          1. SUCCESS
          2. ERROR no error recorded
          3. REQUEUE
        """);
  }

  @Test
  void should_read_the_log_once_when_it_agrees_with_the_counters() {
    // GIVEN
    Deque<List<ReconcileRecord>> logReads = new ArrayDeque<>(List.of(List.of(FIRST, SECOND)));
    // WHEN
    KeyState state = KeyState.of(logReads::pop, () -> stats(2, SECOND), WEB);
    // THEN
    assertThat(logReads).isEmpty();
    assertThat(state.records()).containsExactly(FIRST, SECOND);
    assertThat(state.last()).isEqualTo(SECOND);
  }

  private static ReconcileRecord record(long sequence, ReconcileOutcome outcome) {
    Instant at = Instant.EPOCH.plusSeconds(sequence);
    return new ReconcileRecord(sequence, WEB, "worker", at, at, outcome, null, null, 0);
  }

  private static ControllerStats stats(long reconciles, ReconcileRecord last) {
    WorkQueueStats queue = new WorkQueueStats("cm", 0, List.of(), List.of(), List.of(), 0, 0,
        false);
    return new ControllerStats("cm", true, queue, reconciles, 0, 0, 0, 0,
        Map.of(WEB, reconciles), Map.of(WEB, last));
  }
}
