package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's checks of {@code x-kubernetes-embedded-resource} values (below the root): {@code apiVersion} and
 * {@code kind} are required, must be strings and must not be empty.
 *
 * <p>Limits: the embedded {@code metadata} (name, labels, ...) is not validated, and {@code apiVersion} and
 * {@code kind} are not parsed further (kube checks a group/version and a DNS-1035 kind).
 */
final class EmbeddedResources {

  private EmbeddedResources() {}

  static List<SchemaError> validate(JsonNode object, Schema root) {
    List<SchemaError> out = new ArrayList<>();
    object.properties().forEach(field -> {
      Schema property = root.properties().get(field.getKey());
      if (property != null) {
        walk(field.getKey(), field.getValue(), property, out);
      } else if (root.additionalProperties() != null) {
        walk(field.getKey(), field.getValue(), root.additionalProperties(), out);
      }
    });
    return out;
  }

  private static void walk(String path, JsonNode value, Schema schema, List<SchemaError> out) {
    if (value.isObject()) {
      if (schema.embeddedResource()) {
        check(path, value, out);
      }
      value.properties().forEach(field -> {
        Schema property = schema.properties().get(field.getKey());
        if (property != null) {
          walk(path + "." + field.getKey(), field.getValue(), property, out);
        } else if (schema.additionalProperties() != null) {
          walk(path + "[" + field.getKey() + "]", field.getValue(), schema.additionalProperties(), out);
        }
      });
    } else if (value.isArray() && schema.items() != null) {
      for (int i = 0; i < value.size(); i++) {
        walk(path + "[" + i + "]", value.get(i), schema.items(), out);
      }
    }
  }

  private static void check(String path, JsonNode object, List<SchemaError> out) {
    if (!object.has("apiVersion")) {
      out.add(new SchemaError("FieldValueRequired", path + ".apiVersion", "Required value"));
    }
    if (!object.has("kind")) {
      out.add(new SchemaError("FieldValueRequired", path + ".kind", "Required value"));
    }
    for (String field : List.of("apiVersion", "kind")) {
      JsonNode value = object.get(field);
      if (value == null) {
        continue;
      }
      if (!value.isTextual()) {
        out.add(new SchemaError("FieldValueInvalid", path + "." + field, "Invalid value: "
            + GoText.fieldErrorValue(value) + ": must be a string"));
      } else if (value.asText().isEmpty()) {
        out.add(new SchemaError("FieldValueInvalid", path + "." + field, "Invalid value: \"\": must not be empty"));
      }
    }
  }
}
