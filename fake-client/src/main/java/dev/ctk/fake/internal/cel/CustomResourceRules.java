package dev.ctk.fake.internal.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.schema.Schema;
import dev.ctk.fake.internal.schema.SchemaError;
import dev.ctk.fake.internal.version.KubeMinor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CRD validation rules ({@code x-kubernetes-validations}) of one CRD version's schema, compiled once and
 * evaluated on every write of its custom resources as kube-apiserver does, after the OpenAPI checks.
 *
 * <pre>{@code
 * CustomResourceRules rules = CustomResourceRules.of(openApiV3Schema);
 * List<SchemaError> errors = rules.validateUpdate(next, current);
 * }</pre>
 *
 * <p>Compiled rules are cached per schema (by content), so the CRD's every registration compiles them once. Immutable
 * and thread-safe.
 */
public final class CustomResourceRules {

  private static final int CACHE_SIZE = 256;
  private static final Map<JsonNode, CustomResourceRules> CACHE = new LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<JsonNode, CustomResourceRules> eldest) {
      return size() > CACHE_SIZE;
    }
  };

  private static final CustomResourceRules NONE = new CustomResourceRules(null, null);

  private final Schema root;
  private final RuleNode rules;

  private CustomResourceRules(Schema root, RuleNode rules) {
    this.root = root;
    this.rules = rules;
  }

  /**
   * The compiled rules of a schema.
   *
   * @param openApiV3Schema the version's {@code openAPIV3Schema} (not modified)
   * @return the rules (empty when the schema declares none)
   */
  public static CustomResourceRules of(JsonNode openApiV3Schema) {
    if (openApiV3Schema == null || !openApiV3Schema.isObject() || !hasRules(openApiV3Schema)) {
      return NONE;
    }
    synchronized (CACHE) {
      CustomResourceRules cached = CACHE.get(openApiV3Schema);
      if (cached != null) {
        return cached;
      }
    }
    Schema root = Schema.parse(openApiV3Schema);
    CustomResourceRules compiled = new CustomResourceRules(root, RuleNode.of(root, true));
    synchronized (CACHE) {
      CACHE.put(openApiV3Schema.deepCopy(), compiled);
    }
    return compiled;
  }

  private static boolean hasRules(JsonNode node) {
    if (node.isObject() && node.has("x-kubernetes-validations")) {
      return true;
    }
    for (JsonNode child : node) {
      if (child.isContainerNode() && hasRules(child)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the schema declares no rule at all (kube then runs no CEL step). */
  public boolean isEmpty() {
    return rules == null;
  }

  /**
   * kube's error when earlier errors (a wrong type, a missing required field, an unsupported enum value, a value too
   * long, too many items) keep the rules from being evaluated.
   */
  public static SchemaError notChecked() {
    String detail = ": some validation rules were not checked because the object was invalid; correct the existing "
        + "errors to complete validation";
    // 1.34 prints the nil value as JSON (null), earlier minors as the quoted string "null"
    return new SchemaError("FieldValueInvalid", "<nil>", "Invalid value: \"null\"" + detail)
        .wordedFrom(KubeMinor.FIELD_VALUES_AS_JSON, "Invalid value: null" + detail);
  }

  /**
   * Whether errors found so far keep kube from evaluating the rules ({@code hasBlockingErr}).
   *
   * @param causeTypes the cause types of the errors found so far
   */
  public static boolean blocks(List<String> causeTypes) {
    return causeTypes.stream().anyMatch(type -> type.equals("FieldValueNotSupported")
        || type.equals("FieldValueRequired") || type.equals("FieldValueTooLong") || type.equals("FieldValueTooMany")
        || type.equals("FieldValueTypeInvalid"));
  }

  /** The rules' errors on a create. */
  public List<SchemaError> validateCreate(JsonNode object) {
    return run(object, null, Correlation.NONE);
  }

  /** The rules' errors on an update: transition rules see the stored object, unchanged values ratchet. */
  public List<SchemaError> validateUpdate(JsonNode object, JsonNode old) {
    return run(object, old, Correlation.root(object, old, root));
  }

  /** The rules' errors on a {@code /status} write: every rule, transition rules too, and no ratcheting. */
  public List<SchemaError> validateStatusUpdate(JsonNode object, JsonNode old) {
    return run(object, old, Correlation.NONE);
  }

  private List<SchemaError> run(JsonNode object, JsonNode old, Correlation ratchet) {
    List<SchemaError> out = new ArrayList<>();
    if (rules != null) {
      rules.validate(object, old, null, ratchet, out);
    }
    return out;
  }

  /** The rule tree, for the CRD's own checks. */
  RuleNode tree() {
    return rules;
  }
}
