package dev.ctk.fake.internal.fault;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Durations as kube and Go print them, for fault descriptions: {@code 250ms}, {@code 1.5s}, {@code 2m},
 * {@code 1m30s}, {@code 1h2m3.5s}. Units that are zero are left out; below a second the text is in milliseconds.
 */
public final class DurationText {

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private DurationText() {
  }

  /**
   * The text of a duration.
   *
   * @param duration a non-negative duration
   * @return e.g. {@code 250ms}, {@code 1.5s}, {@code 2m}, {@code 0s} for zero
   */
  public static String of(Duration duration) {
    if (duration.isZero()) {
      return "0s";
    }
    if (duration.isNegative()) {
      return "-" + of(duration.negated());
    }
    if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
      return decimal(duration.toNanos(), 6) + "ms";
    }
    StringBuilder out = new StringBuilder();
    long hours = duration.toHours();
    int minutes = duration.toMinutesPart();
    long secondNanos = duration.toSecondsPart() * NANOS_PER_SECOND + duration.toNanosPart();
    if (hours > 0) {
      out.append(hours).append('h');
    }
    if (minutes > 0) {
      out.append(minutes).append('m');
    }
    if (secondNanos > 0) {
      out.append(decimal(secondNanos, 9)).append('s');
    }
    return out.toString();
  }

  private static String decimal(long units, int scale) {
    return BigDecimal.valueOf(units, scale).stripTrailingZeros().toPlainString();
  }
}
