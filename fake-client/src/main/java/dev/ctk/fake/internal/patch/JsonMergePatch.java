package dev.ctk.fake.internal.patch;

import dev.ctk.fake.internal.status.GoText;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JSON merge patch (RFC 7386, {@code application/merge-patch+json}) as kube-apiserver applies it.
 *
 * <p>Objects merge recursively, {@code null} removes a member, arrays and scalars replace what was
 * there. Values taken from the patch lose their {@code null} members (also inside arrays), as the
 * JSON-patch library kube-apiserver uses does. Unlike plain RFC 7386, a patch document that is not
 * an object is rejected with 400 as kube-apiserver does (it decodes the patch into a map first); a
 * target that is not an object is treated as {@code {}}.
 *
 * <pre>{@code
 * JsonNode patched = JsonMergePatch.apply(storedConfigMap, json("{\"data\":{\"a\":null,\"b\":\"2\"}}"));
 * }</pre>
 *
 * @since 0.1.0
 */
public final class JsonMergePatch {

  private JsonMergePatch() {}

  /**
   * Applies a JSON merge patch.
   *
   * @param target the stored object, never mutated
   * @param patch the merge patch
   * @return the patched copy
   * @throws PatchException 400 when {@code patch} is not a JSON object
   */
  public static JsonNode apply(JsonNode target, JsonNode patch) {
    if (patch == null || patch.isNull() || patch.isMissingNode()) {
      throw PatchException.badRequest("Invalid JSON Patch");
    }
    if (!patch.isObject()) {
      throw PatchException.badRequest(
          "error decoding patch: json: cannot unmarshal "
              + GoText.jsonKind(patch)
              + " into Go value of type map[string]interface {}");
    }
    ObjectNode result =
        target != null && target.isObject()
            ? ((ObjectNode) target).deepCopy()
            : JsonNodeFactory.instance.objectNode();
    mergeInto(result, (ObjectNode) patch);
    return result;
  }

  private static void mergeInto(ObjectNode doc, ObjectNode patch) {
    List<Map.Entry<String, JsonNode>> members = new ArrayList<>();
    members.addAll(patch.properties());
    for (Map.Entry<String, JsonNode> member : members) {
      String key = member.getKey();
      JsonNode value = member.getValue();
      JsonNode current = doc.get(key);
      if (value.isNull()) {
        doc.remove(key);
      } else if (current != null && current.isObject() && value.isObject()) {
        mergeInto((ObjectNode) current, (ObjectNode) value);
      } else {
        doc.set(key, withoutNullMembers(value));
      }
    }
  }

  /** A deep copy of {@code value} without {@code null} object members at any depth. */
  static JsonNode withoutNullMembers(JsonNode value) {
    if (value.isObject()) {
      ObjectNode copy = JsonNodeFactory.instance.objectNode();
      value.properties().forEach(e -> {
        if (!e.getValue().isNull()) {
          copy.set(e.getKey(), withoutNullMembers(e.getValue()));
        }
      });
      return copy;
    }
    if (value.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode();
      value.forEach(element -> copy.add(withoutNullMembers(element)));
      return copy;
    }
    return value.deepCopy();
  }
}
