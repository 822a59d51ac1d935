package dev.ctk.controller;

import java.time.Duration;
import java.util.Objects;

/** One token bucket for all items. */
final class BucketRateLimiter<K> implements RateLimiter<K> {

  private static final double NANOS_PER_SECOND = 1_000_000_000d;

  private final double qps;
  private final int burst;
  private final TimeSource time;
  private double tokens;
  private long last;

  BucketRateLimiter(double qps, int burst, TimeSource time) {
    Objects.requireNonNull(time, "RateLimiter.bucket: time is null");
    if (!(qps > 0) || Double.isInfinite(qps) || burst < 1) {
      throw new IllegalArgumentException("Invalid bucket rate limiter: qps " + qps + ", burst "
          + burst + ". Expected qps > 0 (finite) and burst >= 1, e.g. bucket(10, 100, time).");
    }
    this.qps = qps;
    this.burst = burst;
    this.time = time;
    this.tokens = burst;
    this.last = time.nanoTime();
  }

  @Override
  public synchronized Duration when(K item) {
    long now = time.nanoTime();
    long elapsed = Math.max(0, now - last);
    last = now;
    tokens = Math.min(burst, tokens + elapsed * qps / NANOS_PER_SECOND);
    tokens -= 1;
    if (tokens >= 0) {
      return Duration.ZERO;
    }
    return Duration.ofNanos((long) Math.ceil(-tokens * NANOS_PER_SECOND / qps));
  }

  @Override
  public void forget(K item) {
    // the bucket is shared by all items: nothing to forget
  }

  @Override
  public int numRequeues(K item) {
    return 0;
  }

  @Override
  public String toString() {
    return "bucket(" + qps + " qps, burst " + burst + ")";
  }
}
