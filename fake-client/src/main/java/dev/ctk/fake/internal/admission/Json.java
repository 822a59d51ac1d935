package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** Small JSON-tree moves shared by the defaulting and validation classes. */
final class Json {

  private Json() {}

  /** The object at {@code field}, created (replacing a null or non-object) when missing. */
  static ObjectNode object(ObjectNode parent, String field) {
    JsonNode node = parent.get(field);
    if (node instanceof ObjectNode object) {
      return object;
    }
    return parent.putObject(field);
  }

  /** Sets a string field when it is missing, null or empty (Go's zero value). */
  static void putIfAbsent(ObjectNode node, String field, String value) {
    JsonNode current = node.get(field);
    if (current == null || current.isNull() || (current.isTextual() && current.asText().isEmpty())) {
      node.put(field, value);
    }
  }

  /** Whether a field is absent or null (a Go nil pointer). */
  static boolean absent(JsonNode node, String field) {
    return !node.has(field) || node.get(field).isNull();
  }

  /** The elements of several array fields, in order. */
  static List<JsonNode> elements(JsonNode parent, String... arrays) {
    List<JsonNode> out = new ArrayList<>();
    for (String array : arrays) {
      for (JsonNode element : parent.path(array)) {
        if (element instanceof ObjectNode) {
          out.add(element);
        }
      }
    }
    return out;
  }
}
