package dev.ctk.fake.internal.status;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders JSON values the way kube-apiserver's Go code prints them in error messages, so the fake's
 * {@code Status.message} texts match word for word: {@code %v} of a decoded JSON value
 * ({@code map[a:1 b:x]}, {@code [x y]}, {@code <nil>}), the Go type of a decoded value
 * ({@code map[string]interface {}}), and the JSON kind named by {@code encoding/json} errors.
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
      List<String> keys = new ArrayList<>();
      node.fieldNames().forEachRemaining(keys::add);
      keys.sort(null);
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

  /** Go's {@code %q}: a double-quoted string with Go escapes. */
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
   * HTML-safe default, {@code <}, {@code >}, {@code &}, U+2028 and U+2029 as {@code \\u003c} and so on.
   */
  public static String json(String text) {
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

  /** Go's shortest {@code %v} of a float64: {@code %e} when the exponent is below -4 or at least 6. */
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
    BigDecimal decimal = new BigDecimal(Double.toString(value)).stripTrailingZeros();
    String digits = decimal.unscaledValue().abs().toString();
    int exponent = digits.length() - decimal.scale() - 1;
    String sign = value < 0 ? "-" : "";
    if (exponent < -4 || exponent >= 6) {
      StringBuilder text = new StringBuilder(sign).append(digits.charAt(0));
      if (digits.length() > 1) {
        text.append('.').append(digits, 1, digits.length());
      }
      int magnitude = Math.abs(exponent);
      text.append('e').append(exponent < 0 ? '-' : '+').append(magnitude < 10 ? "0" : "").append(magnitude);
      return text.toString();
    }
    return sign + decimal.abs().toPlainString();
  }
}
