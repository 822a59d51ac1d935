package dev.ctk.fake.internal.patch;

import dev.ctk.fake.internal.status.GoText;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Kubernetes strategic merge patch ({@code application/strategic-merge-patch+json}) for built-in
 * kinds, applied as kube-apiserver applies it.
 *
 * <p>Maps merge recursively and {@code null} deletes a key. Lists whose field has
 * {@code patchStrategy: merge} in {@link PatchSchema} merge by their merge key (containers by
 * {@code name}, container ports by {@code containerPort}, Service ports by {@code port}, ...) or, for
 * lists of primitives such as {@code finalizers}, as a set; every other list is replaced. Directives:
 *
 * <ul>
 *   <li>{@code $patch: replace} on a map replaces it; as a list element, replaces the whole list with
 *       the other elements;
 *   <li>{@code $patch: delete} on a map empties it; as a list element, removes the elements with that
 *       merge key;
 *   <li>{@code $patch: merge} is rejected as kube rejects it ("merging lists cannot yet be specified
 *       in the patch" in a list, "unknown patch type" in a map), as is any other {@code $patch} value;
 *   <li>{@code $retainKeys: [..]} drops the map's other keys (400 if the patch sets a key not listed);
 *   <li>{@code $setElementOrder/<field>: [..]} orders the merged list (patch order wins over the
 *       stored order);
 *   <li>{@code $deleteFromPrimitiveList/<field>: [..]} removes values from a list of primitives.
 * </ul>
 *
 * <p>Without {@code $setElementOrder}, elements a patch adds to a merging list come before the
 * stored ones, as in kube. Errors carry kube's status and text: malformed directives answer 400,
 * a list of lists 422, and the errors kube does not classify (unknown {@code $patch} value, an
 * element without its merge key) answer 500 with an empty reason, exactly as kube-apiserver does.
 *
 * <pre>{@code
 * JsonNode patched = StrategicMergePatch.apply(storedDeployment,
 *     json("{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\"nginx:1.27\"}]}}}}"),
 *     PatchSchema.forType("Deployment"));
 * }</pre>
 *
 * @since 0.1.0
 */
public final class StrategicMergePatch {

  static final String DIRECTIVE = "$patch";
  static final String REPLACE = "replace";
  static final String DELETE = "delete";
  static final String MERGE = "merge";
  static final String RETAIN_KEYS = "$retainKeys";
  static final String SET_ELEMENT_ORDER = "$setElementOrder";
  static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList";

  private StrategicMergePatch() {}

  /**
   * Applies a strategic merge patch.
   *
   * @param target the stored object, never mutated
   * @param patch the patch ({@code null} applies nothing)
   * @param schema merge metadata of the object's kind, from {@link PatchSchema#forType}
   * @return the patched copy
   * @throws PatchException if the patch is malformed or cannot be applied (see class doc)
   */
  public static JsonNode apply(JsonNode target, JsonNode patch, PatchSchema schema) throws PatchException {
    if (patch == null || patch.isNull() || patch.isMissingNode()) {
      return target.deepCopy();
    }
    if (!patch.isObject()) {
      throw PatchException.badRequest(
          "json: cannot unmarshal " + GoText.jsonKind(patch) + " into Go value of type map[string]interface {}");
    }
    ObjectNode original = target.isObject() ? ((ObjectNode) target).deepCopy() : objectNode();
    return mergeMap(original, ((ObjectNode) patch).deepCopy(), schema == null ? PatchSchema.empty() : schema);
  }

  /** Merges {@code patch} into {@code original}; both may be changed. */
  static ObjectNode mergeMap(ObjectNode original, ObjectNode patch, PatchSchema schema) {
    JsonNode directive = patch.get(DIRECTIVE);
    if (directive != null) {
      return mapDirective(directive, patch);
    }
    applyRetainKeys(original, patch);
    ListMerge.applySetElementOrder(original, patch, schema);
    List<String> keys = new ArrayList<>();
    patch.fieldNames().forEachRemaining(keys::add);
    for (String key : keys) {
      JsonNode value = patch.get(key);
      String field = key;
      boolean deleteList = key.startsWith(DELETE_FROM_PRIMITIVE_LIST);
      if (deleteList) {
        field = extractKey(key, DELETE_FROM_PRIMITIVE_LIST, "invalid patch format of primitive list");
      } else if (key.startsWith("$")) {
        continue; // not a directive: an unknown field, which decoding into the Go type drops
      }
      if (value.isNull()) {
        original.remove(field);
        continue;
      }
      JsonNode current = original.get(field);
      boolean sameShape = current != null
          && ((current.isObject() && value.isObject()) || (current.isArray() && value.isArray()));
      if (!sameShape) {
        if (!deleteList) {
          put(original, field, newValue(value));
        }
      } else if (current.isObject()) {
        original.set(field, schema.replacesMap(field)
            ? decoded(value)
            : mergeMap((ObjectNode) current, (ObjectNode) value, schema.child(field)));
      } else if (schema.mergesList(field) || deleteList) {
        original.set(field, ListMerge.merge((ArrayNode) current, (ArrayNode) value,
            schema.child(field), schema.mergeKey(field), deleteList));
      } else {
        original.set(field, decoded(value));
      }
    }
    return original;
  }

  private static ObjectNode mapDirective(JsonNode directive, ObjectNode patch) {
    if (directive.isTextual() && directive.textValue().equals(REPLACE)) {
      patch.remove(DIRECTIVE);
      return (ObjectNode) decoded(patch);
    }
    if (directive.isTextual() && directive.textValue().equals(DELETE)) {
      return objectNode();
    }
    throw badPatchType(directive, patch);
  }

  /** {@code $retainKeys}: validates the patch against the list, then drops unlisted keys. */
  private static void applyRetainKeys(ObjectNode original, ObjectNode patch) {
    JsonNode retained = patch.remove(RETAIN_KEYS);
    if (retained == null) {
      return;
    }
    if (!retained.isArray()) {
      throw PatchException.badRequest("invalid patch format of retainKeys");
    }
    Set<String> keep = new HashSet<>();
    retained.forEach(k -> {
      if (k.isTextual()) {
        keep.add(k.textValue());
      }
    });
    patch.properties().forEach(member -> {
      String key = member.getKey();
      boolean exempt = member.getValue().isNull()
          || key.startsWith(DELETE_FROM_PRIMITIVE_LIST)
          || key.startsWith(SET_ELEMENT_ORDER);
      if (!exempt && !keep.contains(key)) {
        throw PatchException.badRequest("invalid patch format of retainKeys");
      }
    });
    List<String> drop = new ArrayList<>();
    original.fieldNames().forEachRemaining(key -> {
      if (!keep.contains(key)) {
        drop.add(key);
      }
    });
    original.remove(drop);
  }

  /** The field a {@code $prefix/field} directive key names; 400 with {@code error} when malformed. */
  static String extractKey(String key, String prefix, String error) {
    int slash = key.indexOf('/');
    if (slash < 0 || !key.substring(0, slash).equals(prefix)) {
      throw PatchException.badRequest(error);
    }
    return key.substring(slash + 1);
  }

  private static void put(ObjectNode target, String field, JsonNode value) {
    if (value == null) {
      target.remove(field);
    } else {
      target.set(field, value);
    }
  }

  /**
   * A patch value for a key the stored object does not have (or has with another type): without
   * {@code null} members, and without maps or list elements that carry a {@code $patch} directive,
   * as kube does; {@code null} when the value itself carries one (the key is then dropped).
   */
  static JsonNode newValue(JsonNode value) {
    if (value.isObject()) {
      if (value.has(DIRECTIVE)) {
        return null;
      }
      ObjectNode copy = objectNode();
      value.properties().forEach(member -> {
        if (!member.getKey().startsWith("$") && !member.getValue().isNull()) {
          JsonNode child = newValue(member.getValue());
          if (child != null) {
            copy.set(member.getKey(), child);
          }
        }
      });
      return copy;
    }
    if (value.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode();
      for (JsonNode element : value) {
        JsonNode child = newValue(element);
        if (child != null) {
          copy.add(child);
        }
      }
      return copy;
    }
    return value.deepCopy();
  }

  /**
   * A patch value taken as it is, as the Go types would decode it: {@code null} members and
   * {@code $}-prefixed keys (directives, never API fields) are gone.
   */
  static JsonNode decoded(JsonNode value) {
    if (value.isObject()) {
      ObjectNode copy = objectNode();
      value.properties().forEach(member -> {
        if (!member.getKey().startsWith("$") && !member.getValue().isNull()) {
          copy.set(member.getKey(), decoded(member.getValue()));
        }
      });
      return copy;
    }
    if (value.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode();
      value.forEach(element -> copy.add(decoded(element)));
      return copy;
    }
    return value.deepCopy();
  }

  /** kube's {@code ErrBadPatchType}: {@code unknown patch type: %s in map: %v}, unclassified (500). */
  static PatchException badPatchType(JsonNode directive, JsonNode map) {
    String shown = directive.isTextual()
        ? directive.textValue()
        : "%!s(" + GoText.typeName(directive) + "=" + GoText.value(directive) + ")";
    return PatchException.unclassified("unknown patch type: " + shown + " in map: " + GoText.value(map));
  }

  static ObjectNode objectNode() {
    return JsonNodeFactory.instance.objectNode();
  }
}
