package dev.ctk.controller;

/**
 * How one reconcile ended.
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
