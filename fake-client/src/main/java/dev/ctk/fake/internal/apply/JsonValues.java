package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON values as kube's structured-merge-diff sees them: one total order over every value (numbers first, then
 * strings, booleans, lists, maps, null), equality under that order ({@code 1} equals {@code 1.0}), the text a
 * value has inside a field path ({@code "nginx"}, {@code 80}) and the compact JSON Go's {@code encoding/json}
 * writes (map keys sorted, {@code <}, {@code >} and {@code &} escaped).
 */
final class JsonValues {

  private JsonValues() {}

  /** The total order of values; {@code null} (absent) sorts like a JSON null. */
  static int compare(JsonNode a, JsonNode b) {
    int ra = rank(a);
    int rb = rank(b);
    if (ra == 0 && rb == 0) {
      return a.decimalValue().compareTo(b.decimalValue());
    }
    if (ra != rb) {
      return Integer.compare(ra, rb);
    }
    switch (ra) {
      case 1:
        return a.asText().compareTo(b.asText());
      case 2:
        return Boolean.compare(a.booleanValue(), b.booleanValue());
      case 3:
        return compareLists(a, b);
      case 4:
        return compareMaps(a, b);
      default:
        return 0;
    }
  }

  /** Whether two values are equal under {@link #compare}. */
  static boolean equal(JsonNode a, JsonNode b) {
    return compare(a, b) == 0;
  }

  private static int rank(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return 5;
    }
    if (node.isNumber()) {
      return 0;
    }
    if (node.isTextual()) {
      return 1;
    }
    if (node.isBoolean()) {
      return 2;
    }
    if (node.isArray()) {
      return 3;
    }
    return 4;
  }

  private static int compareLists(JsonNode a, JsonNode b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static int compareMaps(JsonNode a, JsonNode b) {
    List<String> keysA = sortedKeys(a);
    List<String> keysB = sortedKeys(b);
    for (int i = 0; i < Math.min(keysA.size(), keysB.size()); i++) {
      int c = keysA.get(i).compareTo(keysB.get(i));
      if (c != 0) {
        return c;
      }
      c = compare(a.get(keysA.get(i)), b.get(keysB.get(i)));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(keysA.size(), keysB.size());
  }

  static List<String> sortedKeys(JsonNode object) {
    List<String> keys = new ArrayList<>();
    object.fieldNames().forEachRemaining(keys::add);
    keys.sort(null);
    return keys;
  }

  /** How a value is printed inside a field path: Go's {@code %q} for strings, numbers and booleans as they are. */
  static String pathText(JsonNode value) {
    if (value == null || value.isNull()) {
      return "null";
    }
    if (value.isTextual()) {
      return GoText.quote(value.asText());
    }
    if (value.isIntegralNumber()) {
      return value.bigIntegerValue().toString();
    }
    if (value.isNumber()) {
      return GoText.floatText(value.doubleValue());
    }
    if (value.isBoolean()) {
      return Boolean.toString(value.booleanValue());
    }
    if (value.isArray()) {
      List<String> items = new ArrayList<>();
      value.forEach(item -> items.add(pathText(item)));
      return "[" + String.join(",", items) + "]";
    }
    StringBuilder out = new StringBuilder();
    for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      out.append(field.getKey()).append('=').append(pathText(field.getValue()));
    }
    return out.toString();
  }

  /** Compact JSON as Go's {@code encoding/json} writes it: map keys sorted, HTML characters escaped. */
  static String goJson(JsonNode value) {
    StringBuilder out = new StringBuilder();
    writeGoJson(value, out);
    return out.toString();
  }

  static void writeGoJson(JsonNode value, StringBuilder out) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      out.append("null");
    } else if (value.isTextual()) {
      writeGoString(value.asText(), out);
    } else if (value.isIntegralNumber()) {
      out.append(value.bigIntegerValue());
    } else if (value.isNumber()) {
      out.append(goJsonFloat(value.doubleValue()));
    } else if (value.isBoolean()) {
      out.append(value.booleanValue());
    } else if (value.isArray()) {
      out.append('[');
      for (int i = 0; i < value.size(); i++) {
        out.append(i == 0 ? "" : ",");
        writeGoJson(value.get(i), out);
      }
      out.append(']');
    } else {
      out.append('{');
      boolean first = true;
      for (String key : sortedKeys(value)) {
        out.append(first ? "" : ",");
        first = false;
        writeGoString(key, out);
        out.append(':');
        writeGoJson(value.get(key), out);
      }
      out.append('}');
    }
  }

  static void writeGoString(String text, StringBuilder out) {
    out.append(GoText.json(text));
  }

  /** A float64 as {@code encoding/json} writes it: plain decimals, exponent form below 1e-6 or from 1e21. */
  static String goJsonFloat(double value) {
    if (value == 0) {
      return "0";
    }
    double abs = Math.abs(value);
    BigDecimal decimal = new BigDecimal(Double.toString(value)).stripTrailingZeros();
    if (abs >= 1e-6 && abs < 1e21) {
      return decimal.toPlainString();
    }
    String digits = decimal.unscaledValue().abs().toString();
    int exponent = digits.length() - decimal.scale() - 1;
    StringBuilder text = new StringBuilder(value < 0 ? "-" : "").append(digits.charAt(0));
    if (digits.length() > 1) {
      text.append('.').append(digits, 1, digits.length());
    }
    int magnitude = Math.abs(exponent);
    text.append('e').append(exponent < 0 ? '-' : '+');
    if (exponent > 0 && magnitude < 10) {
      text.append('0');
    }
    return text.append(magnitude).toString();
  }
}
