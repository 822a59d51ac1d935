package dev.ctk.controller.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {

  @Test
  void should_print_a_chosen_duration_exactly_leaving_out_units_that_are_zero() {
    assertThat(DurationText.of(Duration.ZERO)).isEqualTo("0s");
    assertThat(DurationText.of(Duration.ofNanos(750))).isEqualTo("750ns");
    assertThat(DurationText.of(Duration.ofNanos(1_500))).isEqualTo("1.5µs");
    assertThat(DurationText.of(Duration.ofMillis(500))).isEqualTo("500ms");
    assertThat(DurationText.of(Duration.ofMillis(1_500))).isEqualTo("1.5s");
    assertThat(DurationText.of(Duration.ofSeconds(59))).isEqualTo("59s");
    assertThat(DurationText.of(Duration.ofSeconds(60))).isEqualTo("1m");
    assertThat(DurationText.of(Duration.ofSeconds(150))).isEqualTo("2m30s");
    assertThat(DurationText.of(Duration.ofMillis(3_723_500))).isEqualTo("1h2m3.5s");
    assertThat(DurationText.of(Duration.ofHours(1))).isEqualTo("1h");
    assertThat(DurationText.of(Duration.ofHours(1).plusMillis(2500))).isEqualTo("1h2.5s");
    assertThat(DurationText.of(Duration.ofMillis(-250))).isEqualTo("-250ms");
  }

  @Test
  void should_round_a_measured_duration_for_people() {
    assertThat(DurationText.measured(Duration.ofNanos(850_400))).isEqualTo("850µs");
    assertThat(DurationText.measured(Duration.ofMillis(440))).isEqualTo("440ms");
    assertThat(DurationText.measured(Duration.ofMillis(6_150))).isEqualTo("6.2s");
    assertThat(DurationText.measured(Duration.ofMillis(59_940))).isEqualTo("59.9s");
    assertThat(DurationText.measured(Duration.ofMillis(59_960))).isEqualTo("1m");
    assertThat(DurationText.measured(Duration.ofSeconds(125))).isEqualTo("2m5s");
  }
}
