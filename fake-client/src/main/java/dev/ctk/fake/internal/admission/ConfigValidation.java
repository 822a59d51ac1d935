package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;
import dev.ctk.fake.internal.store.SemanticEquality;

/**
 * ConfigMap and Secret update rules: once {@code immutable: true} is stored, {@code immutable} cannot be unset and
 * {@code data} / {@code binaryData} (ConfigMap) or {@code data} (Secret; {@code stringData} was already merged into
 * it) cannot change; a Secret's {@code type} never changes.
 */
final class ConfigValidation {

  private static final String IMMUTABLE_WHEN_SET = "field is immutable when `immutable` is set";

  private ConfigValidation() {}

  static FieldErrors configMapUpdate(JsonNode current, JsonNode next) {
    FieldErrors errors = new FieldErrors();
    if (current.path("immutable").asBoolean(false)) {
      immutableFlag(next, errors);
      unchanged(current, next, "data", errors);
      unchanged(current, next, "binaryData", errors);
    }
    return errors;
  }

  static FieldErrors secretUpdate(JsonNode current, JsonNode next) {
    FieldErrors errors = new FieldErrors();
    String type = next.path("type").asText("");
    if (!type.equals(current.path("type").asText(""))) {
      errors.invalidRendered("type", GoText.quote(type), WorkloadValidation.IMMUTABLE);
    }
    if (current.path("immutable").asBoolean(false)) {
      immutableFlag(next, errors);
      unchanged(current, next, "data", errors);
    }
    return errors;
  }

  private static void immutableFlag(JsonNode next, FieldErrors errors) {
    if (!next.path("immutable").asBoolean(false)) {
      errors.forbidden("immutable", IMMUTABLE_WHEN_SET);
    }
  }

  private static void unchanged(JsonNode current, JsonNode next, String field, FieldErrors errors) {
    if (!SemanticEquality.equal(emptyAsMissing(current.path(field)), emptyAsMissing(next.path(field)))) {
      errors.forbidden(field, IMMUTABLE_WHEN_SET);
    }
  }

  /** Go's reflect.DeepEqual tells a nil map from an empty one; JSON clients rarely do: treat both as absent. */
  private static JsonNode emptyAsMissing(JsonNode node) {
    return node.isNull() || (node.isObject() && node.isEmpty())
        ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : node;
  }
}
