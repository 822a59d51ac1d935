package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What decoding {@code metadata} into kube's {@code ObjectMeta} does to a custom resource's metadata (at the root and
 * in {@code x-kubernetes-embedded-resource} objects): fields {@code ObjectMeta} does not have are dropped, and fields
 * Go omits when empty ({@code omitempty}: empty strings, zero numbers, empty maps and lists) disappear. In embedded
 * resources a null {@code creationTimestamp} is removed as well.
 *
 * <p>Limits: the fields inside {@code ownerReferences} and {@code managedFields} entries are kept as sent; a field of
 * the wrong type is kept too (kube answers 400 for it).
 */
public final class ObjectMetaFields {

  /** The JSON names of kube's {@code metav1.ObjectMeta} fields. */
  static final Set<String> OBJECT_META = Set.of("name", "generateName", "namespace", "selfLink", "uid",
      "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
      "labels", "annotations", "ownerReferences", "finalizers", "managedFields");

  /** Pointer fields: kept when zero (Go omits only nil pointers). */
  private static final Set<String> POINTERS = Set.of("deletionTimestamp", "deletionGracePeriodSeconds",
      "creationTimestamp");

  private ObjectMetaFields() {}

  /**
   * Coerces the root metadata and that of every embedded resource the schema declares.
   *
   * @param object the custom resource (modified)
   * @param schema its schema, or {@code null}
   */
  public static void coerce(ObjectNode object, Schema schema) {
    coerceMetadata(object, false);
    if (schema != null) {
      walk(object, schema, true);
    }
  }

  private static void walk(JsonNode value, Schema schema, boolean root) {
    if (schema == null) {
      return;
    }
    if (value instanceof ObjectNode object) {
      if (schema.embeddedResource() && !root) {
        coerceMetadata(object, true);
      }
      object.properties().forEach(field -> {
        if (root && field.getKey().equals("metadata")) {
          return;
        }
        walk(field.getValue(), schema.fieldSchema(field.getKey()), false);
      });
    } else if (value instanceof ArrayNode array) {
      for (JsonNode item : array) {
        walk(item, schema.items(), false);
      }
    }
  }

  private static void coerceMetadata(ObjectNode object, boolean embedded) {
    if (!(object.get("metadata") instanceof ObjectNode meta)) {
      return;
    }
    List<String> remove = new ArrayList<>();
    meta.properties().forEach(field -> {
      String key = field.getKey();
      JsonNode v = field.getValue();
      if (!OBJECT_META.contains(key) || (!POINTERS.contains(key) && empty(v))) {
        remove.add(key);
      }
    });
    meta.remove(remove);
    if (embedded && meta.has("creationTimestamp") && meta.get("creationTimestamp").isNull()) {
      meta.remove("creationTimestamp");
    }
  }

  private static boolean empty(JsonNode v) {
    return v.isNull() || (v.isTextual() && v.asText().isEmpty()) || (v.isNumber() && v.asDouble() == 0)
        || (v.isContainerNode() && v.isEmpty());
  }
}
