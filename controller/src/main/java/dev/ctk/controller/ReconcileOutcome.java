package dev.ctk.controller;

/**
 * How one reconcile ended. The constants are named after ctk's {@link Result}; other frameworks map
 * their outcomes onto these four, and their {@link Vocabulary} gives the names messages show (e.g.
 * {@code RESCHEDULE} for {@code REQUEUE_AFTER} in Java Operator SDK).
 *
 * <pre>{@code
 * boolean failed = record.outcome() == ReconcileOutcome.ERROR;
 * }</pre>
 *
 * @since 0.1.0
 */
public enum ReconcileOutcome {
  /** Returned {@link Result#done()}. */
  SUCCESS,
  /** Returned {@link Result#requeue()}: retried with the rate limiter's backoff. */
  REQUEUE,
  /** Returned {@link Result#requeueAfter}: queued again after a fixed delay. */
  REQUEUE_AFTER,
  /** Threw (or returned {@code null}): retried with the rate limiter's backoff. */
  ERROR
}
