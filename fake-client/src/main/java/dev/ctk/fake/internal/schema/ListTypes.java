package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.status.GoText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's uniqueness checks for {@code x-kubernetes-list-type: set} (whole items) and {@code map} (the
 * {@code x-kubernetes-list-map-keys} of each item) lists: the second occurrence of a value is reported as
 * {@code Duplicate value} (a third is not), and a map list item that is not an object is
 * {@code must be an object for an array of list-type map}.
 */
final class ListTypes {

  private ListTypes() {}

  /** Every uniqueness error in an object, in field order. */
  static List<SchemaError> duplicates(JsonNode object, Schema schema) {
    List<SchemaError> out = new ArrayList<>();
    walkObject("", object, schema, out);
    return out;
  }

  private static void walkObject(String path, JsonNode object, Schema schema, List<SchemaError> out) {
    if (schema == null || !object.isObject()) {
      return;
    }
    if (schema.additionalProperties() != null) {
      object.properties().forEach(field -> walk(path + "[" + field.getKey() + "]", field.getValue(),
          schema.additionalProperties(), out));
    }
    object.properties().forEach(field -> {
      Schema property = schema.properties().get(field.getKey());
      if (property != null) {
        walk(path.isEmpty() ? field.getKey() : path + "." + field.getKey(), field.getValue(), property, out);
      }
    });
  }

  private static void walk(String path, JsonNode value, Schema schema, List<SchemaError> out) {
    if (value.isObject()) {
      walkObject(path, value, schema, out);
    } else if (value.isArray()) {
      if ("set".equals(schema.listType())) {
        for (int i : secondOccurrences(items(value))) {
          out.add(duplicate(path + "[" + i + "]", value.get(i)));
        }
      } else if ("map".equals(schema.listType())) {
        listMap(path, value, schema, out);
      }
      if (schema.items() != null) {
        for (int i = 0; i < value.size(); i++) {
          walk(path + "[" + i + "]", value.get(i), schema.items(), out);
        }
      }
    }
  }

  private static void listMap(String path, JsonNode list, Schema schema, List<SchemaError> out) {
    for (int i = 0; i < list.size(); i++) {
      JsonNode item = list.get(i);
      if (!item.isNull() && !item.isObject()) {
        out.add(new SchemaError("FieldValueInvalid", path + "[" + i + "]", "Invalid value: "
            + GoText.fieldErrorValue(item) + ": must be an object for an array of list-type map"));
        return;
      }
    }
    List<JsonNode> keys = new ArrayList<>();
    for (JsonNode item : list) {
      ObjectNode key = JsonNodeFactory.instance.objectNode();
      for (String keyField : schema.listMapKeys()) {
        if (item.has(keyField)) {
          key.set(keyField, item.get(keyField));
        }
      }
      keys.add(key);
    }
    for (int i : secondOccurrences(keys)) {
      out.add(duplicate(path + "[" + i + "]", keys.get(i)));
    }
  }

  private static List<JsonNode> items(JsonNode list) {
    List<JsonNode> out = new ArrayList<>();
    list.forEach(out::add);
    return out;
  }

  /** The index of each value's second occurrence (Go's == for scalars: an int64 never equals a float64). */
  private static List<Integer> secondOccurrences(List<JsonNode> values) {
    Map<String, Integer> seen = new HashMap<>();
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      String identity = GoText.crdTypeName(values.get(i)) + ":" + GoText.crdJsonText(values.get(i));
      int times = seen.merge(identity, 1, Integer::sum);
      if (times == 2) {
        out.add(i);
      }
    }
    return out;
  }

  private static SchemaError duplicate(String field, JsonNode value) {
    return new SchemaError("FieldValueDuplicate", field, "Duplicate value: " + GoText.fieldErrorValue(value));
  }
}
