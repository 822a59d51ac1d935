package dev.ctk.fake;

import static dev.ctk.fake.CelTestSupport.CRDS;
import static dev.ctk.fake.CelTestSupport.cause;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.CelTestSupport.Cause;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CRD validation rules where a value is null or a message expression reads {@code oldSelf}, as kube 1.32 evaluates
 * them (apiextensions-apiserver's {@code schema/cel/validation.go}, apiserver's {@code cel/common/values.go}): a null
 * field of an object is absent to {@code has()}, a stored null is no old value for a transition rule, every
 * messageExpression sees the plain {@code oldSelf} (bound only on a node with a transition rule), and an evaluated
 * message may be up to 5 KiB.
 */
class CelNullsAndMessagesTest {

  private static final String GADGETS = "/apis/nulls.example.com/v1/namespaces/default/gadgets";
  private static final String LONG_MESSAGE = "m".repeat(5100);   // over the 5,000 bytes once used, under kube's 5,120

  private static final String CRD = """
      {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
       "metadata":{"name":"gadgets.nulls.example.com"},
       "spec":{"group":"nulls.example.com","scope":"Namespaced",
        "names":{"kind":"Gadget","plural":"gadgets","singular":"gadget","listKind":"GadgetList"},
        "versions":[{"name":"v1","served":true,"storage":true,
         "schema":{"openAPIV3Schema":{"type":"object","properties":{
          "spec":{"type":"object",
           "x-kubernetes-validations":[{"rule":"!has(self.limit) || self.limit > 0","message":"limit must be positive"}],
           "properties":{
            "limit":{"type":"integer","nullable":true},
            "image":{"type":"string","nullable":true,
             "x-kubernetes-validations":[{"rule":"self == oldSelf","message":"image is immutable"}]},
            "version":{"type":"integer",
             "x-kubernetes-validations":[{"rule":"!oldSelf.hasValue() || oldSelf.value() <= self",
              "optionalOldSelf":true,"message":"version may not go back",
              "messageExpression":"oldSelf.hasValue() ? 'went back' : 'new'"}]},
            "size":{"type":"integer",
             "x-kubernetes-validations":[{"rule":"self <= 10","message":"size is at most 10",
              "messageExpression":"oldSelf < self ? 'size grew' : 'size did not grow'"}]},
            "note":{"type":"string",
             "x-kubernetes-validations":[{"rule":"self.size() < 3","message":"note is short",
              "messageExpression":"'%s'"}]}}}}}}}]}}
      """.formatted(LONG_MESSAGE);

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).build();
    api = new RawApi(cluster.url());
    Reply created = api.post(CRDS, CRD);
    assertThat(created.code()).as(created.body()).isEqualTo(201);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void nullInANullableField_isAbsentToHas() {
    // WHEN
    Reply created = api.post(GADGETS, gadget("{\"limit\":null}"));

    // THEN
    assertThat(created.code()).as(created.body()).isEqualTo(201);
    assertThat(api.post(GADGETS, gadget("g-2", "{\"limit\":0}")).body()).contains("limit must be positive");
  }

  @Test
  void transitionRule_isSkipped_whenTheStoredValueIsNull() {
    // GIVEN
    Reply created = api.post(GADGETS, gadget("{\"image\":null}"));

    // WHEN
    Reply set = api.patch(GADGETS + "/g-1", "application/merge-patch+json", "{\"spec\":{\"image\":\"nginx\"}}");
    Reply changed = api.patch(GADGETS + "/g-1", "application/merge-patch+json", "{\"spec\":{\"image\":\"httpd\"}}");

    // THEN
    assertThat(created.code()).as(created.body()).isEqualTo(201);
    assertThat(created.json().path("spec").has("image")).as("the null is stored").isTrue();
    assertThat(set.code()).as(set.body()).isEqualTo(200);
    assertThat(changed.json()).isEqualTo(invalidGadget(cause("FieldValueInvalid", "spec.image",
        "Invalid value: \"string\": image is immutable")));
  }

  @Test
  void messageExpressionOfAnOptionalOldSelfRule_seesThePlainOldSelf_soItFailsAndTheMessageIsUsed() {
    // GIVEN
    api.post(GADGETS, gadget("{\"version\":3}"));

    // WHEN
    Reply back = api.patch(GADGETS + "/g-1", "application/merge-patch+json", "{\"spec\":{\"version\":2}}");

    // THEN
    assertThat(back.json()).isEqualTo(invalidGadget(cause("FieldValueInvalid", "spec.version",
        "Invalid value: \"integer\": version may not go back")));
  }

  @Test
  void messageExpressionUsingOldSelf_onANodeWithoutTransitionRules_failsAndTheMessageIsUsed() {
    // GIVEN
    api.post(GADGETS, gadget("{\"size\":5}"));

    // WHEN
    Reply grown = api.patch(GADGETS + "/g-1", "application/merge-patch+json", "{\"spec\":{\"size\":11}}");

    // THEN
    assertThat(grown.json()).isEqualTo(invalidGadget(cause("FieldValueInvalid", "spec.size",
        "Invalid value: \"integer\": size is at most 10")));
  }

  @Test
  void evaluatedMessage_ofUpTo5KiB_isReported() {
    // WHEN
    Reply created = api.post(GADGETS, gadget("{\"note\":\"long\"}"));

    // THEN
    String message = created.json().at("/details/causes/0/message").asText();
    assertThat(message).as("the cause's message, %s bytes", message.length())
        .isEqualTo("Invalid value: \"string\": " + LONG_MESSAGE);
  }

  private static String gadget(String spec) {
    return gadget("g-1", spec);
  }

  private static String gadget(String name, String spec) {
    return "{\"apiVersion\":\"nulls.example.com/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"" + name + "\"},"
        + "\"spec\":" + spec + "}";
  }

  private static JsonNode invalidGadget(Cause cause) {
    return CelTestSupport.invalid("Gadget.nulls.example.com", "g-1", "nulls.example.com", "Gadget", cause);
  }
}
