package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;
import java.util.List;

/**
 * kube's checks of a custom resource whose CRD declares the {@code scale} subresource: the value at
 * {@code specReplicasPath} and {@code statusReplicasPath} must be a non-negative int64 no larger than
 * {@code 2147483647} when present, and the value at {@code labelSelectorPath} a string. Field paths are printed as the
 * CRD writes them (with the leading dot), as kube does.
 */
final class ScaleChecks {

  private static final long MAX_INT32 = Integer.MAX_VALUE;

  private ScaleChecks() {}

  /** The desired replica count. */
  static List<SchemaError> spec(JsonNode object, String specReplicasPath) {
    return specReplicasPath == null ? List.of() : replicas(object, specReplicasPath);
  }

  /** The observed replica count and the selector. */
  static List<SchemaError> status(JsonNode object, String statusReplicasPath, String labelSelectorPath) {
    if (statusReplicasPath == null) {
      return List.of();
    }
    List<SchemaError> errors = new java.util.ArrayList<>(replicas(object, statusReplicasPath));
    if (labelSelectorPath != null) {
      Lookup selector = lookup(object, labelSelectorPath);
      if (selector.problem == null && selector.value != null && !selector.value.isTextual()) {
        errors.add(new SchemaError("FieldValueInvalid", labelSelectorPath, "Invalid value: \"\": "
            + accessor(labelSelectorPath, selector.value, "string")));
      } else if (selector.problem != null) {
        errors.add(new SchemaError("FieldValueInvalid", labelSelectorPath, "Invalid value: \"\": "
            + selector.problem));
      }
    }
    return errors;
  }

  private static List<SchemaError> replicas(JsonNode object, String path) {
    Lookup found = lookup(object, path);
    if (found.problem != null) {
      return List.of(new SchemaError("FieldValueInvalid", path, "Invalid value: 0: " + found.problem));
    }
    JsonNode value = found.value;
    if (value == null) {
      return List.of();
    }
    if (!GoText.isInt64(value)) {
      return List.of(new SchemaError("FieldValueInvalid", path, "Invalid value: 0: " + accessor(path, value,
          "int64")));
    }
    long replicas = value.asLong();
    if (replicas < 0) {
      return List.of(new SchemaError("FieldValueInvalid", path, "Invalid value: " + replicas
          + ": should be a non-negative integer"));
    }
    if (replicas > MAX_INT32) {
      return List.of(new SchemaError("FieldValueInvalid", path, "Invalid value: " + replicas
          + ": should be less than or equal to " + MAX_INT32));
    }
    return List.of();
  }

  private record Lookup(JsonNode value, String problem) {
  }

  /** Walks a dotted path as kube's unstructured accessors do: a non-object on the way is an error. */
  private static Lookup lookup(JsonNode object, String path) {
    String[] parts = (path.startsWith(".") ? path.substring(1) : path).split("\\.");
    JsonNode current = object;
    StringBuilder walked = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      walked.append('.').append(parts[i]);
      if (current.isNull()) {
        return new Lookup(null, null);
      }
      if (!current.isObject()) {
        return new Lookup(null, accessor(walked.toString(), current, "map[string]interface{}"));
      }
      JsonNode next = current.get(parts[i]);
      if (next == null) {
        return new Lookup(null, null);
      }
      current = next;
    }
    return new Lookup(current, null);
  }

  private static String accessor(String path, JsonNode value, String expected) {
    return path + " accessor error: " + GoText.crdValue(value) + " is of the type " + GoText.crdTypeName(value)
        + ", expected " + expected;
  }
}
