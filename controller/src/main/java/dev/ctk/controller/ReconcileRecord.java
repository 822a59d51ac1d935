package dev.ctk.controller;

import java.time.Duration;
import java.time.Instant;

/**
 * One entry of a controller's reconcile log ({@link ControllerView#reconcileLog()}, of ctk's {@link
 * Controller} or of any other view). Timestamps come from the controller's (or probe's) {@link
 * TimeSource}.
 *
 * <pre>{@code
 * ReconcileRecord last = controller.reconcileLog().get(controller.reconcileLog().size() - 1);
 * last.key();       // default/web
 * last.outcome();   // ERROR
 * last.attempt();   // 2: the key had failed twice before
 * }</pre>
 *
 * @param sequence the position in the controller's log, from 1, without gaps
 * @param key the reconciled key
 * @param worker the name of the worker thread
 * @param start when the reconcile started
 * @param end when it ended
 * @param outcome how it ended
 * @param requeueAfter the delay of {@link Result#requeueAfter} (or of the framework's reschedule), or
 *     {@code null} for other outcomes
 * @param error what the reconciler threw, or {@code null} unless the outcome is
 *     {@link ReconcileOutcome#ERROR}
 * @param attempt the key's {@code numRequeues} when the reconcile started: 0 for a first attempt,
 *     n for the n-th rate-limited retry (a {@link ControllerProbe} records the attempt it is told, or
 *     the key's failures in a row)
 * @since 0.1.0
 */
public record ReconcileRecord(long sequence, ObjectKey key, String worker, Instant start,
    Instant end, ReconcileOutcome outcome, Duration requeueAfter, Throwable error, int attempt) {

  /**
   * How long the reconcile took, by the controller's time source.
   *
   * @return {@code end - start}
   */
  public Duration duration() {
    return Duration.between(start, end);
  }

  /**
   * A one-line summary without timings, in ctk's words ({@link Vocabulary#summary} gives it in a
   * framework's), e.g. {@code "#3 default/web ERROR (attempt 2): java.io.IOException: backend
   * down"}.
   *
   * @return the summary
   */
  public String summary() {
    return Vocabulary.CTK.summary(this);
  }
}
