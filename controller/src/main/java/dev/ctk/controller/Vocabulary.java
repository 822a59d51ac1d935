package dev.ctk.controller;

import dev.ctk.controller.internal.DurationText;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The words a controller framework uses for what ctk's messages talk about, so that a failure message
 * about a Java Operator SDK controller says {@code RESCHEDULE} and "event source" where one about
 * ctk's {@link Controller} says {@code REQUEUE_AFTER} and "informer". A {@link ControllerView} (and
 * its {@link WorkQueueView}) tells assertions and failure reports which vocabulary to use.
 *
 * <pre>{@code
 * Vocabulary.CTK.outcome(ReconcileOutcome.REQUEUE_AFTER);   // "REQUEUE_AFTER"
 * Vocabulary.CTK.controller();                             // "controller"
 *
 * Vocabulary josdk = new Vocabulary("Java Operator SDK", "Java Operator SDK controller",
 *     "pending events", "event source",
 *     Map.of(SUCCESS, "SUCCESS", REQUEUE, "REQUEUE", REQUEUE_AFTER, "RESCHEDULE", ERROR, "ERROR"),
 *     "operator.start()");
 * }</pre>
 *
 * @param framework the framework's name, e.g. {@code "ctk"} or {@code "Java Operator SDK"}
 * @param controller what messages call the controller, e.g. {@code "controller"}
 * @param queue what messages call its queue of keys, e.g. {@code "work queue"}
 * @param cache what messages call one of its caches, e.g. {@code "informer"}
 * @param outcomes the framework's name of each {@link ReconcileOutcome}; every outcome has one
 * @param startHint how to start it, completing "start it with ...", e.g. {@code
 *     "controller.start() or ControllerHarness.start(controller)"}
 * @since 0.1.0
 */
public record Vocabulary(String framework, String controller, String queue, String cache,
    Map<ReconcileOutcome, String> outcomes, String startHint) {

  /** ctk's own words, for {@link Controller} and by default for a {@link ControllerProbe}. */
  public static final Vocabulary CTK = new Vocabulary("ctk", "controller", "work queue", "informer",
      Map.of(ReconcileOutcome.SUCCESS, "SUCCESS", ReconcileOutcome.REQUEUE, "REQUEUE",
          ReconcileOutcome.REQUEUE_AFTER, "REQUEUE_AFTER", ReconcileOutcome.ERROR, "ERROR"),
      "controller.start() or ControllerHarness.start(controller)");

  /**
   * Creates a vocabulary; every component is required and every outcome must have a name.
   *
   * @param framework the framework's name
   * @param controller the word for the controller
   * @param queue the word for its queue
   * @param cache the word for a cache
   * @param outcomes a name per outcome
   * @param startHint how to start it
   * @throws IllegalArgumentException if an outcome has no name
   */
  public Vocabulary {
    Objects.requireNonNull(framework, "Vocabulary: framework is null");
    Objects.requireNonNull(controller, "Vocabulary: controller is null");
    Objects.requireNonNull(queue, "Vocabulary: queue is null");
    Objects.requireNonNull(cache, "Vocabulary: cache is null");
    Objects.requireNonNull(startHint, "Vocabulary: startHint is null");
    EnumMap<ReconcileOutcome, String> copy = new EnumMap<>(ReconcileOutcome.class);
    copy.putAll(Objects.requireNonNull(outcomes, "Vocabulary: outcomes is null"));
    for (ReconcileOutcome outcome : ReconcileOutcome.values()) {
      if (copy.get(outcome) == null) {
        throw new IllegalArgumentException("Vocabulary of " + framework + ": outcome " + outcome
            + " has no name. Give every ReconcileOutcome a name.");
      }
    }
    outcomes = Map.copyOf(copy);
  }

  /**
   * The framework's name of an outcome.
   *
   * @param outcome the outcome
   * @return its name, e.g. {@code "RESCHEDULE"} for {@code REQUEUE_AFTER} in Java Operator SDK
   */
  public String outcome(ReconcileOutcome outcome) {
    return outcomes.get(Objects.requireNonNull(outcome, "Vocabulary.outcome: outcome is null"));
  }

  /**
   * A one-line summary of a record in these words, e.g. {@code "#3 default/web RESCHEDULE after 5s"}
   * or {@code "#4 default/web ERROR (attempt 2): java.io.IOException: backend down"}.
   *
   * @param record the record
   * @return the summary
   */
  public String summary(ReconcileRecord record) {
    Objects.requireNonNull(record, "Vocabulary.summary: record is null");
    StringBuilder text = new StringBuilder().append('#').append(record.sequence()).append(' ')
        .append(record.key()).append(' ').append(outcome(record.outcome()));
    if (record.attempt() > 0) {
      text.append(" (attempt ").append(record.attempt()).append(')');
    }
    if (record.requeueAfter() != null) {
      text.append(" after ").append(DurationText.of(record.requeueAfter()));
    }
    if (record.error() != null) {
      text.append(": ").append(record.error());
    }
    return text.toString();
  }
}
