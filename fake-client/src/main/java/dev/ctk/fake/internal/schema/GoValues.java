package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints decoded JSON values the way kube-apiserver's Go code prints them in custom resource validation errors.
 * Kube decodes custom resources with integers as {@code int64} and other numbers as {@code float64}; a field error
 * prints numbers and booleans with {@code %v}, strings with {@code %q} (a JSON {@code null} as {@code "null"}) and
 * maps and slices with {@code %#v}.
 */
final class GoValues {

  private GoValues() {}

  /** Whether kube would hold this number as an {@code int64} (an integer literal that fits). */
  static boolean isInt64(JsonNode node) {
    return node.isIntegralNumber() && node.canConvertToLong();
  }

  /** The value part of a field error: {@code 3}, {@code 1.5}, {@code true}, {@code "text"}, {@code "null"}. */
  static String errorValue(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return quote("null");
    }
    if (node.isTextual()) {
      return quote(node.asText());
    }
    if (node.isNumber() || node.isBoolean()) {
      return plain(node);
    }
    return goSyntax(node);
  }

  /** Go's {@code %v} of a number or boolean. */
  static String plain(JsonNode node) {
    if (node.isBoolean()) {
      return Boolean.toString(node.asBoolean());
    }
    if (isInt64(node)) {
      return Long.toString(node.asLong());
    }
    return number(node.doubleValue());
  }

  /** Go's {@code %v} of a float64: shortest digits, exponent form below 1e-4 and from 1e+06. */
  static String number(double value) {
    return GoText.floatText(value);
  }

  /** Go's {@code %#v} of a decoded value: {@code map[string]interface {}{"a":1}}, {@code []interface {}{"x"}}. */
  static String goSyntax(JsonNode node) {
    if (node == null || node.isNull()) {
      return "interface {}(nil)";
    }
    if (node.isObject()) {
      List<String> keys = new ArrayList<>();
      node.fieldNames().forEachRemaining(keys::add);
      keys.sort(null);
      StringBuilder out = new StringBuilder("map[string]interface {}{");
      for (int i = 0; i < keys.size(); i++) {
        out.append(i == 0 ? "" : ", ").append(quote(keys.get(i))).append(':').append(goSyntax(node.get(keys.get(i))));
      }
      return out.append('}').toString();
    }
    if (node.isArray()) {
      StringBuilder out = new StringBuilder("[]interface {}{");
      for (int i = 0; i < node.size(); i++) {
        out.append(i == 0 ? "" : ", ").append(goSyntax(node.get(i)));
      }
      return out.append('}').toString();
    }
    if (node.isTextual()) {
      return quote(node.asText());
    }
    return plain(node);
  }

  /** {@code json.Marshal} of a value decoded from a CRD (numbers there are float64; map keys sorted). */
  static String json(JsonNode node) {
    if (node.isNumber()) {
      return number(node.doubleValue());
    }
    if (node.isObject()) {
      List<String> keys = new ArrayList<>();
      node.fieldNames().forEachRemaining(keys::add);
      keys.sort(null);
      StringBuilder out = new StringBuilder("{");
      for (int i = 0; i < keys.size(); i++) {
        out.append(i == 0 ? "" : ",").append(jsonString(keys.get(i))).append(':').append(json(node.get(keys.get(i))));
      }
      return out.append('}').toString();
    }
    if (node.isArray()) {
      StringBuilder out = new StringBuilder("[");
      for (int i = 0; i < node.size(); i++) {
        out.append(i == 0 ? "" : ",").append(json(node.get(i)));
      }
      return out.append(']').toString();
    }
    if (node.isTextual()) {
      return jsonString(node.asText());
    }
    return node.toString();
  }

  /** Go's {@code %T} of a decoded value. */
  static String typeName(JsonNode node) {
    if (node == null || node.isNull()) {
      return "<nil>";
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
    return isInt64(node) ? "int64" : "float64";
  }

  /** Go's {@code %v} of a decoded value (strings bare). */
  static String bare(JsonNode node) {
    if (node == null || node.isNull()) {
      return "<nil>";
    }
    if (node.isTextual()) {
      return node.asText();
    }
    if (node.isNumber() || node.isBoolean()) {
      return plain(node);
    }
    if (node.isArray()) {
      StringBuilder out = new StringBuilder("[");
      for (int i = 0; i < node.size(); i++) {
        out.append(i == 0 ? "" : " ").append(bare(node.get(i)));
      }
      return out.append(']').toString();
    }
    List<String> keys = new ArrayList<>();
    node.fieldNames().forEachRemaining(keys::add);
    keys.sort(null);
    StringBuilder out = new StringBuilder("map[");
    for (int i = 0; i < keys.size(); i++) {
      out.append(i == 0 ? "" : " ").append(keys.get(i)).append(':').append(bare(node.get(keys.get(i))));
    }
    return out.append(']').toString();
  }

  /** Go's {@code %q} (and {@code strconv.Quote}). */
  static String quote(String text) {
    return GoText.quote(text);
  }

  private static String jsonString(String text) {
    return new com.fasterxml.jackson.databind.node.TextNode(text).toString();
  }
}
