package dev.ctk.envtest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LogRingTest {

  @Test
  void keeps_the_last_lines_and_counts_all() {
    LogRing ring = new LogRing(2);
    ring.add("a");
    ring.add("b");
    ring.add("c");

    assertThat(ring.lines()).containsExactly("b", "c");
    assertThat(ring.total()).isEqualTo(3);
    assertThat(ring.describe()).isEqualTo("Last 2 of its 3 log lines:\n  b\n  c");
  }

  @Test
  void describes_a_short_and_an_empty_log() {
    LogRing ring = new LogRing(5);
    assertThat(ring.describe()).isEqualTo("Its log is empty.");
    ring.add("only");
    assertThat(ring.describe()).isEqualTo("Its log (1 line):\n  only");
    ring.add("second");
    assertThat(ring.describe()).isEqualTo("Its log (2 lines):\n  only\n  second");
  }

  @Test
  void cuts_very_long_lines() {
    LogRing ring = new LogRing(1);
    ring.add("x".repeat(2_500));

    assertThat(ring.lines().get(0)).isEqualTo("x".repeat(2_000) + " [cut]");
  }

  @Test
  void needs_room_for_a_line() {
    assertThatThrownBy(() -> new LogRing(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("capacity must be at least 1, was 0");
  }
}
