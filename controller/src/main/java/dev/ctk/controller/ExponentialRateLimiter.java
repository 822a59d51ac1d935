package dev.ctk.controller;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Per-item {@code base * 2^failures}, capped. */
final class ExponentialRateLimiter<K> implements RateLimiter<K> {

  private final long baseNanos;
  private final long maxNanos;
  private final ConcurrentMap<K, Integer> failures = new ConcurrentHashMap<>();

  ExponentialRateLimiter(Duration base, Duration max) {
    Objects.requireNonNull(base, "RateLimiter.exponential: base is null");
    Objects.requireNonNull(max, "RateLimiter.exponential: max is null");
    if (base.isNegative() || base.isZero() || max.compareTo(base) < 0) {
      throw new IllegalArgumentException("Invalid exponential rate limiter: base " + base + ", max "
          + max + ". Expected 0 < base <= max, e.g. exponential(Duration.ofMillis(5), "
          + "Duration.ofSeconds(1000)).");
    }
    this.baseNanos = SystemTimeSource.saturatedNanos(base);
    this.maxNanos = SystemTimeSource.saturatedNanos(max);
  }

  @Override
  public Duration when(K item) {
    int exponent = failures.merge(item, 1, Integer::sum) - 1;
    return Duration.ofNanos(delayNanos(exponent));
  }

  private long delayNanos(int exponent) {
    if (exponent >= Long.SIZE - 1 || baseNanos > (Long.MAX_VALUE >> exponent)) {
      return maxNanos;
    }
    return Math.min(baseNanos << exponent, maxNanos);
  }

  @Override
  public void forget(K item) {
    failures.remove(item);
  }

  @Override
  public int numRequeues(K item) {
    return failures.getOrDefault(item, 0);
  }

  @Override
  public String toString() {
    return "exponential(" + Duration.ofNanos(baseNanos) + ", " + Duration.ofNanos(maxNanos) + ")";
  }
}
