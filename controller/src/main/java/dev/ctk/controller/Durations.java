package dev.ctk.controller;

import java.math.BigDecimal;
import java.time.Duration;

/** Short, human-readable durations for messages: 500ms, 1.5s, 2m30s, 1h0m0s. */
final class Durations {

  private Durations() {}

  static String format(Duration duration) {
    if (duration.isNegative()) {
      return "-" + format(duration.negated());
    }
    long nanos = SystemTimeSource.saturatedNanos(duration);
    if (nanos < 1_000) {
      return nanos + "ns";
    }
    if (nanos < 1_000_000) {
      return decimal(nanos, 3) + "µs";
    }
    if (nanos < 1_000_000_000) {
      return decimal(nanos, 6) + "ms";
    }
    long seconds = duration.getSeconds();
    if (seconds < 60) {
      return decimal(nanos, 9) + "s";
    }
    String secondsPart = decimal((seconds % 60) * 1_000_000_000L + duration.getNano(), 9) + "s";
    long minutes = seconds / 60;
    if (minutes < 60) {
      return minutes + "m" + secondsPart;
    }
    return (minutes / 60) + "h" + (minutes % 60) + "m" + secondsPart;
  }

  private static String decimal(long nanos, int scale) {
    return BigDecimal.valueOf(nanos, scale).stripTrailingZeros().toPlainString();
  }
}
