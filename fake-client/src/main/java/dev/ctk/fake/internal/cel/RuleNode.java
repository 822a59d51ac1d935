package dev.ctk.fake.internal.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.runtime.CelEvaluationException;
import dev.ctk.fake.internal.schema.Schema;
import dev.ctk.fake.internal.schema.SchemaError;
import dev.ctk.fake.internal.status.GoText;
import dev.ctk.fake.internal.version.KubeMinor;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The compiled rules of one schema node and of the nodes below it that have rules, evaluated as kube's
 * {@code cel.Validator} evaluates them: rules on the node, then its properties (in the order the object lists them),
 * map values and list items. A null value is not evaluated; a transition rule (one using {@code oldSelf}) only when
 * the value has an old counterpart that is not null (through object fields and {@code x-kubernetes-list-type: map} keys, not through
 * {@code x-kubernetes-map-type: atomic} maps), unless {@code optionalOldSelf}.
 */
final class RuleNode {

  /** kube's {@code MaxEvaluatedMessageExpressionSizeBytes}: a longer evaluated message falls back to the message. */
  private static final int MAX_MESSAGE_BYTES = 5 * 1024;

  private final Schema schema;
  private final boolean resourceRoot;
  private final RuleCompiler.NodeRules rules;
  private final boolean anyUsesOldSelf;
  private final boolean typed;
  private final Map<String, RuleNode> properties;
  private final RuleNode additionalProperties;
  private final RuleNode items;

  private RuleNode(Schema schema, boolean resourceRoot, Map<String, RuleNode> properties,
      RuleNode additionalProperties, RuleNode items) {
    this.schema = schema;
    this.resourceRoot = resourceRoot;
    this.rules = RuleCompiler.compile(schema, resourceRoot);
    this.anyUsesOldSelf = rules.rules().stream().anyMatch(CompiledRule::usesOldSelf);
    this.typed = CelTypes.of(schema, resourceRoot) != null;
    this.properties = properties;
    this.additionalProperties = additionalProperties;
    this.items = items;
  }

  /** The rule tree of a schema node, or {@code null} when neither it nor any node below it has rules. */
  static RuleNode of(Schema schema, boolean resourceRoot) {
    Map<String, RuleNode> properties = new LinkedHashMap<>();
    schema.properties().forEach((name, property) -> {
      RuleNode child = of(property, property.embeddedResource());
      if (child != null) {
        properties.put(name, child);
      }
    });
    Schema values = schema.additionalProperties();
    RuleNode additional = values == null ? null : of(values, values.embeddedResource());
    RuleNode items = schema.items() == null ? null : of(schema.items(), schema.items().embeddedResource());
    if (schema.validationRules().isEmpty() && properties.isEmpty() && additional == null && items == null) {
      return null;
    }
    return new RuleNode(schema, resourceRoot, Map.copyOf(properties), additional, items);
  }

  Schema schema() {
    return schema;
  }

  RuleCompiler.NodeRules rules() {
    return rules;
  }

  RuleNode property(String name) {
    return properties.get(name);
  }

  RuleNode additionalProperties() {
    return additionalProperties;
  }

  RuleNode items() {
    return items;
  }

  /**
   * Evaluates the rules at and below this node.
   *
   * @param value the node's value
   * @param stored its old value, or {@code null} (create, or no correlated old value); a JSON null counts as none
   * @param path the node's field path ({@code null} for the object itself, printed {@code <nil>} as kube does)
   * @param ratchet the update's correlation ({@link Correlation#NONE} when nothing ratchets)
   * @param out where errors go
   */
  void validate(JsonNode value, JsonNode stored, String path, Correlation ratchet, List<SchemaError> out) {
    if (value == null || value.isNull() || !typed) {
      return;
    }
    JsonNode old = stored == null || stored.isNull() ? null : stored;   // a stored null is no old value, as in kube
    evaluate(value, old, path, ratchet, out);
    if (value.isObject()) {
      boolean correlatable = !"atomic".equals(schema.mapType());
      value.properties().forEach(field -> {
        String name = field.getKey();
        JsonNode oldField = correlatable && old != null && old.isObject() ? old.get(name) : null;
        RuleNode property = properties.get(name);
        if (property != null && CelTypes.declared(property.schema)) {
          property.validate(field.getValue(), oldField, child(path, name), ratchet.field(name, property.schema),
              out);
        } else if (property == null && additionalProperties != null && schema.properties().isEmpty()) {
          additionalProperties.validate(field.getValue(), oldField, (path == null ? "" : path) + "[" + name + "]",
              ratchet.field(name, additionalProperties.schema), out);
        }
      });
    } else if (value.isArray() && items != null) {
      for (int i = 0; i < value.size(); i++) {
        JsonNode item = value.get(i);
        items.validate(item, mapListItem(schema, item, old), (path == null ? "" : path) + "[" + i + "]",
            ratchet.item(i, items.schema), out);
      }
    }
  }

  private void evaluate(JsonNode value, JsonNode old, String path, Correlation ratchet, List<SchemaError> out) {
    String type = typeName();
    if (rules.typeError() != null) {
      out.add(invalid(path, type, "rule compiler initialization error: " + rules.typeError()));
      return;
    }
    Map<String, Object> plain = null;
    Map<String, Object> optional = null;
    for (CompiledRule compiled : rules.rules()) {
      ValidationRule rule = compiled.rule();
      if (compiled.error() != null) {
        out.add(invalid(path, type, "rule compile error: " + compiled.error()));
        continue;
      }
      if (compiled.program() == null || compiled.usesOldSelf() && old == null && !rule.optional()) {
        continue;
      }
      Map<String, Object> activation;
      if (rule.optional()) {
        optional = optional != null ? optional : activation(value, old, true);
        activation = optional;
      } else {
        plain = plain != null ? plain : activation(value, old, false);
        activation = plain;
      }
      Object result;
      try {
        result = compiled.program().eval(activation);
      } catch (CelEvaluationException e) {
        out.add(invalid(path, type, EvalErrors.noSuchOverload(e)
            ? "'" + EvalErrors.text(e) + "': call arguments did not match a supported operator, function or macro "
                + "signature for rule: " + rule.errorString()
            : EvalErrors.text(e) + " evaluating rule: " + rule.errorString()));
        continue;
      }
      if (Boolean.TRUE.equals(result)) {
        continue;
      }
      if (!compiled.usesOldSelf() && ratchet.ratchets()) {
        continue;
      }
      String field = compiled.fieldPath().isEmpty() ? path : child(path, compiled.fieldPath());
      // kube evaluates every messageExpression with the plain activation, also an optionalOldSelf rule's
      plain = plain != null ? plain : activation(value, old, false);
      out.add(failure(field, type, value, message(compiled, plain), rule.reason()));
    }
  }

  private Map<String, Object> activation(JsonNode value, JsonNode old, boolean optional) {
    Map<String, Object> activation = new HashMap<>();
    activation.put(RuleEnvironment.SELF, CelValues.of(value, schema, resourceRoot));
    if (optional) {
      activation.put(RuleEnvironment.OLD_SELF, old == null ? Optional.empty()
          : Optional.of(CelValues.of(old, schema, resourceRoot)));
    } else if (old != null && anyUsesOldSelf) {
      // kube binds oldSelf only on a node with a transition rule; elsewhere a messageExpression using it fails
      activation.put(RuleEnvironment.OLD_SELF, CelValues.of(old, schema, resourceRoot));
    }
    return activation;
  }

  /** The evaluated {@code messageExpression}, else the message or {@code failed rule: <rule>}. */
  private static String message(CompiledRule compiled, Map<String, Object> activation) {
    if (compiled.message() != null) {
      try {
        Object text = compiled.message().eval(activation);
        if (text instanceof String s) {
          String trimmed = s.strip();
          if (!trimmed.isEmpty() && !trimmed.contains("\n")
              && trimmed.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= MAX_MESSAGE_BYTES) {
            return trimmed;
          }
        }
      } catch (CelEvaluationException e) {
        // kube logs the failure and falls back to the message
      }
    }
    return compiled.rule().messageOrDefault();
  }

  private static SchemaError failure(String path, String type, JsonNode value, String detail, String reason) {
    String field = path == null ? "<nil>" : path;
    if (reason == null || reason.equals("FieldValueInvalid")) {
      // 1.35 prints a simple value (string, number, bool) as JSON and leaves out anything else, where earlier minors
      // print the schema type (kubernetes/kubernetes#132798, #133832)
      String shown = value.isTextual() ? GoText.jsonString(value.asText())
          : value.isNumber() || value.isBoolean() ? value.toString() : null;
      return invalid(path, type, detail).wordedFrom(KubeMinor.CEL_FAILURE_SHOWS_VALUE,
          "Invalid value: " + (shown == null ? "" : shown + ": ") + detail);
    }
    return switch (reason) {
      case "FieldValueForbidden" -> new SchemaError("FieldValueForbidden", field, "Forbidden: " + detail);
      case "FieldValueRequired" -> new SchemaError("FieldValueRequired", field, "Required value: " + detail);
      case "FieldValueDuplicate" -> new SchemaError("FieldValueDuplicate", field, "Duplicate value: "
          + GoText.quote(type));
      default -> invalid(path, type, detail);
    };
  }

  private static SchemaError invalid(String path, String type, String detail) {
    return new SchemaError("FieldValueInvalid", path == null ? "<nil>" : path, "Invalid value: "
        + GoText.quote(type) + ": " + detail);
  }

  /** kube prints the schema's {@code type} as the invalid value ({@code ""} for int-or-string). */
  private String typeName() {
    return schema.intOrString() || schema.types().isEmpty() ? "" : schema.types().get(0);
  }

  private static String child(String path, String name) {
    return path == null || path.isEmpty() ? name : path + "." + name;
  }

  /** The old item with the same {@code x-kubernetes-list-map-keys} in a map list, else {@code null}. */
  static JsonNode mapListItem(Schema list, JsonNode item, JsonNode oldList) {
    if (list == null || !"map".equals(list.listType()) || oldList == null || !oldList.isArray()
        || list.listMapKeys().isEmpty() || !item.isObject()) {
      return null;
    }
    for (JsonNode candidate : oldList) {
      boolean same = candidate.isObject();
      for (String key : list.listMapKeys()) {
        same = same && Correlation.equal(item.get(key), candidate.get(key));
      }
      if (same) {
        return candidate;
      }
    }
    return null;
  }
}
