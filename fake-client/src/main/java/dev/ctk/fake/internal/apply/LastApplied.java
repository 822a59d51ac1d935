package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.status.GoText;

/**
 * kube's bridge between client-side {@code kubectl apply} (the {@code last-applied-configuration} annotation) and
 * server-side apply, active only for the field manager {@code kubectl}:
 * <ul>
 *   <li>conflicts on fields the annotation holds with the live value are not conflicts (the object is being
 *       upgraded from client-side to server-side apply);
 *   <li>after the apply, an object that has the annotation gets the applied configuration in it.
 * </ul>
 */
final class LastApplied {

  static final String ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";
  static final String KUBECTL = "kubectl";
  private static final ObjectMapper JSON = new ObjectMapper();

  private LastApplied() {}

  /**
   * The fields the live object's annotation holds with the live value, which kubectl may take over without a
   * conflict.
   *
   * @return the fields, or {@code null} when the object has no usable annotation (for another apiVersion, malformed)
   */
  static FieldSet allowedConflicts(JsonNode live, String apiVersion, FieldType type) {
    String text = annotation(live);
    if (text == null) {
      return null;
    }
    JsonNode lastApplied;
    try {
      lastApplied = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      return null;
    }
    if (lastApplied == null || !lastApplied.isObject()
        || !apiVersion.equals(lastApplied.path("apiVersion").asText())) {
      return null;
    }
    Comparison differences = Comparison.of(lastApplied, live, type);
    return FieldSets.of(lastApplied, type).difference(differences.modified()).difference(differences.added())
        .difference(differences.removed());
  }

  /** Whether the object carries a non-empty annotation. */
  static boolean has(JsonNode object) {
    return annotation(object) != null;
  }

  /** Puts the applied configuration, without the annotation itself, into the object's annotation. */
  static void record(ObjectNode object, JsonNode config) {
    ObjectNode copy = config.deepCopy();
    if (copy.path("metadata").path("annotations") instanceof ObjectNode annotations) {
      annotations.remove(ANNOTATION);
    }
    if (object.path("metadata").path("annotations") instanceof ObjectNode annotations) {
      annotations.put(ANNOTATION, GoText.jsonText(copy) + "\n");
    }
  }

  private static String annotation(JsonNode object) {
    JsonNode value = object == null ? null : object.path("metadata").path("annotations").get(ANNOTATION);
    return value == null || !value.isTextual() || value.asText().isEmpty() ? null : value.asText();
  }
}
