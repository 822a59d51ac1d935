package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The structural-schema rules kube-apiserver enforces when a CustomResourceDefinition is written, for the mistakes a
 * hand-written CRD makes: every specified field, array item and the root need a {@code type} (unless
 * {@code x-kubernetes-int-or-string} or {@code x-kubernetes-preserve-unknown-fields} is set), the root is an
 * {@code object}, an {@code array} has {@code items}, {@code additionalProperties} is not used at the root, and an
 * {@code x-kubernetes-embedded-resource} is an {@code object}. Errors are sorted by their text, as kube sorts them.
 *
 * <p>Limits: a version without any schema is accepted (kube answers {@code schemas are required}); the fake then
 * keeps every field of its objects, as if the root had {@code x-kubernetes-preserve-unknown-fields: true}. The
 * rules about value validations ({@code allOf}, {@code anyOf}, ...), metadata schemas and defaults are not
 * checked; CEL rules are checked by {@code dev.ctk.fake.internal.cel.CrdRuleChecks}.
 */
public final class StructuralChecks {

  private enum Level { ROOT, ITEMS, FIELD }

  private StructuralChecks() {}

  /**
   * Checks every version's schema of a CRD.
   *
   * @param crdSpec the CRD's {@code spec}
   * @return the field errors (paths such as {@code spec.versions[0].schema.openAPIV3Schema.properties[spec].type})
   */
  public static List<SchemaError> check(JsonNode crdSpec) {
    List<SchemaError> out = new ArrayList<>();
    JsonNode versions = crdSpec.path("versions");
    for (int i = 0; i < versions.size(); i++) {
      JsonNode schema = versions.get(i).path("schema").path("openAPIV3Schema");
      if (schema.isObject()) {
        List<SchemaError> errors = new ArrayList<>();
        walk(schema, Level.ROOT, "spec.versions[" + i + "].schema.openAPIV3Schema", errors);
        errors.sort(Comparator.comparing(e -> e.field() + ": " + e.body()));
        out.addAll(errors);
      }
    }
    return out;
  }

  private static void walk(JsonNode s, Level level, String path, List<SchemaError> out) {
    String type = s.path("type").asText("");
    JsonNode items = s.get("items");
    if (type.equals("array") && (items == null || !items.isObject())) {
      out.add(new SchemaError("FieldValueRequired", path + ".items", "Required value: must be specified"));
    }
    if (items != null && items.isObject()) {
      walk(items, Level.ITEMS, path + ".items", out);
    }
    s.path("properties").properties().forEach(p -> walk(p.getValue(), Level.FIELD,
        path + ".properties[" + p.getKey() + "]", out));
    JsonNode additional = s.get("additionalProperties");
    if (additional != null && !additional.isNull()) {
      if (level == Level.ROOT) {
        out.add(new SchemaError("FieldValueForbidden", path + ".additionalProperties",
            "Forbidden: must not be used at the root"));
      }
      if (additional.isObject()) {
        walk(additional, Level.FIELD, path + ".additionalProperties", out);
      }
    }
    boolean embedded = s.path("x-kubernetes-embedded-resource").asBoolean(false);
    boolean intOrString = s.path("x-kubernetes-int-or-string").asBoolean(false);
    boolean preserve = s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    if (embedded && !type.equals("object")) {
      out.add(type.isEmpty()
          ? new SchemaError("FieldValueRequired", path + ".type",
              "Required value: must be object if x-kubernetes-embedded-resource is true")
          : new SchemaError("FieldValueInvalid", path + ".type", "Invalid value: " + GoText.quote(type)
              + ": must be object if x-kubernetes-embedded-resource is true"));
    } else if (type.isEmpty() && !intOrString && !preserve) {
      String detail = switch (level) {
        case ROOT -> "must not be empty at the root";
        case ITEMS -> "must not be empty for specified array items";
        case FIELD -> "must not be empty for specified object fields";
      };
      out.add(new SchemaError("FieldValueRequired", path + ".type", "Required value: " + detail));
    }
    if (level == Level.ROOT && !type.isEmpty() && !type.equals("object")) {
      out.add(new SchemaError("FieldValueInvalid", path + ".type", "Invalid value: " + GoText.quote(type)
          + ": must be object at the root"));
    }
  }
}
