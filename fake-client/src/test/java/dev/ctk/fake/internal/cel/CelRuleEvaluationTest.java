package dev.ctk.fake.internal.cel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ctk.fake.internal.schema.SchemaError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How rules are evaluated: transition rules and optionalOldSelf, ratcheting, atomic maps, escaped names, formats as
 * CEL types, embedded resources, fieldPath, reasons, messageExpression fallbacks, and the CRD's own checks.
 */
class CelRuleEvaluationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void optionalOldSelf_isEvaluatedOnCreate_withNoValue_whileAPlainTransitionRuleIsNot() {
    // GIVEN
    CustomResourceRules rules = rules("""
        {"type":"object","properties":{"a":{"type":"string","x-kubernetes-validations":[
          {"rule":"oldSelf.hasValue()","optionalOldSelf":true,"message":"only updates"},
          {"rule":"self == oldSelf","message":"immutable"}]}}}""");

    // WHEN
    List<SchemaError> create = rules.validateCreate(json("{\"a\":\"x\"}"));
    List<SchemaError> update = rules.validateUpdate(json("{\"a\":\"y\"}"), json("{\"a\":\"x\"}"));

    // THEN
    assertThat(oldestWording(create)).containsExactly(new SchemaError("FieldValueInvalid", "a",
        "Invalid value: \"string\": only updates"));
    assertThat(oldestWording(update)).containsExactly(new SchemaError("FieldValueInvalid", "a",
        "Invalid value: \"string\": immutable"));
    // from 1.35 kube prints the value itself
    assertThat(update.get(0).body(35)).isEqualTo("Invalid value: \"y\": immutable");
    assertThat(update.get(0).body(34)).isEqualTo("Invalid value: \"string\": immutable");
  }

  @Test
  void ratcheting_dropsErrorsOfUnchangedValues_butNeverOfTransitionRules() {
    // GIVEN
    CustomResourceRules rules = rules("""
        {"type":"object","properties":{
          "a":{"type":"integer","x-kubernetes-validations":[{"rule":"self < 10"}]},
          "b":{"type":"integer","x-kubernetes-validations":[{"rule":"self < 10 && self == oldSelf"}]},
          "c":{"type":"integer"}}}""");
    JsonNode old = json("{\"a\":20,\"b\":20,\"c\":1}");

    // WHEN
    List<SchemaError> unchanged = rules.validateUpdate(json("{\"a\":20,\"b\":20,\"c\":2}"), old);
    List<SchemaError> status = rules.validateStatusUpdate(json("{\"a\":20,\"b\":20,\"c\":2}"), old);

    // THEN
    assertThat(oldestWording(unchanged)).containsExactly(new SchemaError("FieldValueInvalid", "b",
        "Invalid value: \"integer\": failed rule: self < 10 && self == oldSelf"));
    assertThat(oldestWording(status)).containsExactly(
        new SchemaError("FieldValueInvalid", "a", "Invalid value: \"integer\": failed rule: self < 10"),
        new SchemaError("FieldValueInvalid", "b",
            "Invalid value: \"integer\": failed rule: self < 10 && self == oldSelf"));
  }

  @Test
  void fieldsOfAnAtomicMap_haveNoOldSelf() {
    // GIVEN
    CustomResourceRules rules = rules("""
        {"type":"object","properties":{"m":{"type":"object","x-kubernetes-map-type":"atomic",
          "properties":{"a":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}}}}""");

    // WHEN
    List<SchemaError> errors = rules.validateUpdate(json("{\"m\":{\"a\":\"y\"}}"), json("{\"m\":{\"a\":\"x\"}}"));

    // THEN
    assertThat(errors).isEmpty();
  }

  @Test
  void propertyNames_areEscapedAsKubeEscapesThem() {
    // GIVEN
    CustomResourceRules rules = rules("""
        {"type":"object","x-kubernetes-validations":[
          {"rule":"self.x__dash__prop == 1 && self.__namespace__ == 'n' && self.a__dot__b == 2 && self.c__underscores__d"}],
         "properties":{"x-prop":{"type":"integer"},"namespace":{"type":"string"},"a.b":{"type":"integer"},
          "c__d":{"type":"boolean"}}}""");

    // WHEN
    List<SchemaError> errors = rules.validateCreate(json(
        "{\"x-prop\":1,\"namespace\":\"n\",\"a.b\":2,\"c__d\":true}"));

    // THEN
    assertThat(errors).isEmpty();
  }

  @Test
  void formattedStrings_areTimestampsDurationsAndBytes() {
    // GIVEN
    CustomResourceRules rules = rules("""
        {"type":"object","x-kubernetes-validations":[{"rule":
          "self.start < self.end && self.end - self.start == self.window && self.data == b'hi'"}],
         "properties":{"start":{"type":"string","format":"date-time"},"end":{"type":"string","format":"date-time"},
          "window":{"type":"string","format":"duration"},"data":{"type":"string","format":"byte"}}}""");

    // WHEN
    List<SchemaError> ok = rules.validateCreate(json("{\"start\":\"2025-01-01T00:00:00Z\","
        + "\"end\":\"2025-01-01T01:30:00Z\",\"window\":\"1h30m\",\"data\":\"aGk=\"}"));
    List<SchemaError> late = rules.validateCreate(json("{\"start\":\"2025-01-02T00:00:00Z\","
        + "\"end\":\"2025-01-01T01:30:00Z\",\"window\":\"1h30m\",\"data\":\"aGk=\"}"));

    // THEN
    assertThat(ok).isEmpty();
    assertThat(late).extracting(SchemaError::field).containsExactly("<nil>");
  }

  @Test
  void embeddedResources_exposeApiVersionKindAndMetadataName() {
    // GIVEN
    CustomResourceRules rules = rules("""
        {"type":"object","properties":{"template":{"type":"object","x-kubernetes-embedded-resource":true,
          "x-kubernetes-preserve-unknown-fields":true,
          "x-kubernetes-validations":[{"rule":"self.kind == 'Pod' && self.metadata.name.startsWith('p')",
            "message":"a Pod named p*"}]}}}""");

    // WHEN
    List<SchemaError> pod = rules.validateCreate(json(
        "{\"template\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p1\"}}}"));
    List<SchemaError> job = rules.validateCreate(json(
        "{\"template\":{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"p1\"}}}"));

    // THEN
    assertThat(pod).isEmpty();
    assertThat(oldestWording(job)).containsExactly(new SchemaError("FieldValueInvalid", "template",
        "Invalid value: \"object\": a Pod named p*"));
  }

  @Test
  void fieldPathIntoAMap_reasonDuplicate_andAMessageExpressionThatFails_fallBackAsKubeDoes() {
    // GIVEN
    CustomResourceRules rules = rules("""
        {"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"},
          "x-kubernetes-validations":[
            {"rule":"!('bad' in self)","fieldPath":"['bad']","message":"no bad key"},
            {"rule":"self.size() < 2","reason":"FieldValueDuplicate","message":"ignored by kube"},
            {"rule":"!('x' in self)","message":"no x","messageExpression":"self['missing']"},
            {"rule":"!('y' in self)","messageExpression":"'  '"}]}}}""");

    // WHEN
    List<SchemaError> errors = rules.validateCreate(json("{\"m\":{\"bad\":\"1\",\"x\":\"2\",\"y\":\"3\"}}"));

    // THEN kube appends the normalized fieldPath as a child name, hence "m.[bad]"
    assertThat(oldestWording(errors)).containsExactly(
        new SchemaError("FieldValueInvalid", "m.[bad]", "Invalid value: \"object\": no bad key"),
        new SchemaError("FieldValueDuplicate", "m", "Duplicate value: \"object\""),
        new SchemaError("FieldValueInvalid", "m", "Invalid value: \"object\": no x"),
        new SchemaError("FieldValueInvalid", "m", "Invalid value: \"object\": failed rule: !('y' in self)"));
  }

  @Test
  void aConstantRegexOfFindThatDoesNotCompile_failsTheProgram_asKubesRegexOptimization() {
    // WHEN
    List<SchemaError> errors = CrdRuleChecks.check(json("""
        {"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object","properties":{
          "s":{"type":"string","x-kubernetes-validations":[{"rule":"self.find('[') == ''"}]}}}}}]}"""));

    // THEN
    assertThat(oldestWording(errors)).containsExactly(new SchemaError("FieldValueInvalid",
        "spec.validation.openAPIV3Schema.properties[s].x-kubernetes-validations[0].rule",
        "Invalid value: apiextensions.ValidationRule{Rule:\"self.find('[') == ''\", Message:\"\", "
            + "MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", "
            + "OptionalOldSelf:(*bool)(nil)}: program instantiation failed: error parsing regexp: missing closing ]: "
            + "`[`"));
  }

  @Test
  void compiledRules_areCachedPerSchema() {
    // GIVEN
    JsonNode schema = json("{\"type\":\"object\",\"x-kubernetes-validations\":[{\"rule\":\"true\"}]}");

    // WHEN
    CustomResourceRules first = CustomResourceRules.of(schema);
    CustomResourceRules second = CustomResourceRules.of(json(schema.toString()));

    // THEN
    assertThat(second).isSameAs(first);
    assertThat(CustomResourceRules.of(json("{\"type\":\"object\"}")).isEmpty()).isTrue();
  }

  private static CustomResourceRules rules(String openApiV3Schema) {
    return CustomResourceRules.of(json(openApiV3Schema));
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The errors as the oldest emulated minor words them (the later wordings are checked where they matter). */
  private static List<SchemaError> oldestWording(List<SchemaError> errors) {
    return errors.stream().map(e -> new SchemaError(e.type(), e.field(), e.body())).toList();
  }
}
