package dev.ctk.fake;

import static dev.ctk.fake.CelTestSupport.CRDS;
import static dev.ctk.fake.CelTestSupport.MACHINES;
import static dev.ctk.fake.CelTestSupport.cause;
import static dev.ctk.fake.CelTestSupport.invalidMachine;
import static dev.ctk.fake.CelTestSupport.machine;
import static dev.ctk.fake.CelTestSupport.machineCrd;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CRD validation rules (x-kubernetes-validations) on custom resource writes: self, messages, messageExpression,
 * reason, fieldPath, transition rules, optionalOldSelf, ratcheting, blocking errors, status writes, with kube's
 * whole 422 bodies.
 */
class CelValidationRulesTest {

  private static final String VALID = "{\"replicas\":2,\"minReplicas\":1,\"image\":\"nginx:1\",\"version\":3,"
      + "\"owner\":\"team-a\",\"ports\":[{\"name\":\"http\",\"port\":80}],\"labels\":{\"tier\":\"web\"},"
      + "\"threshold\":\"50%\"}";

  private FakeCluster cluster;
  private RawApi api;
  private ObjectNode crd;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).build();
    api = new RawApi(cluster.url());
    Reply created = api.post(CRDS, machineCrd());
    assertThat(created.code()).as(created.body()).isEqualTo(201);
    crd = (ObjectNode) created.json();
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void create_passes_whenEveryRuleHolds() {
    // WHEN
    Reply reply = api.post(MACHINES, machine("m-1", VALID));

    // THEN
    assertThat(reply.code()).as(reply.body()).isEqualTo(201);
  }

  @Test
  void failingRule_withMessageAndFieldPath_isReportedAtTheFieldPath_withTheNodesType() {
    // WHEN
    Reply reply = api.post(MACHINES, machine("m-1", "{\"replicas\":2,\"minReplicas\":3}"));

    // THEN
    assertThat(reply.json()).isEqualTo(invalidMachine("m-1", cause("FieldValueInvalid", "spec.replicas",
        "Invalid value: \"object\": replicas must be at least minReplicas")));
  }

  @Test
  void failingRule_withoutMessage_reportsTheRule() {
    // WHEN
    Reply reply = api.post(MACHINES, machine("m-1", "{\"replicas\":101}"));

    // THEN
    assertThat(reply.json()).isEqualTo(invalidMachine("m-1", cause("FieldValueInvalid", "spec",
        "Invalid value: \"object\": failed rule: self.replicas <= 100")));
  }

  @Test
  void messageExpression_givesTheMessage_andReasonForbidden_theCauseType() {
    // WHEN
    Reply reply = api.post(MACHINES, machine("m-1", "{\"replicas\":1,\"mode\":\"legacy\"}"));

    // THEN
    assertThat(reply.json()).isEqualTo(invalidMachine("m-1", cause("FieldValueForbidden", "spec",
        "Forbidden: mode legacy is no longer supported")));
  }

  @Test
  void reasonRequired_givesARequiredValueCause() {
    // WHEN
    Reply reply = api.post(MACHINES, machine("m-1", "{\"replicas\":1,\"owner\":\"\"}"));

    // THEN
    assertThat(reply.json()).isEqualTo(invalidMachine("m-1", cause("FieldValueRequired", "spec.owner",
        "Required value: owner must be set")));
  }

  @Test
  void ruleAtTheRoot_isReportedAtNil_asKubeDoes_andSeesMetadataName() {
    // WHEN
    Reply reply = api.post(MACHINES, machine("x-1", "{\"replicas\":1}"));

    // THEN
    assertThat(reply.json()).isEqualTo(invalidMachine("x-1", cause("FieldValueInvalid", "<nil>",
        "Invalid value: \"object\": name must start with m-")));
  }

  @Test
  void severalFailingRules_areAllReported_inKubesAggregate() {
    // WHEN
    Reply reply = api.post(MACHINES, machine("x-1", "{\"replicas\":200,\"labels\":{\"team\":\"payments\"},"
        + "\"threshold\":\"50\"}"));

    // THEN
    assertThat(reply.json()).isEqualTo(invalidMachine("x-1",
        cause("FieldValueInvalid", "<nil>", "Invalid value: \"object\": name must start with m-"),
        cause("FieldValueInvalid", "spec", "Invalid value: \"object\": failed rule: self.replicas <= 100"),
        cause("FieldValueInvalid", "spec.labels[team]",
            "Invalid value: \"string\": label values are at most 5 characters"),
        cause("FieldValueInvalid", "spec.threshold",
            "Invalid value: \"\": threshold is a count or a percentage")));
  }

  @Test
  void intOrString_isDyn_andEitherTypeCanPass() {
    // WHEN
    Reply count = api.post(MACHINES, machine("m-1", "{\"replicas\":1,\"threshold\":5}"));
    Reply percent = api.post(MACHINES, machine("m-2", "{\"replicas\":1,\"threshold\":\"5%\"}"));
    Reply negative = api.post(MACHINES, machine("m-3", "{\"replicas\":1,\"threshold\":-1}"));

    // THEN
    assertThat(count.code()).as(count.body()).isEqualTo(201);
    assertThat(percent.code()).as(percent.body()).isEqualTo(201);
    assertThat(negative.json()).isEqualTo(invalidMachine("m-3", cause("FieldValueInvalid", "spec.threshold",
        "Invalid value: \"\": threshold is a count or a percentage")));
  }

  @Test
  void transitionRule_isNotEvaluatedOnCreate_butChecksTheStoredObjectOnUpdateAndPatch() {
    // GIVEN
    Reply created = api.post(MACHINES, machine("m-1", "{\"replicas\":1,\"image\":\"nginx:1\"}"));
    String rv = created.json().path("metadata").path("resourceVersion").asText();

    // WHEN
    Reply update = api.put(MACHINES + "/m-1", "{\"apiVersion\":\"cel.example.com/v1\",\"kind\":\"Machine\","
        + "\"metadata\":{\"name\":\"m-1\",\"resourceVersion\":\"" + rv + "\"},"
        + "\"spec\":{\"replicas\":1,\"image\":\"nginx:2\"}}");
    Reply patch = api.patch(MACHINES + "/m-1", "application/merge-patch+json", "{\"spec\":{\"image\":\"nginx:3\"}}");
    Reply unchanged = api.patch(MACHINES + "/m-1", "application/merge-patch+json", "{\"spec\":{\"replicas\":2}}");

    // THEN
    assertThat(created.code()).as(created.body()).isEqualTo(201);
    assertThat(update.json()).isEqualTo(invalidMachine("m-1", cause("FieldValueInvalid", "spec.image",
        "Invalid value: \"string\": image is immutable")));
    assertThat(patch.json()).isEqualTo(update.json());
    assertThat(unchanged.code()).as(unchanged.body()).isEqualTo(200);
  }

  @Test
  void optionalOldSelf_seesNoOldValueOnCreate_andTheStoredOneOnUpdate() {
    // GIVEN
    Reply created = api.post(MACHINES, machine("m-1", "{\"replicas\":1,\"version\":3}"));

    // WHEN
    Reply back = api.patch(MACHINES + "/m-1", "application/merge-patch+json", "{\"spec\":{\"version\":2}}");
    Reply forward = api.patch(MACHINES + "/m-1", "application/merge-patch+json", "{\"spec\":{\"version\":4}}");

    // THEN
    assertThat(created.code()).as(created.body()).isEqualTo(201);
    assertThat(back.json()).isEqualTo(invalidMachine("m-1", cause("FieldValueInvalid", "spec.version",
        "Invalid value: \"integer\": version may not go back")));
    assertThat(forward.code()).as(forward.body()).isEqualTo(200);
  }

  @Test
  void mapListItems_correlateByKey_andNewItemsSkipTransitionRules() {
    // GIVEN
    api.post(MACHINES, machine("m-1", "{\"replicas\":1,\"ports\":[{\"name\":\"http\",\"port\":80}]}"));

    // WHEN
    Reply shrink = api.patch(MACHINES + "/m-1", "application/merge-patch+json",
        "{\"spec\":{\"ports\":[{\"name\":\"metrics\",\"port\":9090},{\"name\":\"http\",\"port\":70}]}}");
    Reply added = api.patch(MACHINES + "/m-1", "application/merge-patch+json",
        "{\"spec\":{\"ports\":[{\"name\":\"metrics\",\"port\":9090},{\"name\":\"http\",\"port\":81}]}}");
    Reply zero = api.patch(MACHINES + "/m-1", "application/merge-patch+json",
        "{\"spec\":{\"ports\":[{\"name\":\"admin\",\"port\":0}]}}");

    // THEN
    assertThat(shrink.json()).isEqualTo(invalidMachine("m-1", cause("FieldValueInvalid", "spec.ports[1]",
        "Invalid value: \"object\": a port may only grow")));
    assertThat(added.code()).as(added.body()).isEqualTo(200);
    assertThat(zero.json()).isEqualTo(invalidMachine("m-1", cause("FieldValueInvalid", "spec.ports[0]",
        "Invalid value: \"object\": port must be positive")));
  }

  @Test
  void errorsOfOpenApiValidation_thatKubeCallsBlocking_replaceTheRulesWithOneCause() {
    // WHEN
    Reply reply = api.post(MACHINES, machine("x-1", "{\"mode\":\"legacy\"}"));

    // THEN
    assertThat(reply.json()).isEqualTo(invalidMachine("x-1",
        cause("FieldValueRequired", "spec.replicas", "Required value"),
        cause("FieldValueInvalid", "<nil>", "Invalid value: \"null\": some validation rules were not checked "
            + "because the object was invalid; correct the existing errors to complete validation")));
  }

  @Test
  void statusWrite_evaluatesTheRules_withoutRatcheting() {
    // GIVEN
    api.post(MACHINES, machine("m-1", "{\"replicas\":1}"));

    // WHEN
    Reply ok = api.patch(MACHINES + "/m-1/status", "application/merge-patch+json", "{\"status\":{\"ready\":3}}");
    Reply tooMany = api.patch(MACHINES + "/m-1/status", "application/merge-patch+json",
        "{\"status\":{\"ready\":11}}");

    // THEN
    assertThat(ok.code()).as(ok.body()).isEqualTo(200);
    assertThat(tooMany.json()).isEqualTo(invalidMachine("m-1", cause("FieldValueInvalid", "status",
        "Invalid value: \"object\": ready is at most 10")));
  }

  @Test
  void ratcheting_anUnchangedValueThatBreaksANewRule_passes_aChangedOneFails() {
    // GIVEN a Machine stored before its CRD gained the rule on spec.legacy
    ObjectNode rule = (ObjectNode) legacy().remove("x-kubernetes-validations").get(0);
    assertThat(api.put(CRDS + "/machines.cel.example.com", crd.toString()).code()).isEqualTo(200);
    assertThat(api.post(MACHINES, machine("m-1", "{\"replicas\":1,\"legacy\":\"abcdef\"}")).code()).isEqualTo(201);
    crd = (ObjectNode) api.get(CRDS + "/machines.cel.example.com").json();
    legacy().putArray("x-kubernetes-validations").add(rule);
    assertThat(api.put(CRDS + "/machines.cel.example.com", crd.toString()).code()).isEqualTo(200);

    // WHEN
    Reply other = api.patch(MACHINES + "/m-1", "application/merge-patch+json", "{\"spec\":{\"replicas\":2}}");
    Reply changed = api.patch(MACHINES + "/m-1", "application/merge-patch+json",
        "{\"spec\":{\"legacy\":\"abcdefg\"}}");

    // THEN
    assertThat(other.code()).as(other.body()).isEqualTo(200);
    assertThat(changed.json()).isEqualTo(invalidMachine("m-1", cause("FieldValueInvalid", "spec.legacy",
        "Invalid value: \"string\": failed rule: self.size() < 3")));
  }

  private ObjectNode legacy() {
    return (ObjectNode) crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/legacy");
  }
}
