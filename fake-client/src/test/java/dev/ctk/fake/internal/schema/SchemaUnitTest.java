package dev.ctk.fake.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pruning, defaulting, validation texts and structural checks, one rule at a time. */
class SchemaUnitTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void pruning_additionalPropertiesTrue_emptiesNestedObjects_preservedArraysKeepUnknownFields() {
    Schema schema = Schema.parse(json("""
        {"type":"object","properties":{
          "loose":{"type":"object","additionalProperties":true},
          "kept":{"type":"array","x-kubernetes-preserve-unknown-fields":true,
                  "items":{"type":"object","properties":{"a":{"type":"object","properties":{}}}}}}}"""));
    ObjectNode object = (ObjectNode) json("""
        {"apiVersion":"x/v1","kind":"X","metadata":{"name":"n"},
         "loose":{"scalar":1,"nested":{"x":1}},
         "kept":[{"unknown":1,"a":{"dropped":1}}],
         "gone":true}""");

    Pruning.pruneResource(object, schema);

    assertThat(object).isEqualTo(json("""
        {"apiVersion":"x/v1","kind":"X","metadata":{"name":"n"},
         "loose":{"scalar":1,"nested":{}},
         "kept":[{"unknown":1,"a":{}}]}"""));
  }

  @Test
  void defaults_reachArrayItemsAndMapValues_butNeverCreateAParent() {
    Schema schema = Schema.parse(json("""
        {"type":"object","properties":{
          "list":{"type":"array","items":{"type":"object","properties":{"port":{"type":"integer","default":80}}}},
          "map":{"type":"object","additionalProperties":{"type":"string","default":"x"}},
          "absent":{"type":"object","properties":{"deep":{"type":"string","default":"d"}}}}}"""));
    ObjectNode object = (ObjectNode) json("{\"list\":[{},{\"port\":81}],\"map\":{\"a\":null,\"b\":\"y\"}}");

    Defaulting.dropNulls(object, schema);
    Defaulting.apply(object, schema);

    assertThat(object).isEqualTo(json("{\"list\":[{\"port\":80},{\"port\":81}],\"map\":{\"a\":\"x\",\"b\":\"y\"}}"));
  }

  @Test
  void formatsMultipleOfAndNumericEnums_useKubesTexts() {
    Schema schema = Schema.parse(json("""
        {"type":"object","properties":{
          "at":{"type":"string","format":"date-time"},
          "id":{"type":"string","format":"uuid"},
          "even":{"type":"integer","multipleOf":2},
          "half":{"type":"number","multipleOf":0.5},
          "level":{"type":"integer","enum":[1,2]},
          "custom":{"type":"string","format":"my-own-format"}}}"""));

    List<SchemaError> errors = SchemaValidator.validate(json("""
        {"at":"yesterday","id":"123e4567-e89b-12d3-a456-426614174000","even":3,"half":0.75,"level":3,
         "custom":"anything"}"""), schema, null, "");

    assertThat(errors).containsExactly(
        new SchemaError("FieldValueTypeInvalid", "at",
            "Invalid value: \"yesterday\": at in body must be of type date-time: \"yesterday\""),
        new SchemaError("FieldValueInvalid", "even", "Invalid value: 3: even in body should be a multiple of 2"),
        new SchemaError("FieldValueInvalid", "half", "Invalid value: 0.75: half in body should be a multiple of 0.5"),
        new SchemaError("FieldValueNotSupported", "level", "Unsupported value: 3: supported values: \"1\", \"2\""));
    assertThat(SchemaValidator.validate(json("{\"level\":2.0}"), schema, null, "")).isEmpty();
  }

  @Test
  void ratcheting_followsListMapKeys() {
    Schema schema = Schema.parse(json("""
        {"type":"object","properties":{"ports":{"type":"array","x-kubernetes-list-type":"map",
          "x-kubernetes-list-map-keys":["name"],
          "items":{"type":"object","properties":{"name":{"type":"string"},"port":{"type":"integer","maximum":100}}}}}}"""));
    JsonNode old = json("{\"ports\":[{\"name\":\"a\",\"port\":500}]}");

    List<SchemaError> reordered = SchemaValidator.validate(json("""
        {"ports":[{"name":"b","port":1},{"name":"a","port":500}]}"""), schema, old, "");
    List<SchemaError> changed = SchemaValidator.validate(json("""
        {"ports":[{"name":"a","port":501}]}"""), schema, old, "");

    assertThat(reordered).as("the unchanged invalid item moved, but correlates by its key").isEmpty();
    assertThat(changed).containsExactly(new SchemaError("FieldValueInvalid", "ports[0].port",
        "Invalid value: 501: ports[0].port in body should be less than or equal to 100"));
  }

  @Test
  void structuralChecks_reportRootAndItemTypes() {
    List<SchemaError> errors = StructuralChecks.check(json("""
        {"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"string",
          "properties":{"list":{"type":"array","items":{"properties":{}}}}}}}]}"""));

    String base = "spec.versions[0].schema.openAPIV3Schema";
    assertThat(errors).containsExactly(
        new SchemaError("FieldValueRequired", base + ".properties[list].items.type",
            "Required value: must not be empty for specified array items"),
        new SchemaError("FieldValueInvalid", base + ".type", "Invalid value: \"string\": must be object at the root"));
  }

  @Test
  void scaleChecks_reportAPathThroughANonObject() {
    assertThat(ScaleChecks.spec(json("{\"spec\":\"oops\"}"), ".spec.replicas")).containsExactly(
        new SchemaError("FieldValueInvalid", ".spec.replicas", "Invalid value: 0: .spec.replicas accessor error: oops is of "
            + "the type string, expected map[string]interface{}"));
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
