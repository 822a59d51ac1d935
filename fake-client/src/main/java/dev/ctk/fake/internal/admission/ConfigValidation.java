package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.common.SemanticEquality;
import dev.ctk.fake.internal.status.GoText;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * ConfigMap and Secret rules: at most 1 MiB of values ({@code data} and {@code binaryData} together for a ConfigMap,
 * decoded {@code data} for a Secret), on create and update; once {@code immutable: true} is stored,
 * {@code immutable} cannot be unset and {@code data} / {@code binaryData} (ConfigMap) or {@code data} (Secret;
 * {@code stringData} was already merged into it) cannot change; a Secret's {@code type} never changes.
 */
final class ConfigValidation {

  private static final String IMMUTABLE_WHEN_SET = "field is immutable when `immutable` is set";

  private ConfigValidation() {}

  /** kube's {@code MaxSecretSize}, also a ConfigMap's limit. */
  static final long MAX_SIZE = 1024 * 1024;

  /** {@code ValidateConfigMap}'s size check: the values of {@code data} and {@code binaryData}, at most 1 MiB. */
  static FieldErrors configMap(JsonNode configMap) {
    FieldErrors errors = new FieldErrors();
    long size = 0;
    for (JsonNode value : configMap.path("data")) {
      size += value.asText("").getBytes(StandardCharsets.UTF_8).length;
    }
    for (JsonNode value : configMap.path("binaryData")) {
      size += decodedLength(value.asText(""));
    }
    if (size > MAX_SIZE) {
      errors.tooLong("[]", MAX_SIZE);   // kube names the whole object: field.NewPath("")
    }
    return errors;
  }

  /** {@code ValidateSecret}'s size check: the decoded values of {@code data}, at most 1 MiB. */
  static FieldErrors secret(JsonNode secret) {
    FieldErrors errors = new FieldErrors();
    long size = 0;
    for (JsonNode value : secret.path("data")) {
      size += decodedLength(value.asText(""));
    }
    if (size > MAX_SIZE) {
      errors.tooLong("data", MAX_SIZE);
    }
    return errors;
  }

  private static long decodedLength(String base64) {
    try {
      return Base64.getDecoder().decode(base64).length;
    } catch (IllegalArgumentException e) {
      return base64.length() * 3L / 4;
    }
  }

  static FieldErrors configMapUpdate(JsonNode current, JsonNode next) {
    FieldErrors errors = configMap(next);
    if (current.path("immutable").asBoolean(false)) {
      immutableFlag(next, errors);
      unchanged(current, next, "data", errors);
      unchanged(current, next, "binaryData", errors);
    }
    return errors;
  }

  static FieldErrors secretUpdate(JsonNode current, JsonNode next) {
    FieldErrors errors = secret(next);
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
