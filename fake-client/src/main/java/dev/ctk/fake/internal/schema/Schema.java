package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One node of a CRD's structural OpenAPI v3 schema ({@code spec.versions[*].schema.openAPIV3Schema}), read once when
 * the CRD is installed: what pruning, defaulting and validation need, nothing else.
 *
 * <pre>{@code
 * Schema root = Schema.parse(crdVersion.path("schema").path("openAPIV3Schema"));
 * root.property("spec").map(Schema::types);   // [object]
 * }</pre>
 *
 * <p>Immutable. Keywords the fake does not evaluate ({@code allOf}, {@code anyOf}, {@code oneOf}, {@code not},
 * {@code uniqueItems}) are ignored; see the package documentation. {@code x-kubernetes-validations} and
 * {@code x-kubernetes-map-type} are kept as written for the CEL rules ({@code dev.ctk.fake.internal.cel}).
 */
public final class Schema {

  private final List<String> types;
  private final boolean nullable;
  private final boolean intOrString;
  private final boolean preserveUnknownFields;
  private final boolean embeddedResource;
  private final Map<String, Schema> properties;
  private final Schema additionalProperties;
  private final boolean additionalPropertiesDeclared;
  private final boolean additionalPropertiesForbidden;
  private final Schema items;
  private final List<String> required;
  private final List<JsonNode> enumValues;
  private final BigDecimal minimum;
  private final BigDecimal maximum;
  private final boolean exclusiveMinimum;
  private final boolean exclusiveMaximum;
  private final BigDecimal multipleOf;
  private final Long minLength;
  private final Long maxLength;
  private final Long minItems;
  private final Long maxItems;
  private final Long minProperties;
  private final Long maxProperties;
  private final String pattern;
  private final Pattern compiledPattern;
  private final String format;
  private final JsonNode defaultValue;
  private final String listType;
  private final List<String> listMapKeys;
  private final String mapType;
  private final JsonNode validationRules;

  private Schema(JsonNode node) {
    List<String> t = new ArrayList<>();
    JsonNode type = node.path("type");
    if (type.isTextual() && !type.asText().isEmpty()) {
      t.add(type.asText());
    }
    this.intOrString = node.path("x-kubernetes-int-or-string").asBoolean(false);
    if (intOrString) {
      t.clear();
      t.add("integer");
      t.add("string");
    }
    this.types = List.copyOf(t);
    this.nullable = node.path("nullable").asBoolean(false);
    this.preserveUnknownFields = node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    this.embeddedResource = node.path("x-kubernetes-embedded-resource").asBoolean(false);
    Map<String, Schema> props = new LinkedHashMap<>();
    node.path("properties").properties().forEach(e -> props.put(e.getKey(), new Schema(e.getValue())));
    this.properties = Collections.unmodifiableMap(props);
    JsonNode additional = node.get("additionalProperties");
    this.additionalPropertiesDeclared = additional != null && !additional.isNull();
    this.additionalPropertiesForbidden = additional != null && additional.isBoolean() && !additional.asBoolean();
    this.additionalProperties = additional != null && additional.isObject() ? new Schema(additional) : null;
    JsonNode itemsNode = node.get("items");
    this.items = itemsNode != null && itemsNode.isObject() ? new Schema(itemsNode) : null;
    List<String> req = new ArrayList<>();
    node.path("required").forEach(r -> req.add(r.asText()));
    this.required = List.copyOf(req);
    List<JsonNode> en = new ArrayList<>();
    JsonNode enumNode = node.get("enum");
    if (enumNode != null && enumNode.isArray()) {
      enumNode.forEach(en::add);
    }
    this.enumValues = Collections.unmodifiableList(en);
    this.minimum = decimal(node.get("minimum"));
    this.maximum = decimal(node.get("maximum"));
    this.exclusiveMinimum = node.path("exclusiveMinimum").asBoolean(false);
    this.exclusiveMaximum = node.path("exclusiveMaximum").asBoolean(false);
    this.multipleOf = decimal(node.get("multipleOf"));
    this.minLength = integer(node.get("minLength"));
    this.maxLength = integer(node.get("maxLength"));
    this.minItems = integer(node.get("minItems"));
    this.maxItems = integer(node.get("maxItems"));
    this.minProperties = integer(node.get("minProperties"));
    this.maxProperties = integer(node.get("maxProperties"));
    String p = node.path("pattern").asText("");
    this.pattern = p.isEmpty() ? null : p;
    this.compiledPattern = compile(this.pattern);
    String f = node.path("format").asText("");
    this.format = f.isEmpty() ? null : f;
    String lt = node.path("x-kubernetes-list-type").asText("");
    this.listType = lt.isEmpty() ? null : lt;
    List<String> keys = new ArrayList<>();
    node.path("x-kubernetes-list-map-keys").forEach(k -> keys.add(k.asText()));
    this.listMapKeys = List.copyOf(keys);
    String mt = node.path("x-kubernetes-map-type").asText("");
    this.mapType = mt.isEmpty() ? null : mt;
    JsonNode rules = node.get("x-kubernetes-validations");
    this.validationRules = rules != null && rules.isArray() ? rules.deepCopy()
        : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
    // last: pruning the default (as kube does when it reads the CRD) reads the fields set above
    JsonNode def = node.get("default");
    this.defaultValue = def == null ? null : prunedDefault(def.deepCopy());
  }

  private JsonNode prunedDefault(JsonNode value) {
    Pruning.prune(value, this);
    return value;
  }

  /**
   * Reads a schema.
   *
   * @param openApiV3Schema the {@code openAPIV3Schema} node; a missing or non-object node gives the empty schema
   *     (which, at the root, prunes everything but apiVersion, kind and metadata)
   * @return the schema
   */
  public static Schema parse(JsonNode openApiV3Schema) {
    return new Schema(openApiV3Schema == null || !openApiV3Schema.isObject()
        ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode() : openApiV3Schema);
  }

  /** The declared types: one, none (any) or {@code [integer, string]} for {@code x-kubernetes-int-or-string}. */
  public List<String> types() {
    return types;
  }

  public boolean nullable() {
    return nullable;
  }

  public boolean intOrString() {
    return intOrString;
  }

  public boolean preserveUnknownFields() {
    return preserveUnknownFields;
  }

  public boolean embeddedResource() {
    return embeddedResource;
  }

  public Map<String, Schema> properties() {
    return properties;
  }

  /** A declared property. */
  public java.util.Optional<Schema> property(String name) {
    return java.util.Optional.ofNullable(properties.get(name));
  }

  /** The schema of {@code additionalProperties}, or {@code null} (absent, or a boolean). */
  public Schema additionalProperties() {
    return additionalProperties;
  }

  /** Whether {@code additionalProperties} is present at all (a schema or {@code true}). */
  public boolean additionalPropertiesDeclared() {
    return additionalPropertiesDeclared;
  }

  /** Whether {@code additionalProperties: false}. */
  public boolean additionalPropertiesForbidden() {
    return additionalPropertiesForbidden;
  }

  public Schema items() {
    return items;
  }

  public List<String> required() {
    return required;
  }

  public List<JsonNode> enumValues() {
    return enumValues;
  }

  public BigDecimal minimum() {
    return minimum;
  }

  public BigDecimal maximum() {
    return maximum;
  }

  public boolean exclusiveMinimum() {
    return exclusiveMinimum;
  }

  public boolean exclusiveMaximum() {
    return exclusiveMaximum;
  }

  public BigDecimal multipleOf() {
    return multipleOf;
  }

  public Long minLength() {
    return minLength;
  }

  public Long maxLength() {
    return maxLength;
  }

  public Long minItems() {
    return minItems;
  }

  public Long maxItems() {
    return maxItems;
  }

  public Long minProperties() {
    return minProperties;
  }

  public Long maxProperties() {
    return maxProperties;
  }

  /** The pattern as written in the CRD (ECMA syntax), or {@code null}. */
  public String pattern() {
    return pattern;
  }

  /** The pattern compiled for Java, or {@code null} when absent or not compilable. */
  Pattern compiledPattern() {
    return compiledPattern;
  }

  public String format() {
    return format;
  }

  /** The default (a private copy is made by whoever applies it), or {@code null}. */
  public JsonNode defaultValue() {
    return defaultValue;
  }

  /** {@code x-kubernetes-list-type}, or {@code null}. */
  public String listType() {
    return listType;
  }

  public List<String> listMapKeys() {
    return listMapKeys;
  }

  /** {@code x-kubernetes-map-type} ({@code granular} or {@code atomic}), or {@code null}. */
  public String mapType() {
    return mapType;
  }

  /**
   * {@code x-kubernetes-validations} as written in the CRD (an empty array when absent). Read only: callers must
   * not modify it.
   */
  public JsonNode validationRules() {
    return validationRules;
  }

  /** The schema for a map key or object property: the property's own, else additionalProperties' (or null). */
  Schema fieldSchema(String field) {
    Schema property = properties.get(field);
    return property != null ? property : additionalProperties;
  }

  private static BigDecimal decimal(JsonNode node) {
    return node != null && node.isNumber() ? node.decimalValue() : null;
  }

  private static Long integer(JsonNode node) {
    return node != null && node.isNumber() ? node.asLong() : null;
  }

  private static Pattern compile(String pattern) {
    if (pattern == null) {
      return null;
    }
    try {
      return Pattern.compile(pattern);
    } catch (PatternSyntaxException e) {
      return null;
    }
  }
}
