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
}
