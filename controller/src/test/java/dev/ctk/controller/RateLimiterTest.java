package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

  private final ManualTimeSource time = new ManualTimeSource();

  @Test
  void exponential_doubles_per_failure_up_to_the_cap() {
    RateLimiter<String> limiter =
        RateLimiter.exponential(Duration.ofMillis(5), Duration.ofMillis(100));

    List<Duration> delays = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      delays.add(limiter.when("a"));
    }

    assertThat(delays).containsExactly(Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(20), Duration.ofMillis(40), Duration.ofMillis(80),
        Duration.ofMillis(100), Duration.ofMillis(100));
    assertThat(limiter.numRequeues("a")).isEqualTo(7);
  }

  @Test
  void exponential_tracks_each_item_on_its_own_and_forget_resets_it() {
    RateLimiter<String> limiter = RateLimiter.exponential(Duration.ofMillis(1), Duration.ofSeconds(1));
    limiter.when("a");
    limiter.when("a");

    assertThat(limiter.when("b")).isEqualTo(Duration.ofMillis(1));
    assertThat(limiter.numRequeues("a")).isEqualTo(2);

    limiter.forget("a");

    assertThat(limiter.numRequeues("a")).isZero();
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(1));
  }

  @Test
  void exponential_does_not_overflow_after_many_failures() {
    RateLimiter<String> limiter = RateLimiter.exponential(Duration.ofMillis(5), Duration.ofSeconds(1000));

    Duration last = Duration.ZERO;
    for (int i = 0; i < 200; i++) {
      last = limiter.when("a");
    }

    assertThat(last).isEqualTo(Duration.ofSeconds(1000));
  }

  @Test
  void exponential_rejects_a_base_above_the_cap() {
    assertThatThrownBy(() -> RateLimiter.exponential(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid exponential rate limiter: base PT2S, max PT1S. Expected 0 < base <= "
            + "max, e.g. exponential(Duration.ofMillis(5), Duration.ofSeconds(1000)).");
  }

  @Test
  void bucket_allows_a_burst_then_spaces_retries_by_its_rate() {
    RateLimiter<String> limiter = RateLimiter.bucket(10, 2, time);

    assertThat(List.of(limiter.when("a"), limiter.when("b"), limiter.when("c"), limiter.when("d")))
        .containsExactly(Duration.ZERO, Duration.ZERO, Duration.ofMillis(100),
            Duration.ofMillis(200));
  }

  @Test
  void bucket_refills_as_the_time_source_advances() {
    RateLimiter<String> limiter = RateLimiter.bucket(10, 2, time);
    limiter.when("a");
    limiter.when("a");
    assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(100));

    time.advance(Duration.ofMillis(100));
    assertThat(limiter.when("a")).as("the token of the previous retry was due now, this one is next")
        .isEqualTo(Duration.ofMillis(100));

    time.advance(Duration.ofSeconds(10));
    assertThat(List.of(limiter.when("a"), limiter.when("a"), limiter.when("a")))
        .as("refilled to the burst, not beyond").containsExactly(Duration.ZERO, Duration.ZERO,
            Duration.ofMillis(100));
  }

  @Test
  void bucket_tracks_no_item() {
    RateLimiter<String> limiter = RateLimiter.bucket(1, 1, time);
    limiter.when("a");
    limiter.forget("a");

    assertThat(limiter.numRequeues("a")).isZero();
    assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void bucket_rejects_a_rate_that_is_not_positive() {
    assertThatThrownBy(() -> RateLimiter.bucket(0, 10, time))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid bucket rate limiter: qps 0.0, burst 10. Expected qps > 0 (finite) and "
            + "burst >= 1, e.g. bucket(10, 100, time).");
  }

  @Test
  void maxOf_returns_the_longest_delay_and_forgets_in_every_limiter() {
    RateLimiter<String> limiter = RateLimiter.maxOf(
        RateLimiter.exponential(Duration.ofMillis(50), Duration.ofSeconds(1)),
        RateLimiter.bucket(1, 2, time));

    assertThat(List.of(limiter.when("a"), limiter.when("a"), limiter.when("b")))
        .as("exponential wins twice, then the empty bucket's 1s wins")
        .containsExactly(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofSeconds(1));
    assertThat(limiter.numRequeues("a")).isEqualTo(2);

    limiter.forget("a");

    assertThat(limiter.numRequeues("a")).isZero();
  }

  @Test
  void maxOf_needs_a_limiter() {
    assertThatThrownBy(RateLimiter::<String>maxOf)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("RateLimiter.maxOf(..) needs at least one limiter, got none.");
  }

  @Test
  void the_default_controller_limiter_starts_at_5ms_and_allows_a_burst_of_100() {
    RateLimiter<String> limiter = RateLimiter.defaultControllerRateLimiter(time);

    List<Duration> delays = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      delays.add(limiter.when("key-" + i));
    }

    assertThat(delays.subList(0, 100)).containsOnly(Duration.ofMillis(5));
    assertThat(delays.get(100)).isEqualTo(Duration.ofMillis(100));
    assertThat(limiter.when("key-0")).isEqualTo(Duration.ofMillis(200));
  }
}
