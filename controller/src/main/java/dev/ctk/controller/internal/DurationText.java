package dev.ctk.controller.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * Every duration ctk prints, in two forms and nowhere else:
 *
 * <ul>
 *   <li>{@link #of}: a duration someone chose (a timeout, a delay, a period), exact, in Go's units with the units
 *       that are zero left out: {@code 0s}, {@code 750µs}, {@code 500ms}, {@code 1.5s}, {@code 2m}, {@code 1m30s},
 *       {@code 1h}, {@code 1h2m3.5s};
 *   <li>{@link #measured}: a duration a stopwatch read, rounded for people: {@code 850µs}, {@code 412ms}, {@code
 *       6.2s}, {@code 2m5s}.
 * </ul>
 *
 * <pre>{@code
 * DurationText.of(Duration.ofMillis(1500));         // "1.5s"
 * DurationText.measured(Duration.ofMillis(6_140));  // "6.1s"
 * }</pre>
 */
public final class DurationText {

  private DurationText() {}

  /**
   * A chosen duration, exact.
   *
   * @param duration any duration; negative ones get a leading {@code -}
   * @return e.g. {@code 500ms}, {@code 1.5s}, {@code 2m}, {@code 1m30s}
   */
  public static String of(Duration duration) {
    if (duration.isZero()) {
      return "0s";
    }
    if (duration.isNegative()) {
      return "-" + of(duration.negated());
    }
    long seconds = duration.getSeconds();
    if (seconds == 0) {
      long nanos = duration.getNano();
      if (nanos < 1_000) {
        return nanos + "ns";
      }
      if (nanos < 1_000_000) {
        return decimal(nanos, 3) + "µs";
      }
      return decimal(nanos, 6) + "ms";
    }
    StringBuilder out = new StringBuilder();
    long hours = seconds / 3600;
    long minutes = seconds / 60 % 60;
    long secondNanos = (seconds % 60) * 1_000_000_000L + duration.getNano();
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

  /**
   * A measured duration, rounded: whole microseconds below a millisecond, whole milliseconds below a second, one
   * decimal below a minute, then whole seconds.
   *
   * @param elapsed a non-negative duration
   * @return e.g. {@code 850µs}, {@code 412ms}, {@code 6.2s}, {@code 2m5s}
   */
  public static String measured(Duration elapsed) {
    long nanos = elapsed.toNanos();
    if (nanos < 1_000_000) {
      return nanos / 1_000 + "µs";
    }
    if (nanos < 1_000_000_000) {
      return nanos / 1_000_000 + "ms";
    }
    if (nanos < 59_950_000_000L) {
      return BigDecimal.valueOf(nanos / 1_000_000, 3).setScale(1, RoundingMode.HALF_UP).toPlainString() + "s";
    }
    long seconds = Math.round(nanos / 1e9);
    return seconds / 60 + "m" + (seconds % 60 == 0 ? "" : seconds % 60 + "s");
  }

  /**
   * The time since {@code startNanos} (a {@link System#nanoTime()} value), as {@link #measured}.
   *
   * @param startNanos when the measured thing started
   * @return the text
   */
  public static String since(long startNanos) {
    return measured(Duration.ofNanos(System.nanoTime() - startNanos));
  }

  private static String decimal(long value, int scale) {
    return BigDecimal.valueOf(value, scale).stripTrailingZeros().toPlainString();
  }
}
