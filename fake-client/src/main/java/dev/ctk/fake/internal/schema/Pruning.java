package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Removes the fields a structural schema does not specify, as kube-apiserver does when it decodes a custom resource
 * (from a request or from storage):
 *
 * <ul>
 *   <li>an object keeps the fields its {@code properties} declare (each pruned by its own schema), and every field
 *       when it has {@code additionalProperties} (each pruned by that schema; with {@code additionalProperties: true}
 *       nested objects lose every field, as kube's pruning does);</li>
 *   <li>{@code x-kubernetes-preserve-unknown-fields: true} keeps unknown fields (declared ones are still pruned);</li>
 *   <li>{@code apiVersion}, {@code kind} and {@code metadata} are kept at the root and in
 *       {@code x-kubernetes-embedded-resource} objects; the root always counts as an embedded resource;</li>
 *   <li>array items are pruned by {@code items}; scalars are never touched.</li>
 * </ul>
 *
 * <p>Works in place on a private copy. Metadata itself is not pruned here but coerced by {@link ObjectMetaFields}.
 */
public final class Pruning {

  private static final Set<String> META_FIELDS = Set.of("apiVersion", "kind", "metadata");

  private Pruning() {}

  /**
   * Prunes a whole custom resource.
   *
   * @param object the object (modified)
   * @param schema its version's schema ({@code null}: the empty schema)
   */
  public static void pruneResource(ObjectNode object, Schema schema) {
    prune(object, schema == null ? Schema.parse(null) : schema, true);
  }

  /**
   * Prunes a value below the root (also used for schema defaults, which kube prunes when the CRD is read).
   *
   * @param value the value (modified)
   * @param schema its schema, or {@code null} (everything unknown)
   */
  public static void prune(JsonNode value, Schema schema) {
    prune(value, schema, false);
  }

  private static void prune(JsonNode value, Schema schema, boolean embedded) {
    if (schema != null && schema.preserveUnknownFields()) {
      skipPrune(value, schema, embedded || schema.embeddedResource());
      return;
    }
    if (value instanceof ObjectNode object) {
      if (schema == null) {
        object.removeAll();
        return;
      }
      boolean keepMeta = embedded || schema.embeddedResource();
      List<String> remove = new ArrayList<>();
      object.properties().forEach(field -> {
        String key = field.getKey();
        if (keepMeta && META_FIELDS.contains(key)) {
          return;
        }
        Schema property = schema.properties().get(key);
        if (property != null) {
          prune(field.getValue(), property, false);
        } else if (schema.additionalPropertiesDeclared()) {
          prune(field.getValue(), schema.additionalProperties(), false);
        } else {
          remove.add(key);
        }
      });
      object.remove(remove);
    } else if (value instanceof ArrayNode array) {
      for (JsonNode item : array) {
        prune(item, schema == null ? null : schema.items(), false);
      }
    }
  }

  /** Under {@code x-kubernetes-preserve-unknown-fields}: unknown fields stay, known ones are pruned by schema. */
  private static void skipPrune(JsonNode value, Schema schema, boolean keepMeta) {
    if (value instanceof ObjectNode object) {
      object.properties().forEach(field -> {
        if (keepMeta && META_FIELDS.contains(field.getKey())) {
          return;
        }
        Schema property = schema.properties().get(field.getKey());
        if (property != null) {
          prune(field.getValue(), property, false);
        } else if (schema.additionalPropertiesDeclared()) {
          prune(field.getValue(), schema.additionalProperties(), false);
        }
      });
    } else if (value instanceof ArrayNode array && schema.items() != null) {
      // kube walks the items of a preserved array with the same rule: their unknown fields stay too
      for (JsonNode item : array) {
        skipPrune(item, schema.items(), schema.items().embeddedResource());
      }
    }
  }
}
