package dev.ctk.controller;

import java.time.Duration;
import java.util.List;

/** The longest delay of several limiters. */
final class MaxOfRateLimiter<K> implements RateLimiter<K> {

  private final List<RateLimiter<K>> limiters;

  MaxOfRateLimiter(List<RateLimiter<K>> limiters) {
    if (limiters.isEmpty()) {
      throw new IllegalArgumentException("RateLimiter.maxOf(..) needs at least one limiter, got none.");
    }
    this.limiters = limiters;
  }

  @Override
  public Duration when(K item) {
    Duration longest = Duration.ZERO;
    for (RateLimiter<K> limiter : limiters) {
      Duration delay = limiter.when(item);
      if (delay.compareTo(longest) > 0) {
        longest = delay;
      }
    }
    return longest;
  }

  @Override
  public void forget(K item) {
    limiters.forEach(limiter -> limiter.forget(item));
  }

  @Override
  public int numRequeues(K item) {
    int most = 0;
    for (RateLimiter<K> limiter : limiters) {
      most = Math.max(most, limiter.numRequeues(item));
    }
    return most;
  }

  @Override
  public String toString() {
    return "maxOf" + limiters;
  }
}
