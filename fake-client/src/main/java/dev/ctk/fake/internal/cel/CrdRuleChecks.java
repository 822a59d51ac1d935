package dev.ctk.fake.internal.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.schema.Schema;
import dev.ctk.fake.internal.schema.SchemaError;
import dev.ctk.fake.internal.status.GoText;
import dev.ctk.fake.internal.version.KubeMinor;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What kube-apiserver checks about {@code x-kubernetes-validations} when a CustomResourceDefinition is created or
 * updated, with its paths and texts: each rule is non-empty, its {@code message} non-blank and on one line (and
 * present when the rule spans lines), {@code messageExpression} non-blank, {@code reason} one of the four supported,
 * {@code fieldPath} a valid path; then, when none of those failed at or below a node, each rule and
 * {@code messageExpression} compiles ({@link RuleCompiler}), {@code oldSelf} is not used below an atomic map or in
 * the items of a list that is not {@code x-kubernetes-list-type: map}, and {@code optionalOldSelf} is set only on
 * rules that use {@code oldSelf}.
 *
 * <p>Paths start at {@code spec.validation.openAPIV3Schema} when every version has the same schema (kube moves such a
 * schema to the top level before validating), else at {@code spec.versions[i].schema.openAPIV3Schema}. The first
 * kind of errors comes before the compilation errors, children before their parent, as kube lists them.
 */
public final class CrdRuleChecks {

  private static final Set<String> REASONS = Set.of("FieldValueRequired", "FieldValueForbidden",
      "FieldValueInvalid", "FieldValueDuplicate");

  private final List<SchemaError> schemaErrors = new ArrayList<>();
  private final List<SchemaError> celErrors = new ArrayList<>();

  private CrdRuleChecks() {}

  /**
   * Checks the rules of every version of a CRD.
   *
   * @param crdSpec the CRD's {@code spec}
   * @return the field errors, in kube's order (empty when every rule is fine)
   */
  public static List<SchemaError> check(JsonNode crdSpec) {
    CrdRuleChecks checks = new CrdRuleChecks();
    JsonNode versions = crdSpec.path("versions");
    boolean identical = true;
    for (JsonNode version : versions) {
      identical &= version.path("schema").equals(versions.path(0).path("schema"));
    }
    if (identical && versions.size() > 0) {
      checks.version(versions.get(0).path("schema").path("openAPIV3Schema"), "spec.validation.openAPIV3Schema");
    } else {
      for (int i = 0; i < versions.size(); i++) {
        checks.version(versions.get(i).path("schema").path("openAPIV3Schema"),
            "spec.versions[" + i + "].schema.openAPIV3Schema");
      }
    }
    List<SchemaError> out = new ArrayList<>(checks.schemaErrors);
    out.addAll(checks.celErrors);
    return out;
  }

  private void version(JsonNode openApi, String path) {
    RuleNode tree = CustomResourceRules.of(openApi).tree();
    if (tree != null) {
      node(tree, path, null);
    }
  }

  /** Checks a node: its children first, then its own rules (compiled only when nothing at or below is malformed). */
  private void node(RuleNode node, String path, String uncorrelatable) {
    Schema schema = node.schema();
    int before = schemaErrors.size();
    if (node.additionalProperties() != null) {
      node(node.additionalProperties(), path + ".additionalProperties", uncorrelatable);
    }
    String forProperties = uncorrelatable == null && "atomic".equals(schema.mapType()) ? path : uncorrelatable;
    schema.properties().keySet().forEach(name -> {
      RuleNode property = node.property(name);
      if (property != null) {
        node(property, path + ".properties[" + name + "]", forProperties);
      }
    });
    if (node.items() != null) {
      String forItems = uncorrelatable == null && !"map".equals(schema.listType()) ? path : uncorrelatable;
      node(node.items(), path + ".items", forItems);
    }
    JsonNode raw = schema.validationRules();
    for (int i = 0; i < raw.size(); i++) {
      ruleShape(ValidationRule.of(raw.get(i)), schema, path + ".x-kubernetes-validations[" + i + "]");
    }
    if (schemaErrors.size() == before && !raw.isEmpty()) {
      compiled(node, path, uncorrelatable);
    }
  }

  private void ruleShape(ValidationRule rule, Schema schema, String at) {
    String message = rule.message().strip();
    if (rule.rule().isBlank()) {
      schemaErrors.add(new SchemaError("FieldValueRequired", at + ".rule", "Required value: rule is not specified"));
    } else if (!rule.message().isEmpty() && message.isEmpty()) {
      schemaErrors.add(invalid(at + ".message", GoText.quote(rule.message()), "message must be non-empty if specified"));
    } else if (message.contains("\n")) {
      schemaErrors.add(invalid(at + ".message", GoText.quote(rule.message()), "message must not contain line breaks"));
    } else if (rule.rule().strip().contains("\n") && message.isEmpty()) {
      schemaErrors.add(new SchemaError("FieldValueRequired", at + ".message",
          "Required value: message must be specified if rule contains line breaks"));
    }
    if (!rule.messageExpression().isEmpty() && rule.messageExpression().isBlank()) {
      schemaErrors.add(new SchemaError("FieldValueRequired", at + ".messageExpression",
          "Required value: messageExpression must be non-empty if specified"));
    }
    if (rule.reason() != null && !REASONS.contains(rule.reason())) {
      schemaErrors.add(new SchemaError("FieldValueNotSupported", at + ".reason", "Unsupported value: "
          + GoText.quote(rule.reason()) + ": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", "
          + "\"FieldValueInvalid\", \"FieldValueRequired\""));
    }
    String fieldPath = rule.fieldPath();
    if (!fieldPath.isEmpty() && fieldPath.isBlank()) {
      schemaErrors.add(invalid(at + ".fieldPath", GoText.quote(fieldPath), "fieldPath must be non-empty if specified"));
    }
    if (fieldPath.contains("\n")) {
      schemaErrors.add(invalid(at + ".fieldPath", GoText.quote(fieldPath), "fieldPath must not contain line breaks"));
    }
    if (!fieldPath.isEmpty() && FieldPaths.normalize(fieldPath, schema) == null) {
      schemaErrors.add(invalid(at + ".fieldPath", GoText.quote(fieldPath), "fieldPath must be a valid path"));
    }
  }

  private void compiled(RuleNode node, String path, String uncorrelatable) {
    RuleCompiler.NodeRules rules = node.rules();
    if (rules.typeError() != null) {
      celErrors.add(new SchemaError("InternalError", path + ".x-kubernetes-validations",
          "Internal error: " + rules.typeError()));
      return;
    }
    for (int i = 0; i < rules.rules().size(); i++) {
      CompiledRule compiled = rules.rules().get(i);
      ValidationRule rule = compiled.rule();
      String at = path + ".x-kubernetes-validations[" + i + "]";
      if (compiled.error() != null) {
        celErrors.add(invalid(at + ".rule", rule.goSyntax(), compiled.error())
            .wordedFrom(KubeMinor.FIELD_VALUES_AS_JSON, "Invalid value: " + rule.json() + ": " + compiled.error()));
      }
      if (compiled.messageError() != null) {
        celErrors.add(invalid(at + ".messageExpression", rule.goSyntax(), compiled.messageError())
            .wordedFrom(KubeMinor.FIELD_VALUES_AS_JSON, "Invalid value: " + rule.json() + ": "
                + compiled.messageError()));
      }
      if (compiled.usesOldSelf()) {
        if (uncorrelatable != null) {
          celErrors.add(invalid(at + ".rule", GoText.quote(rule.rule()), "oldSelf cannot be used on the "
              + "uncorrelatable portion of the schema within " + uncorrelatable));
        }
      } else if (rule.optionalOldSelf() != null) {
        celErrors.add(invalid(at + ".optionalOldSelf", String.valueOf(rule.optionalOldSelf()),
            "may not be set if oldSelf is not used in rule"));
      }
    }
  }

  private static SchemaError invalid(String field, String renderedValue, String detail) {
    return new SchemaError("FieldValueInvalid", field, "Invalid value: " + renderedValue + ": " + detail);
  }
}
