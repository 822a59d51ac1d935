package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ResultTest {

  @Test
  void done_is_not_a_requeue() {
    assertThat(Result.done().isRequeue()).isFalse();
    assertThat(Result.done().requeueAfter()).isEmpty();
    assertThat(Result.done()).hasToString("Result.done()");
  }

  @Test
  void requeue_has_no_fixed_delay() {
    assertThat(Result.requeue().isRequeue()).isTrue();
    assertThat(Result.requeue().requeueAfter()).isEmpty();
    assertThat(Result.requeue()).hasToString("Result.requeue()");
  }

  @Test
  void requeueAfter_carries_its_delay() {
    Result result = Result.requeueAfter(Duration.ofSeconds(90));

    assertThat(result.isRequeue()).isTrue();
    assertThat(result.requeueAfter()).contains(Duration.ofSeconds(90));
    assertThat(result).hasToString("Result.requeueAfter(1m30s)")
        .isEqualTo(Result.requeueAfter(Duration.ofSeconds(90)))
        .isNotEqualTo(Result.requeue());
  }

  @Test
  void requeueAfter_zero_or_negative_is_a_rate_limited_requeue() {
    assertThat(Result.requeueAfter(Duration.ZERO)).isEqualTo(Result.requeue())
        .hasToString("Result.requeue()");
    assertThat(Result.requeueAfter(Duration.ZERO).requeueAfter()).isEmpty();
    assertThat(Result.requeueAfter(Duration.ofSeconds(-1))).isEqualTo(Result.requeue());
    assertThat(Result.requeueAfter(Duration.ofNanos(1)).requeueAfter())
        .contains(Duration.ofNanos(1));
  }

  @Test
  void durations_are_shown_short() {
    assertThat(Durations.format(Duration.ofNanos(500))).isEqualTo("500ns");
    assertThat(Durations.format(Duration.ofNanos(1_500))).isEqualTo("1.5µs");
    assertThat(Durations.format(Duration.ofMillis(200))).isEqualTo("200ms");
    assertThat(Durations.format(Duration.ofMillis(1_500))).isEqualTo("1.5s");
    assertThat(Durations.format(Duration.ofSeconds(30))).isEqualTo("30s");
    assertThat(Durations.format(Duration.ofMinutes(2))).isEqualTo("2m0s");
    assertThat(Durations.format(Duration.ofHours(1).plusSeconds(1))).isEqualTo("1h0m1s");
    assertThat(Durations.format(Duration.ofMillis(-5))).isEqualTo("-5ms");
  }
}
