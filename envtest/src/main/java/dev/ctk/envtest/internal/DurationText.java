package dev.ctk.envtest.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * Durations as envtest messages print them: a configured bound as given ({@code 60s}, {@code
 * 500ms}, {@code 2m30s}) and a measured time in seconds with one decimal ({@code 0.4s}, {@code
 * 6.1s}).
 *
 * <pre>{@code
 * DurationText.bound(Duration.ofSeconds(60));      // "60s"
 * DurationText.measured(Duration.ofMillis(6_140)); // "6.1s"
 * }</pre>
 */
public final class DurationText {

  private DurationText() {}

  /**
   * A configured duration, exact and short: {@code 500ms}, {@code 1.5s}, {@code 60s}, {@code
   * 2m30s}, {@code 1h0m0s}.
   *
   * @param duration a non-negative duration
   * @return the text
   */
  public static String bound(Duration duration) {
    if (duration.toMillis() < 1_000) {
      return plain(BigDecimal.valueOf(duration.toNanos(), 6)) + "ms";
    }
    long seconds = duration.getSeconds();
    String secondsPart =
        plain(BigDecimal.valueOf(seconds % 60).add(BigDecimal.valueOf(duration.getNano(), 9)))
            + "s";
    if (seconds < 60) {
      return secondsPart;
    }
    long minutes = seconds / 60;
    if (minutes < 60) {
      return minutes + "m" + secondsPart;
    }
    return (minutes / 60) + "h" + (minutes % 60) + "m" + secondsPart;
  }

  /**
   * A measured duration in seconds, rounded half-up to one decimal: {@code 0.4s}, {@code 61.0s}.
   *
   * @param duration a non-negative duration
   * @return the text
   */
  public static String measured(Duration duration) {
    return BigDecimal.valueOf(duration.toMillis(), 3).setScale(1, RoundingMode.HALF_UP).toPlainString()
        + "s";
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

  private static String plain(BigDecimal value) {
    return value.stripTrailingZeros().toPlainString();
  }
}
