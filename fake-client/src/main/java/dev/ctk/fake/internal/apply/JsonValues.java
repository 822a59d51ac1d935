package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON values as kube's structured-merge-diff sees them: one total order over every value (numbers first, then
 * strings, booleans, lists, maps, null), equality under that order ({@code 1} equals {@code 1.0}) and the text a
 * value has inside a field path ({@code "nginx"}, {@code 80}). The compact JSON of values in {@code managedFields}
 * is {@link GoText#jsonText}.
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
}
