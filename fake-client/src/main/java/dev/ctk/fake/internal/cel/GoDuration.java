package dev.ctk.fake.internal.cel;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Go's {@code time.ParseDuration}: a signed sequence of decimal numbers, each with a unit ({@code ns}, {@code us},
 * {@code µs}, {@code ms}, {@code s}, {@code m}, {@code h}), e.g. {@code 1h30m} or {@code -1.5s}; {@code 0} alone needs
 * no unit. Used for {@code format: duration} strings (where kube's parser also accepts words such as {@code 3 days},
 * which the fake does not) and for {@code duration('...')} literals.
 */
final class GoDuration {

  private GoDuration() {}

  /**
   * Parses a duration.
   *
   * @throws IllegalArgumentException with Go's text, e.g. {@code time: invalid duration "1x"}
   */
  static Duration parse(String text) {
    String s = text;
    boolean negative = false;
    if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
      negative = s.charAt(0) == '-';
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    if (s.isEmpty()) {
      throw invalid(text);
    }
    BigDecimal nanos = BigDecimal.ZERO;
    int i = 0;
    while (i < s.length()) {
      int start = i;
      while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
        i++;
      }
      String number = s.substring(start, i);
      if (number.isEmpty() || number.equals(".") || number.indexOf('.') != number.lastIndexOf('.')) {
        throw invalid(text);
      }
      int unitStart = i;
      while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
        i++;
      }
      String unit = s.substring(unitStart, i);
      if (unit.isEmpty()) {
        throw new IllegalArgumentException("time: missing unit in duration " + quote(text));
      }
      long scale = switch (unit) {
        case "ns" -> 1L;
        case "us", "µs", "μs" -> 1_000L;
        case "ms" -> 1_000_000L;
        case "s" -> 1_000_000_000L;
        case "m" -> 60_000_000_000L;
        case "h" -> 3_600_000_000_000L;
        default -> throw new IllegalArgumentException("time: unknown unit " + quote(unit) + " in duration "
            + quote(text));
      };
      nanos = nanos.add(new BigDecimal(number.endsWith(".") ? number + "0" : number)
          .multiply(BigDecimal.valueOf(scale)));
    }
    if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw invalid(text);
    }
    long total = nanos.longValue();
    return Duration.ofNanos(negative ? -total : total);
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException("time: invalid duration " + quote(text));
  }

  private static String quote(String text) {
    return "\"" + text + "\"";
  }
}
