package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The few typed values kube prints in {@code Invalid value: ...} texts of built-in kinds, in Go syntax ({@code %#v})
 * and as JSON: a label selector ({@code v1.LabelSelector{MatchLabels:map[string]string{"app":"web"},
 * MatchExpressions:[]v1.LabelSelectorRequirement(nil)}}), a {@code map[string]string} (keys sorted, as Go's fmt
 * prints maps) and a {@code []string} ({@link GoText#stringSlice}). Strings are quoted with {@link GoText#quote} in
 * both printings; in the JSON one kube's {@code json.Marshal} writes {@code <}, {@code >}, {@code &} and control
 * characters as {@link GoText#jsonString} does, so a value holding them is printed differently from kube.
 */
final class GoSyntax {

  /**
   * A value as kube prints it in a field error: Go syntax up to 1.33, JSON (of the typed value, so empty optional
   * fields left out) from 1.34.
   *
   * @param go e.g. {@code []string{"a"}}
   * @param json e.g. {@code ["a"]}
   */
  record Printed(String go, String json) {
  }

  private GoSyntax() {}

  /** A label selector in both printings. */
  static Printed printedLabelSelector(JsonNode selector) {
    return new Printed(labelSelector(selector), labelSelectorJson(selector));
  }

  /** A {@code map[string]string} in both printings. */
  static Printed printedStringMap(JsonNode map) {
    return new Printed(stringMap(map), stringMapJson(map));
  }

  /** A {@code []string} in both printings. */
  static Printed printedStringSlice(JsonNode array) {
    return new Printed(stringSlice(array), stringSliceJson(array));
  }

  /** {@code {"matchLabels":{..},"matchExpressions":[..]}}, fields in the struct's order, empty ones left out. */
  private static String labelSelectorJson(JsonNode selector) {
    StringBuilder out = new StringBuilder("{");
    JsonNode labels = selector.get("matchLabels");
    if (labels != null && labels.isObject() && !labels.isEmpty()) {
      out.append("\"matchLabels\":").append(stringMapJson(labels));
    }
    JsonNode expressions = selector.get("matchExpressions");
    if (expressions != null && expressions.isArray() && !expressions.isEmpty()) {
      out.append(out.length() > 1 ? "," : "").append("\"matchExpressions\":[");
      for (int i = 0; i < expressions.size(); i++) {
        JsonNode e = expressions.get(i);
        out.append(i == 0 ? "" : ",").append("{\"key\":").append(GoText.quote(e.path("key").asText("")))
            .append(",\"operator\":").append(GoText.quote(e.path("operator").asText("")));
        JsonNode values = e.get("values");
        if (values != null && values.isArray() && !values.isEmpty()) {
          out.append(",\"values\":").append(stringSliceJson(values));
        }
        out.append('}');
      }
      out.append(']');
    }
    return out.append('}').toString();
  }

  /** {@code {"a":"1","b":"2"}} (keys sorted, as Go marshals a map), or {@code null} when absent. */
  private static String stringMapJson(JsonNode map) {
    List<String> entries = entries(map);
    return entries == null ? "null" : "{" + String.join(",", entries) + "}";
  }

  /** {@code ["a","b"]}, or {@code null} when absent. */
  private static String stringSliceJson(JsonNode array) {
    List<String> values = strings(array);
    return values == null ? "null" : "[" + String.join(",", values.stream().map(GoText::quote).toList()) + "]";
  }

  /** {@code v1.LabelSelector{...}} of a JSON label selector. */
  static String labelSelector(JsonNode selector) {
    StringBuilder out = new StringBuilder("v1.LabelSelector{MatchLabels:");
    out.append(stringMap(selector.get("matchLabels")));
    out.append(", MatchExpressions:");
    JsonNode expressions = selector.get("matchExpressions");
    if (expressions == null || expressions.isNull()) {
      out.append("[]v1.LabelSelectorRequirement(nil)");
    } else {
      out.append("[]v1.LabelSelectorRequirement{");
      for (int i = 0; i < expressions.size(); i++) {
        JsonNode e = expressions.get(i);
        out.append(i == 0 ? "" : ", ").append("v1.LabelSelectorRequirement{Key:")
            .append(GoText.quote(e.path("key").asText(""))).append(", Operator:")
            .append(GoText.quote(e.path("operator").asText(""))).append(", Values:")
            .append(stringSlice(e.get("values"))).append('}');
      }
      out.append('}');
    }
    return out.append('}').toString();
  }

  /** {@code map[string]string{"a":"1", "b":"2"}}, or {@code map[string]string(nil)} when absent. */
  static String stringMap(JsonNode map) {
    List<String> entries = entries(map);
    return entries == null ? "map[string]string(nil)" : "map[string]string{" + String.join(", ", entries) + "}";
  }

  /** {@code []string{"a", "b"}}, or {@code []string(nil)} when absent. */
  static String stringSlice(JsonNode array) {
    return GoText.stringSlice(strings(array));
  }

  /** A map's {@code "key":"value"} entries, keys sorted; {@code null} when the map is absent. */
  private static List<String> entries(JsonNode map) {
    if (map == null || map.isNull() || !map.isObject()) {
      return null;
    }
    List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(map.properties());
    entries.sort(Map.Entry.comparingByKey());
    return entries.stream().map(e -> GoText.quote(e.getKey()) + ":" + GoText.quote(e.getValue().asText(""))).toList();
  }

  /** An array's items as strings; {@code null} when the array is absent. */
  private static List<String> strings(JsonNode array) {
    if (array == null || array.isNull() || !array.isArray()) {
      return null;
    }
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asText("")));
    return values;
  }
}
