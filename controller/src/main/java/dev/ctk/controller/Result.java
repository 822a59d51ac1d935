package dev.ctk.controller;

import dev.ctk.controller.internal.DurationText;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link Reconciler} returns for a key: done, requeue with the rate limiter's backoff, or
 * requeue after a fixed delay. Immutable; compare with {@code equals}.
 *
 * <pre>{@code
 * Reconciler reconciler = key -> {
 *   if (!backendReady()) {
 *     return Result.requeueAfter(Duration.ofSeconds(30));  // poll again later, no backoff
 *   }
 *   return Result.done();
 * };
 * }</pre>
 *
 * @since 0.1.0
 */
public final class Result {

  private static final Result DONE = new Result(false, null);
  private static final Result REQUEUE = new Result(true, null);

  private final boolean requeue;
  private final Duration requeueAfter;

  private Result(boolean requeue, Duration requeueAfter) {
    this.requeue = requeue;
    this.requeueAfter = requeueAfter;
  }

  /**
   * The key is reconciled: its backoff is reset ({@code forget}) and it is not queued again until an
   * event adds it.
   *
   * @return the result
   */
  public static Result done() {
    return DONE;
  }

  /**
   * Reconcile the key again after the rate limiter's delay ({@code addRateLimited}), as after a
   * failure but without an error.
   *
   * @return the result
   */
  public static Result requeue() {
    return REQUEUE;
  }

  /**
   * Reconcile the key again after {@code delay} on the controller's time source; its backoff is reset
   * ({@code forget}, then {@code addAfter}).
   *
   * <p>A zero or negative delay means no delayed requeue, as a {@code RequeueAfter} of zero or less
   * does in controller-runtime. Since asking for {@code requeueAfter} still asks for a requeue, the
   * result is {@link #requeue()}: retried after the rate limiter's backoff, never at once (an
   * immediate requeue would spin). This matches controller-runtime's
   * {@code Result{Requeue: true, RequeueAfter: 0}}; its {@code Result{RequeueAfter: 0}} alone is
   * {@link #done()}.
   *
   * <pre>{@code
   * Result.requeueAfter(Duration.ofSeconds(30));               // again in 30s, no backoff
   * Result.requeueAfter(Duration.between(now, expiry));        // already expired: Result.requeue()
   * }</pre>
   *
   * @param delay the delay
   * @return the result; {@link #requeue()} for a delay of zero or less
   */
  public static Result requeueAfter(Duration delay) {
    Objects.requireNonNull(delay, "Result.requeueAfter: delay is null");
    if (delay.isZero() || delay.isNegative()) {
      return REQUEUE;
    }
    return new Result(true, delay);
  }

  /**
   * Whether the key is to be reconciled again ({@link #requeue()} or {@link #requeueAfter}).
   *
   * @return {@code true} unless this is {@link #done()}
   */
  public boolean isRequeue() {
    return requeue;
  }

  /**
   * The fixed delay of {@link #requeueAfter}.
   *
   * @return the delay, or empty for {@link #done()} and {@link #requeue()}
   */
  public Optional<Duration> requeueAfter() {
    return Optional.ofNullable(requeueAfter);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Result that
        && requeue == that.requeue
        && Objects.equals(requeueAfter, that.requeueAfter);
  }

  @Override
  public int hashCode() {
    return Objects.hash(requeue, requeueAfter);
  }

  /**
   * {@code "Result.done()"}, {@code "Result.requeue()"} or {@code "Result.requeueAfter(5s)"}.
   *
   * @return the result as it would be written in code
   */
  @Override
  public String toString() {
    if (requeueAfter != null) {
      return "Result.requeueAfter(" + DurationText.of(requeueAfter) + ")";
    }
    return requeue ? "Result.requeue()" : "Result.done()";
  }
}
