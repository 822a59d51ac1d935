package dev.ctk.controller;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Decides how long a work-queue item waits before its next retry, as client-go's rate limiters do.
 * {@link #when} records a failure of the item and returns the delay; {@link #forget} clears the item's
 * history once it was processed successfully. Implementations are thread-safe.
 *
 * <pre>{@code
 * RateLimiter<ObjectKey> limiter = RateLimiter.maxOf(
 *     RateLimiter.exponential(Duration.ofMillis(5), Duration.ofSeconds(1000)),
 *     RateLimiter.bucket(10, 100, TimeSource.system()));
 * Duration first = limiter.when(key);   // 5ms
 * Duration second = limiter.when(key);  // 10ms
 * limiter.forget(key);                  // back to 5ms next time
 * }</pre>
 *
 * @param <K> the item type
 * @since 0.1.0
 */
public interface RateLimiter<K> {

  /**
   * Records a failure of {@code item} and returns how long to wait before retrying it.
   *
   * @param item the item to retry
   * @return the delay, never negative
   */
  Duration when(K item);

  /**
   * Stops tracking {@code item}: its next failure counts as its first.
   *
   * @param item the item
   */
  void forget(K item);

  /**
   * How many failures were recorded for {@code item} since it was last forgotten.
   *
   * @param item the item
   * @return the count; {@code 0} for limiters that do not track items
   */
  int numRequeues(K item);

  /**
   * Per-item exponential backoff: {@code base * 2^failures}, capped at {@code max}. The n-th call of
   * {@link #when} for an item (counting from 0) returns {@code min(base * 2^n, max)}.
   *
   * @param base the first delay, positive
   * @param max the largest delay, not less than {@code base}
   * @param <K> the item type
   * @return the limiter
   */
  static <K> RateLimiter<K> exponential(Duration base, Duration max) {
    return new ExponentialRateLimiter<>(base, max);
  }

  /**
   * An overall token bucket shared by all items: {@code burst} retries are allowed at once, then
   * {@code qps} per second; a retry beyond that waits until its token is due. Tracks no item:
   * {@link #forget} does nothing and {@link #numRequeues} is 0.
   *
   * @param qps tokens added per second, positive
   * @param burst the bucket size, positive
   * @param time the clock that refills the bucket
   * @param <K> the item type
   * @return the limiter
   */
  static <K> RateLimiter<K> bucket(double qps, int burst, TimeSource time) {
    return new BucketRateLimiter<>(qps, burst, time);
  }

  /**
   * The longest delay of several limiters; every limiter records each failure.
   *
   * @param limiters at least one limiter
   * @param <K> the item type
   * @return the limiter
   */
  @SafeVarargs
  static <K> RateLimiter<K> maxOf(RateLimiter<K>... limiters) {
    Objects.requireNonNull(limiters, "RateLimiter.maxOf: limiters is null");
    for (int i = 0; i < limiters.length; i++) {
      int index = i;
      Objects.requireNonNull(limiters[i], () -> "RateLimiter.maxOf: limiter " + (index + 1)
          + " of " + limiters.length + " is null");
    }
    return new MaxOfRateLimiter<>(List.of(limiters));
  }

  /**
   * The default of controllers (as controller-runtime's): {@code maxOf(exponential(5ms, 1000s),
   * bucket(10 qps, burst 100))}.
   *
   * @param time the clock of the bucket
   * @param <K> the item type
   * @return the limiter
   */
  static <K> RateLimiter<K> defaultControllerRateLimiter(TimeSource time) {
    Objects.requireNonNull(time, "RateLimiter.defaultControllerRateLimiter: time is null");
    return maxOf(exponential(Duration.ofMillis(5), Duration.ofSeconds(1000)), bucket(10, 100, time));
  }
}
