package dev.ctk.fake;

import static dev.ctk.fake.CelTestSupport.CRDS;
import static dev.ctk.fake.CelTestSupport.cause;
import static dev.ctk.fake.CelTestSupport.invalidCrd;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A CustomResourceDefinition whose x-kubernetes-validations rules are malformed or do not compile is refused on
 * create and update with kube's 422.
 */
class CelCrdValidationTest {

  private static final String NAME = "gadgets.cel.example.com";
  private static final String AT = "spec.validation.openAPIV3Schema.properties[spec]";
  private static final String NIL_RULE = ", Message:\"\", MessageExpression:\"\", "
      + "Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void ruleNamingAnUndeclaredField_isRefused_withCelsCompileErrorAndTheRule() {
    // WHEN
    Reply reply = api.post(CRDS, crd("""
        {"type":"object","properties":{"replicas":{"type":"integer"}},
         "x-kubernetes-validations":[{"rule":"self.minReplicas <= self.replicas"}]}"""));

    // THEN
    assertThat(reply.json()).isEqualTo(invalidCrd(NAME, cause("FieldValueInvalid",
        AT + ".x-kubernetes-validations[0].rule",
        "Invalid value: apiextensions.ValidationRule{Rule:\"self.minReplicas <= self.replicas\"" + NIL_RULE
            + ": compilation failed: ERROR: <input>:1:5: undefined field 'minReplicas'\n"
            + " | self.minReplicas <= self.replicas\n"
            + " | ....^")));
    assertThat(api.get(CRDS + "/" + NAME).code()).isEqualTo(404);
  }

  @Test
  void syntaxErrors_wrongResultTypes_andBadRegexLiterals_areRefused() {
    // WHEN
    Reply reply = api.post(CRDS, crd("""
        {"type":"object","properties":{"name":{"type":"string"},"replicas":{"type":"integer"}},
         "x-kubernetes-validations":[
          {"rule":"self.replicas >"},
          {"rule":"self.replicas + 1"},
          {"rule":"self.name.matches('[')"},
          {"rule":"self.replicas + 'a' == 1"},
          {"rule":"self.replicas > 0","messageExpression":"self.replicas"}]}"""));

    // THEN
    String rules = AT + ".x-kubernetes-validations";
    assertThat(reply.json()).isEqualTo(invalidCrd(NAME,
        cause("FieldValueInvalid", rules + "[0].rule", "Invalid value: apiextensions.ValidationRule{Rule:"
            + "\"self.replicas >\"" + NIL_RULE + ": compilation failed: ERROR: <input>:1:16: Syntax error: "
            + "mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, "
            + "NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.replicas >\n | ...............^"),
        cause("FieldValueInvalid", rules + "[1].rule", "Invalid value: apiextensions.ValidationRule{Rule:"
            + "\"self.replicas + 1\"" + NIL_RULE + ": cel expression must evaluate to a bool"),
        cause("FieldValueInvalid", rules + "[2].rule", "Invalid value: apiextensions.ValidationRule{Rule:"
            + "\"self.name.matches('[')\"" + NIL_RULE + ": compilation failed: ERROR: <input>:1:19: invalid matches "
            + "argument\n | self.name.matches('[')\n | ..................^"),
        cause("FieldValueInvalid", rules + "[3].rule", "Invalid value: apiextensions.ValidationRule{Rule:"
            + "\"self.replicas + 'a' == 1\"" + NIL_RULE + ": compilation failed: ERROR: <input>:1:15: found no "
            + "matching overload for '_+_' applied to '(int, string)'\n | self.replicas + 'a' == 1\n"
            + " | ..............^"),
        cause("FieldValueInvalid", rules + "[4].messageExpression", "Invalid value: apiextensions.ValidationRule{"
            + "Rule:\"self.replicas > 0\", Message:\"\", MessageExpression:\"self.replicas\", "
            + "Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: "
            + "messageExpression must evaluate to a string")));
  }

  @Test
  void malformedRules_areRefusedBeforeCompiling() {
    // WHEN
    Reply reply = api.post(CRDS, crd("""
        {"type":"object","properties":{"replicas":{"type":"integer"}},
         "x-kubernetes-validations":[
          {"rule":" "},
          {"rule":"self.replicas > 0","message":"two\\nlines"},
          {"rule":"self.replicas > 0","reason":"FieldValueBroken"},
          {"rule":"self.replicas > 0","fieldPath":".nope"},
          {"rule":"self.nope > 0"}]}"""));

    // THEN
    String rules = AT + ".x-kubernetes-validations";
    assertThat(reply.json()).isEqualTo(invalidCrd(NAME,
        cause("FieldValueRequired", rules + "[0].rule", "Required value: rule is not specified"),
        cause("FieldValueInvalid", rules + "[1].message",
            "Invalid value: \"two\\nlines\": message must not contain line breaks"),
        cause("FieldValueNotSupported", rules + "[2].reason", "Unsupported value: \"FieldValueBroken\": supported "
            + "values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""),
        cause("FieldValueInvalid", rules + "[3].fieldPath",
            "Invalid value: \".nope\": fieldPath must be a valid path")));
  }

  @Test
  void oldSelf_belowAnAtomicList_andOptionalOldSelfWithoutOldSelf_areRefused() {
    // WHEN
    Reply reply = api.post(CRDS, crd("""
        {"type":"object","properties":{
          "tags":{"type":"array","items":{"type":"string",
            "x-kubernetes-validations":[{"rule":"self == oldSelf"}]}},
          "name":{"type":"string",
            "x-kubernetes-validations":[{"rule":"self != ''","optionalOldSelf":true}]}}}"""));

    // THEN
    assertThat(reply.json()).isEqualTo(invalidCrd(NAME,
        cause("FieldValueInvalid", AT + ".properties[tags].items.x-kubernetes-validations[0].rule",
            "Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema "
                + "within " + AT + ".properties[tags]"),
        cause("FieldValueInvalid", AT + ".properties[name].x-kubernetes-validations[0].optionalOldSelf",
            "Invalid value: true: may not be set if oldSelf is not used in rule")));
  }

  @Test
  void ruleOnANodeCelCannotType_isAnInternalError() {
    // WHEN
    Reply reply = api.post(CRDS, crd("""
        {"type":"object","properties":{"extra":{"x-kubernetes-preserve-unknown-fields":true,
          "x-kubernetes-validations":[{"rule":"true"}]}}}"""));

    // THEN
    assertThat(reply.json()).isEqualTo(invalidCrd(NAME, cause("InternalError",
        AT + ".properties[extra].x-kubernetes-validations",
        "Internal error: failed to convert to declType for CEL validation rules")));
  }

  @Test
  void anUpdateAddingARuleThatDoesNotCompile_isRefused_andTheOldRulesStay() {
    // GIVEN
    Reply created = api.post(CRDS, crd("""
        {"type":"object","properties":{"replicas":{"type":"integer"}},
         "x-kubernetes-validations":[{"rule":"self.replicas >= 0"}]}"""));

    // WHEN
    Reply update = api.put(CRDS + "/" + NAME, created.body().replace("self.replicas >= 0", "self.replica >= 0"));

    // THEN
    assertThat(update.json()).isEqualTo(invalidCrd(NAME, cause("FieldValueInvalid",
        AT + ".x-kubernetes-validations[0].rule",
        "Invalid value: apiextensions.ValidationRule{Rule:\"self.replica >= 0\"" + NIL_RULE
            + ": compilation failed: ERROR: <input>:1:5: undefined field 'replica'\n"
            + " | self.replica >= 0\n"
            + " | ....^")));
    Reply negative = api.post("/apis/cel.example.com/v1/namespaces/default/gadgets", """
        {"apiVersion":"cel.example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"replicas":-1}}""");
    assertThat(negative.code()).isEqualTo(422);
  }

  @Test
  void versionsWithDifferentSchemas_reportPerVersionPaths() {
    // WHEN
    Reply reply = api.post(CRDS, """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"%s"},
         "spec":{"group":"cel.example.com","scope":"Namespaced","names":{"kind":"Gadget","plural":"gadgets"},
          "versions":[
           {"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}},
           {"name":"v2","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object",
             "x-kubernetes-validations":[{"rule":"self.x == 1"}]}}}]}}""".formatted(NAME));

    // THEN
    assertThat(reply.json()).isEqualTo(invalidCrd(NAME, cause("FieldValueInvalid",
        "spec.versions[1].schema.openAPIV3Schema.x-kubernetes-validations[0].rule",
        "Invalid value: apiextensions.ValidationRule{Rule:\"self.x == 1\"" + NIL_RULE
            + ": compilation failed: ERROR: <input>:1:5: undefined field 'x'\n | self.x == 1\n | ....^")));
  }

  private static String crd(String specSchema) {
    return """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"%s"},
         "spec":{"group":"cel.example.com","scope":"Namespaced","names":{"kind":"Gadget","plural":"gadgets"},
          "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
           "properties":{"spec":%s}}}}]}}""".formatted(NAME, specSchema);
  }
}
