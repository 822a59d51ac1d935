package dev.ctk.fake.internal.cel;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;

/**
 * A Kubernetes {@code resource.Quantity} as the CEL quantity library uses it: parsed as
 * {@code resource.ParseQuantity} does (binary suffixes {@code Ki} .. {@code Ei}, decimal {@code n} .. {@code E},
 * exponents {@code e3}/{@code E3}; more precision than {@code n} rounds up) and compared by value, so
 * {@code quantity('1Gi') == quantity('1024Mi')}.
 *
 * @param value the exact value
 */
record Quantity(BigDecimal value) {

  static final String FORMAT_WRONG =
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  static final String SUFFIX_WRONG = "unable to parse quantity's suffix";

  private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
      Map.entry("", BigDecimal.ONE),
      Map.entry("n", BigDecimal.ONE.scaleByPowerOfTen(-9)),
      Map.entry("u", BigDecimal.ONE.scaleByPowerOfTen(-6)),
      Map.entry("m", BigDecimal.ONE.scaleByPowerOfTen(-3)),
      Map.entry("k", BigDecimal.ONE.scaleByPowerOfTen(3)),
      Map.entry("M", BigDecimal.ONE.scaleByPowerOfTen(6)),
      Map.entry("G", BigDecimal.ONE.scaleByPowerOfTen(9)),
      Map.entry("T", BigDecimal.ONE.scaleByPowerOfTen(12)),
      Map.entry("P", BigDecimal.ONE.scaleByPowerOfTen(15)),
      Map.entry("E", BigDecimal.ONE.scaleByPowerOfTen(18)),
      Map.entry("Ki", new BigDecimal(BigInteger.TWO.pow(10))),
      Map.entry("Mi", new BigDecimal(BigInteger.TWO.pow(20))),
      Map.entry("Gi", new BigDecimal(BigInteger.TWO.pow(30))),
      Map.entry("Ti", new BigDecimal(BigInteger.TWO.pow(40))),
      Map.entry("Pi", new BigDecimal(BigInteger.TWO.pow(50))),
      Map.entry("Ei", new BigDecimal(BigInteger.TWO.pow(60))));

  /**
   * Parses a quantity.
   *
   * @throws IllegalArgumentException with kube's text ({@link #FORMAT_WRONG}, {@link #SUFFIX_WRONG})
   */
  static Quantity parse(String text) {
    int i = 0;
    boolean negative = false;
    if (i < text.length() && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
      negative = text.charAt(i) == '-';
      i++;
    }
    int numberStart = i;
    while (i < text.length() && Character.isDigit(text.charAt(i))) {
      i++;
    }
    if (i < text.length() && text.charAt(i) == '.') {
      i++;
      while (i < text.length() && Character.isDigit(text.charAt(i))) {
        i++;
      }
    }
    String number = text.substring(numberStart, i);
    if (number.isEmpty() || number.equals(".")) {
      throw new IllegalArgumentException(FORMAT_WRONG);
    }
    int suffixStart = i;
    while (i < text.length() && "eEinumkKMGTP".indexOf(text.charAt(i)) >= 0) {
      i++;
    }
    if (i < text.length() && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
      i++;
    }
    while (i < text.length() && Character.isDigit(text.charAt(i))) {
      i++;
    }
    if (i != text.length()) {
      throw new IllegalArgumentException(FORMAT_WRONG);
    }
    BigDecimal multiplier = multiplier(text.substring(suffixStart));
    BigDecimal value = new BigDecimal(number.startsWith(".") ? "0" + number : number.endsWith(".")
        ? number + "0" : number).multiply(multiplier);
    if (value.scale() > 9) {
      value = value.setScale(9, RoundingMode.UP);
    }
    return new Quantity(negative ? value.negate() : value);
  }

  private static BigDecimal multiplier(String suffix) {
    BigDecimal known = SUFFIXES.get(suffix);
    if (known != null) {
      return known;
    }
    if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
      try {
        return BigDecimal.ONE.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(SUFFIX_WRONG);
      }
    }
    throw new IllegalArgumentException(SUFFIX_WRONG);
  }

  /** Whether the value is a whole number that fits an {@code int64}. */
  boolean isInteger() {
    try {
      value.longValueExact();
      return true;
    } catch (ArithmeticException e) {
      return false;
    }
  }

  long asInteger() {
    try {
      return value.longValueExact();
    } catch (ArithmeticException e) {
      throw new KubeFunctionError("cannot convert value to integer");
    }
  }

  Quantity add(BigDecimal other) {
    return new Quantity(value.add(other));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Quantity q && q.value.compareTo(value) == 0;
  }

  @Override
  public int hashCode() {
    return value.stripTrailingZeros().hashCode();
  }

  @Override
  public String toString() {
    return value.toPlainString();
  }
}
