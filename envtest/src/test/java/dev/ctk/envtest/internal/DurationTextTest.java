package dev.ctk.envtest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {

  @Test
  void a_bound_is_printed_exactly() {
    assertThat(DurationText.bound(Duration.ofMillis(500))).isEqualTo("500ms");
    assertThat(DurationText.bound(Duration.ofMillis(1_500))).isEqualTo("1.5s");
    assertThat(DurationText.bound(Duration.ofSeconds(60))).isEqualTo("1m0s");
    assertThat(DurationText.bound(Duration.ofSeconds(59))).isEqualTo("59s");
    assertThat(DurationText.bound(Duration.ofSeconds(150))).isEqualTo("2m30s");
    assertThat(DurationText.bound(Duration.ofHours(1))).isEqualTo("1h0m0s");
  }

  @Test
  void a_measured_time_has_one_decimal() {
    assertThat(DurationText.measured(Duration.ofMillis(440))).isEqualTo("0.4s");
    assertThat(DurationText.measured(Duration.ofMillis(6_150))).isEqualTo("6.2s");
    assertThat(DurationText.measured(Duration.ofSeconds(61))).isEqualTo("61.0s");
  }
}
