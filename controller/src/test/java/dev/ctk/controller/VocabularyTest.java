package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VocabularyTest {

  private static final Instant START = Instant.parse("2025-01-01T00:00:00Z");

  static final Vocabulary JOSDK = new Vocabulary("Java Operator SDK",
      "Java Operator SDK controller", "pending events", "event source",
      Map.of(ReconcileOutcome.SUCCESS, "SUCCESS", ReconcileOutcome.REQUEUE, "REQUEUE",
          ReconcileOutcome.REQUEUE_AFTER, "RESCHEDULE", ReconcileOutcome.ERROR, "ERROR"),
      "operator.start()");

  @Test
  void should_name_every_outcome_in_ctks_words() {
    // WHEN / THEN
    assertThat(Vocabulary.CTK.outcomes()).containsOnly(
        Map.entry(ReconcileOutcome.SUCCESS, "SUCCESS"),
        Map.entry(ReconcileOutcome.REQUEUE, "REQUEUE"),
        Map.entry(ReconcileOutcome.REQUEUE_AFTER, "REQUEUE_AFTER"),
        Map.entry(ReconcileOutcome.ERROR, "ERROR"));
    assertThat(Vocabulary.CTK.controller()).isEqualTo("controller");
    assertThat(Vocabulary.CTK.queue()).isEqualTo("work queue");
    assertThat(Vocabulary.CTK.cache()).isEqualTo("informer");
    assertThat(Vocabulary.CTK.startHint())
        .isEqualTo("controller.start() or ControllerHarness.start(controller)");
  }

  @Test
  void should_give_a_frameworks_own_name_of_an_outcome() {
    // WHEN / THEN
    assertThat(JOSDK.outcome(ReconcileOutcome.REQUEUE_AFTER)).isEqualTo("RESCHEDULE");
    assertThat(JOSDK.outcome(ReconcileOutcome.ERROR)).isEqualTo("ERROR");
  }

  @Test
  void should_fail_when_an_outcome_has_no_name() {
    // GIVEN
    Map<ReconcileOutcome, String> outcomes = new EnumMap<>(ReconcileOutcome.class);
    outcomes.put(ReconcileOutcome.SUCCESS, "SUCCESS");
    outcomes.put(ReconcileOutcome.ERROR, "ERROR");
    outcomes.put(ReconcileOutcome.REQUEUE_AFTER, "RESCHEDULE");
    // WHEN
    IllegalArgumentException error = catchThrowableOfType(IllegalArgumentException.class,
        () -> new Vocabulary("Java Operator SDK", "Java Operator SDK controller", "pending events",
            "event source", outcomes, "operator.start()"));
    // THEN
    assertThat(error).hasMessage("Vocabulary of Java Operator SDK: outcome REQUEUE has no name. "
        + "Give every ReconcileOutcome a name.");
  }

  @Test
  void should_fail_on_a_missing_word_naming_it() {
    // WHEN
    NullPointerException error = catchThrowableOfType(NullPointerException.class,
        () -> new Vocabulary("Java Operator SDK", "Java Operator SDK controller", null,
            "event source", JOSDK.outcomes(), "operator.start()"));
    // THEN
    assertThat(error).hasMessage("Vocabulary: queue is null");
  }

  @Test
  void should_keep_its_own_copy_of_the_outcome_names() {
    // GIVEN
    Map<ReconcileOutcome, String> outcomes = new EnumMap<>(JOSDK.outcomes());
    Vocabulary vocabulary = new Vocabulary("f", "c", "q", "s", outcomes, "h");
    // WHEN
    outcomes.put(ReconcileOutcome.REQUEUE_AFTER, "LATER");
    // THEN
    assertThat(vocabulary.outcome(ReconcileOutcome.REQUEUE_AFTER)).isEqualTo("RESCHEDULE");
  }

  @Test
  void should_summarize_a_record_in_the_frameworks_words() {
    // GIVEN
    ReconcileRecord rescheduled = record(3, ReconcileOutcome.REQUEUE_AFTER,
        Duration.ofSeconds(5), null, 0);
    ReconcileRecord failed = record(4, ReconcileOutcome.ERROR, null,
        new java.io.IOException("backend down"), 2);
    // WHEN / THEN
    assertThat(JOSDK.summary(rescheduled)).isEqualTo("#3 default/web RESCHEDULE after 5s");
    assertThat(JOSDK.summary(failed))
        .isEqualTo("#4 default/web ERROR (attempt 2): java.io.IOException: backend down");
    assertThat(rescheduled.summary()).isEqualTo("#3 default/web REQUEUE_AFTER after 5s");
  }

  private static ReconcileRecord record(long sequence, ReconcileOutcome outcome,
      Duration requeueAfter, Throwable error, int attempt) {
    return new ReconcileRecord(sequence, ObjectKey.of("default", "web"), "worker-1", START, START,
        outcome, requeueAfter, error, attempt);
  }
}
