package dev.ctk.fake.internal.status;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place that writes values as kube-apiserver's Go code prints them, so the fake's texts
 * ({@code Status.message}, field error causes, {@code managedFields}, annotations) match kube's word for word.
 *
 * <p>Kube prints one value differently in different places, and each way has its own method here:
 * <ul>
 *   <li>strings: {@link #quote} (Go's {@code %q}: field errors, names in messages) and {@link #jsonString}
 *       ({@code encoding/json}: {@code managedFields}, annotations, field errors from 1.34);</li>
 *   <li>float64 numbers: {@link #floatText} ({@code %v}) and {@link #jsonFloat} ({@code encoding/json});</li>
 *   <li>whole values: {@link #value} ({@code %v}) and {@link #jsonText} ({@code encoding/json});</li>
 *   <li>kinds and types: {@link #jsonKind} ({@code encoding/json}'s "cannot unmarshal X") and {@link #typeName}.</li>
 * </ul>
 *
 * <p>Example: for the JSON {@code {"b":"<x>","a":1.5e6}}, {@link #value} gives {@code map[a:1.5e+06 b:<x>]} and
 * {@link #jsonText} gives {@code {"a":1500000,"b":"\\u003cx\\u003e"}}.
 *
 * @since 0.1.0
 */
public final class GoText {

  private GoText() {}

  /** The word {@code encoding/json} uses for a JSON value in "cannot unmarshal X into ...". */
  public static String jsonKind(JsonNode node) {
    if (node.isObject()) {
      return "object";
    }
    if (node.isArray()) {
      return "array";
    }
    if (node.isTextual()) {
      return "string";
    }
    if (node.isNumber()) {
      return "number";
    }
    if (node.isBoolean()) {
      return "bool";
    }
    return "null";
  }

  /** {@code reflect.TypeOf(v).String()} for a JSON value decoded by kube (ints stay int64). */
  public static String typeName(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return "%!s(<nil>)";
    }
    if (node.isObject()) {
      return "map[string]interface {}";
    }
    if (node.isArray()) {
      return "[]interface {}";
    }
    if (node.isTextual()) {
      return "string";
    }
    if (node.isBoolean()) {
      return "bool";
    }
    if (node.isIntegralNumber()) {
      return "int64";
    }
    return "float64";
  }

  /** Go's {@code fmt.Sprintf("%v", v)} of a JSON value decoded into {@code interface{}}. */
  public static String value(JsonNode node) {
    StringBuilder out = new StringBuilder();
    append(out, node);
    return out.toString();
  }

  private static void append(StringBuilder out, JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      out.append("<nil>");
    } else if (node.isObject()) {
      List<String> keys = sortedKeys(node);
      out.append("map[");
      for (int i = 0; i < keys.size(); i++) {
        if (i > 0) {
          out.append(' ');
        }
        out.append(keys.get(i)).append(':');
        append(out, node.get(keys.get(i)));
      }
      out.append(']');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(' ');
        }
        append(out, node.get(i));
      }
      out.append(']');
    } else if (node.isTextual()) {
      out.append(node.textValue());
    } else if (node.isIntegralNumber()) {
      out.append(node.bigIntegerValue());
    } else if (node.isNumber()) {
      out.append(floatText(node.doubleValue()));
    } else {
      out.append(node.asText());
    }
  }

  /**
   * Go's {@code %q} ({@code strconv.Quote}): a double-quoted string with Go's escapes ({@code \"}, {@code \n},
   * {@code \x01}). Kube quotes strings so in field errors ({@code Invalid value: "web"}), in names inside messages
   * and in structured-merge-diff field paths.
   */
  public static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    text.codePoints().forEach(c -> {
      switch (c) {
        case '"':
          out.append("\\\"");
          break;
        case '\\':
          out.append("\\\\");
          break;
        case '\n':
          out.append("\\n");
          break;
        case '\r':
          out.append("\\r");
          break;
        case '\t':
          out.append("\\t");
          break;
        default:
          if (c < 0x20 || c == 0x7f) {
            out.append(String.format("\\x%02x", c));
          } else {
            out.appendCodePoint(c);
          }
      }
    });
    return out.append('"').toString();
  }

  /**
   * Go's {@code encoding/json} of a string: {@code "}, {@code \\} and control characters escaped, and, as Go's
   * HTML-safe default, {@code <}, {@code >}, {@code &}, U+2028 and U+2029 as {@code \\u003c} and so on. Kube writes
   * strings so in {@code managedFields} keys, the {@code last-applied-configuration} annotation and, from 1.34, the
   * values of field errors: {@code jsonString("a<b")} is {@code "a\\u003cb"} where {@link #quote} gives
   * {@code "a<b"}.
   */
  public static String jsonString(String text) {
    StringBuilder out = new StringBuilder("\"");
    text.codePoints().forEach(c -> {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029) {
            out.append(String.format("\\u%04x", c));
          } else {
            out.appendCodePoint(c);
          }
        }
      }
    });
    return out.append('"').toString();
  }

  /**
   * Go's {@code %v} of a float64 ({@code strconv.FormatFloat(v, 'g', -1, 64)}): shortest digits, exponent form when
   * the exponent is below -4 or at least 6: {@code 1e+06}, {@code 123456}, {@code 1e-05}. Kube prints numbers so in
   * field errors and in structured-merge-diff field paths.
   */
  public static String floatText(double value) {
    if (value == 0) {
      return "0";
    }
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    BigDecimal decimal = shortestDecimal(value);
    int exponent = exponent(decimal);
    return exponent < -4 || exponent >= 6 ? exponentForm(decimal, true) : decimal.toPlainString();
  }

  /**
   * A float64 as Go's {@code encoding/json} writes it: plain decimals, exponent form below 1e-6 or from 1e21
   * ({@code 1000000}, {@code 1e-7}, {@code 1e+21}), as in {@code managedFields} and the
   * {@code last-applied-configuration} annotation.
   */
  public static String jsonFloat(double value) {
    if (value == 0) {
      return "0";
    }
    double abs = Math.abs(value);
    BigDecimal decimal = shortestDecimal(value);
    return abs >= 1e-6 && abs < 1e21 ? decimal.toPlainString() : exponentForm(decimal, false);
  }

  private static BigDecimal shortestDecimal(double value) {
    return new BigDecimal(Double.toString(value)).stripTrailingZeros();
  }

  private static int exponent(BigDecimal decimal) {
    return decimal.precision() - decimal.scale() - 1;
  }

  /** {@code d.ddde+XX}; {@code %e} writes at least two exponent digits, {@code encoding/json} drops a negative one's 0. */
  private static String exponentForm(BigDecimal decimal, boolean padNegative) {
    String digits = decimal.unscaledValue().abs().toString();
    int exponent = exponent(decimal);
    StringBuilder text = new StringBuilder(decimal.signum() < 0 ? "-" : "").append(digits.charAt(0));
    if (digits.length() > 1) {
      text.append('.').append(digits, 1, digits.length());
    }
    int magnitude = Math.abs(exponent);
    text.append('e').append(exponent < 0 ? '-' : '+');
    if (magnitude < 10 && (exponent >= 0 || padNegative)) {
      text.append('0');
    }
    return text.append(magnitude).toString();
  }

  /**
   * Compact JSON of a value as Go's {@code encoding/json} writes it: map keys sorted, strings as {@link #jsonString},
   * integer literals as written, other numbers as {@link #jsonFloat}, a missing value as {@code null}. Kube writes
   * values so in {@code managedFields} ({@code k:{"name":"web"}}, {@code v:80}) and the
   * {@code last-applied-configuration} annotation.
   */
  public static String jsonText(JsonNode node) {
    StringBuilder out = new StringBuilder();
    appendJson(out, node);
    return out.toString();
  }

  private static void appendJson(StringBuilder out, JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      out.append("null");
    } else if (node.isTextual()) {
      out.append(jsonString(node.textValue()));
    } else if (node.isIntegralNumber()) {
      out.append(node.bigIntegerValue());
    } else if (node.isNumber()) {
      out.append(jsonFloat(node.doubleValue()));
    } else if (node.isBoolean()) {
      out.append(node.booleanValue());
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        out.append(i == 0 ? "" : ",");
        appendJson(out, node.get(i));
      }
      out.append(']');
    } else {
      out.append('{');
      List<String> keys = sortedKeys(node);
      for (int i = 0; i < keys.size(); i++) {
        out.append(i == 0 ? "" : ",").append(jsonString(keys.get(i))).append(':');
        appendJson(out, node.get(keys.get(i)));
      }
      out.append('}');
    }
  }

  private static List<String> sortedKeys(JsonNode object) {
    List<String> keys = new ArrayList<>();
    object.fieldNames().forEachRemaining(keys::add);
    keys.sort(null);
    return keys;
  }
}
