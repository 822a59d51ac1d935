package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Structural schema defaulting, as kube-apiserver applies it to custom resources after pruning:
 *
 * <ol>
 *   <li>{@link #dropNulls}: a {@code null} in a field that is not {@code nullable} and has no default is removed;</li>
 *   <li>{@link #apply}: a missing field, or a {@code null} in a non-nullable one, gets the field's {@code default};
 *       nested defaults apply only where the parent object exists (a default never creates its parent), and array
 *       items and map values are defaulted one by one.</li>
 * </ol>
 *
 * <p>Defaults are deep-copied. Kube prunes them against their own schema when the CRD is read; {@link Schema} does
 * the same, so a default never brings unknown fields in.
 */
public final class Defaulting {

  private Defaulting() {}

  /** Removes nulls the schema neither allows nor defaults (kube's {@code PruneNonNullableNullsWithoutDefaults}). */
  public static void dropNulls(JsonNode value, Schema schema) {
    if (value instanceof ObjectNode object) {
      List<String> remove = new ArrayList<>();
      object.properties().forEach(field -> {
        Schema child = schema == null ? null : schema.fieldSchema(field.getKey());
        if (field.getValue().isNull() && child != null && !child.nullable() && child.defaultValue() == null) {
          remove.add(field.getKey());
        } else {
          dropNulls(field.getValue(), child);
        }
      });
      object.remove(remove);
    } else if (value instanceof ArrayNode array) {
      for (JsonNode item : array) {
        dropNulls(item, schema == null ? null : schema.items());
      }
    }
  }

  /** Applies defaults in place (kube's structural {@code Default}). */
  public static void apply(JsonNode value, Schema schema) {
    if (schema == null) {
      return;
    }
    if (value instanceof ObjectNode object) {
      schema.properties().forEach((name, property) -> {
        if (property.defaultValue() == null) {
          return;
        }
        JsonNode current = object.get(name);
        if (current == null || (current.isNull() && !property.nullable())) {
          object.set(name, property.defaultValue().deepCopy());
        }
      });
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        Schema property = schema.properties().get(name);
        if (property != null) {
          apply(object.get(name), property);
        } else if (schema.additionalProperties() != null) {
          Schema values = schema.additionalProperties();
          if (object.get(name).isNull() && !values.nullable() && values.defaultValue() != null) {
            object.set(name, values.defaultValue().deepCopy());
          }
          apply(object.get(name), values);
        }
      }
    } else if (value instanceof ArrayNode array) {
      Schema items = schema.items();
      for (int i = 0; i < array.size(); i++) {
        if (items != null && array.get(i).isNull() && !items.nullable() && items.defaultValue() != null) {
          array.set(i, items.defaultValue().deepCopy());
        }
        apply(array.get(i), items);
      }
    }
  }
}
