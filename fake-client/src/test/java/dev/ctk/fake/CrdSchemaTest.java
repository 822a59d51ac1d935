package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** CRD structural schemas: pruning, defaults, OpenAPI validation with kube's 422 bodies, status, versions. */
class CrdSchemaTest {

  private static final String WIDGETS = "/apis/ctk.example.com/v1/namespaces/default/widgets";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withCrds(widgetCrd()).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void create_prunesUnknownFields_keepsPreservedAndEmbedded_andAppliesDefaults() {
    Reply reply = api.post(WIDGETS, """
        {"apiVersion":"ctk.example.com/v1","kind":"Widget",
         "metadata":{"name":"w1","unknownMeta":"x","labels":{}},
         "spec":{"color":"red","bogus":1,"strategy":{},
                 "extra":{"anything":{"deep":true},"known":{"kept":"k","dropped":"d"}},
                 "template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","whatever":1},"spec":{"x":1}}},
         "status":{"phase":"Ready"},
         "topLevelUnknown":5}""");

    assertThat(reply.code()).as(reply.body()).isEqualTo(201);
    JsonNode created = reply.json();
    assertThat(created.path("metadata").has("unknownMeta")).isFalse();
    assertThat(created.path("metadata").has("labels")).as("empty labels are omitted, as ObjectMeta does").isFalse();
    assertThat(created.has("topLevelUnknown")).isFalse();
    assertThat(created.has("status")).as("status subresource: create cannot set status").isFalse();
    assertThat(created.path("spec")).isEqualTo(json("""
        {"color":"red","strategy":{"type":"Rolling","maxSurge":1},
         "extra":{"anything":{"deep":true},"known":{"kept":"k"}},
         "template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"x":1}},
         "size":3}"""));
    assertThat(api.get(WIDGETS + "/w1").json().path("spec")).isEqualTo(created.path("spec"));
  }

  @Test
  void nestedDefaults_applyOnlyWhereTheParentExists() {
    JsonNode created = api.post(WIDGETS, widget("w1", "{\"color\":\"red\"}")).json();

    assertThat(created.path("spec")).isEqualTo(json("{\"color\":\"red\",\"size\":3}"));
  }

  @Test
  void nullsInNonNullableFields_areDropped_orDefaulted() {
    Reply dropped = api.post(WIDGETS, widget("w1", "{\"color\":null}"));
    Reply defaulted = api.post(WIDGETS, widget("w2", "{\"color\":\"red\",\"size\":null,\"note\":null}"));

    assertThat(dropped.json()).isEqualTo(invalid("w1",
        cause("FieldValueRequired", "spec.color", "Required value")));
    assertThat(defaulted.json().path("spec")).isEqualTo(json("{\"color\":\"red\",\"size\":3,\"note\":null}"));
  }

  @Test
  void invalidCreate_isA422WithEveryCause_inKubesWords() {
    Reply reply = api.post(WIDGETS, widget("w2", """
        {"color":"pink","size":0,"ratio":1,"name":"AB","tags":[],"labels":{},"port":true,"note":null}"""));

    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json()).isEqualTo(invalid("w2",
        cause("FieldValueNotSupported", "spec.color",
            "Unsupported value: \"pink\": supported values: \"red\", \"green\", \"blue\""),
        cause("FieldValueInvalid", "spec.size",
            "Invalid value: 0: spec.size in body should be greater than or equal to 1"),
        cause("FieldValueInvalid", "spec.ratio", "Invalid value: 1: spec.ratio in body should be less than 1"),
        cause("FieldValueInvalid", "spec.name",
            "Invalid value: \"AB\": spec.name in body should be at least 3 chars long"),
        cause("FieldValueInvalid", "spec.tags", "Invalid value: 0: spec.tags in body should have at least 1 items"),
        cause("FieldValueInvalid", "spec.labels",
            "Invalid value: 0: spec.labels in body should have at least 1 properties"),
        cause("FieldValueTypeInvalid", "spec.port",
            "Invalid value: \"boolean\": spec.port in body must be of type integer,string: \"boolean\"")));
  }

  @Test
  void maxLimits_exclusiveMinimum_andRequired() {
    Reply reply = api.post(WIDGETS, widget("w3", """
        {"name":"abcdefghi","tags":["a","b","c"],"labels":{"a":"1","b":"2","c":"3"},"ratio":0,"size":11,
         "port":"http"}"""));

    assertThat(reply.json()).isEqualTo(invalid("w3",
        cause("FieldValueTooLong", "spec.name", "Too long: may not be more than 8 bytes"),
        cause("FieldValueTooMany", "spec.tags", "Too many: 3: must have at most 2 items"),
        cause("FieldValueTooMany", "spec.labels", "Too many: 3: must have at most 2 items"),
        cause("FieldValueInvalid", "spec.ratio", "Invalid value: 0: spec.ratio in body should be greater than 0"),
        cause("FieldValueInvalid", "spec.size",
            "Invalid value: 11: spec.size in body should be less than or equal to 10"),
        cause("FieldValueRequired", "spec.color", "Required value")));
  }

  @Test
  void patternTypeAndFloatBounds_andTheScaleReplicaPath() {
    Reply reply = api.post(WIDGETS, widget("w4", """
        {"color":"red","name":"ab1x","ratio":1.5,"size":"big"}"""));
    Reply negative = api.post(WIDGETS, widget("w5", "{\"color\":\"red\",\"size\":-1}"));

    assertThat(reply.json()).isEqualTo(invalid("w4",
        cause("FieldValueInvalid", "spec.name", "Invalid value: \"ab1x\": spec.name in body should match '^[a-z]+$'"),
        cause("FieldValueInvalid", "spec.ratio", "Invalid value: 1.5: spec.ratio in body should be less than 1"),
        cause("FieldValueTypeInvalid", "spec.size",
            "Invalid value: \"string\": spec.size in body must be of type integer: \"string\""),
        cause("FieldValueInvalid", ".spec.size",
            "Invalid value: 0: .spec.size accessor error: big is of the type string, expected int64")));
    assertThat(negative.json().path("message").asText()).isEqualTo("Widget.ctk.example.com \"w5\" is invalid: ["
        + "spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 1, "
        + ".spec.size: Invalid value: -1: should be a non-negative integer]");
  }

  @Test
  void listTypeMap_rejectsDuplicateKeys() {
    Reply reply = api.post(WIDGETS, widget("w6", """
        {"color":"red","ports":[{"name":"http","port":80},{"name":"http","port":81}]}"""));

    assertThat(reply.json()).isEqualTo(invalid("w6", cause("FieldValueDuplicate", "spec.ports[1]",
        "Duplicate value: map[string]interface {}{\"name\":\"http\"}")));
  }

  @Test
  void update_prunesAndValidates_butRatchetsUnchangedInvalidValues() {
    api.post(WIDGETS, widget("w1", "{\"color\":\"red\",\"size\":5}"));
    CustomResourceDefinition stricter = widgetCrd();
    ObjectNode crdJson = new KubernetesSerialization().convertValue(stricter, ObjectNode.class);
    ((com.fasterxml.jackson.databind.node.ArrayNode) crdJson.at("/spec/versions/0/schema/openAPIV3Schema/properties"
        + "/spec/properties/color/enum")).removeAll().add("green").add("blue");
    cluster.installCrd(new KubernetesSerialization().convertValue(crdJson, CustomResourceDefinition.class));

    Reply unchangedColor = api.patch(WIDGETS + "/w1", "application/merge-patch+json",
        "{\"spec\":{\"size\":6,\"bogus\":true}}");
    Reply changedColor = api.patch(WIDGETS + "/w1", "application/merge-patch+json",
        "{\"spec\":{\"color\":\"purple\"}}");

    assertThat(unchangedColor.code()).as(unchangedColor.body()).isEqualTo(200);
    assertThat(unchangedColor.json().path("spec")).isEqualTo(json("{\"color\":\"red\",\"size\":6}"));
    assertThat(unchangedColor.json().path("metadata").path("generation").asLong()).isEqualTo(2);
    assertThat(changedColor.json().path("message").asText()).isEqualTo("Widget.ctk.example.com \"w1\" is invalid: "
        + "spec.color: Unsupported value: \"purple\": supported values: \"green\", \"blue\"");
  }

  @Test
  void statusWrites_arePrunedAndValidatedAgainstTheStatusSchema() {
    api.post(WIDGETS, widget("w1", "{\"color\":\"red\"}"));

    Reply pruned = api.patch(WIDGETS + "/w1/status", "application/merge-patch+json",
        "{\"status\":{\"phase\":\"Ready\",\"junk\":1}}");
    Reply badEnum = api.patch(WIDGETS + "/w1/status", "application/merge-patch+json",
        "{\"status\":{\"phase\":\"Gone\"}}");
    Reply badType = api.patch(WIDGETS + "/w1/status", "application/merge-patch+json",
        "{\"status\":{\"replicas\":\"x\"}}");

    assertThat(pruned.json().path("status")).isEqualTo(json("{\"phase\":\"Ready\"}"));
    assertThat(badEnum.json()).isEqualTo(invalid("w1", cause("FieldValueNotSupported", "status.phase",
        "Unsupported value: \"Gone\": supported values: \"Pending\", \"Ready\"")));
    assertThat(badType.json()).isEqualTo(invalid("w1",
        cause("FieldValueTypeInvalid", "status.replicas",
            "Invalid value: \"string\": replicas in body must be of type integer: \"string\""),
        cause("FieldValueInvalid", ".status.replicas",
            "Invalid value: 0: .status.replicas accessor error: x is of the type string, expected int64")));
  }

  @Test
  void defaultsAddedToTheCrdLater_areAppliedWhenObjectsAreRead() {
    api.post(WIDGETS, widget("w1", "{\"color\":\"red\"}"));
    ObjectNode crdJson = new KubernetesSerialization().convertValue(widgetCrd(), ObjectNode.class);
    ((ObjectNode) crdJson.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties"))
        .putObject("mode").put("type", "string").put("default", "fast");
    cluster.installCrd(new KubernetesSerialization().convertValue(crdJson, CustomResourceDefinition.class));

    assertThat(api.get(WIDGETS + "/w1").json().path("spec").path("mode").asText()).isEqualTo("fast");
    assertThat(api.get(WIDGETS).json().path("items").get(0).path("spec").path("mode").asText()).isEqualTo("fast");
  }

  @Test
  void everyServedVersionServesTheObjectWithItsApiVersion_anUnservedOneIsNotFound() {
    api.post(WIDGETS, widget("w1", "{\"color\":\"red\"}"));

    Reply beta = api.get("/apis/ctk.example.com/v1beta1/namespaces/default/widgets/w1");
    Reply alpha = api.get("/apis/ctk.example.com/v1alpha1/namespaces/default/widgets/w1");

    assertThat(beta.json().path("apiVersion").asText()).isEqualTo("ctk.example.com/v1beta1");
    assertThat(beta.json().path("spec")).isEqualTo(json("{\"color\":\"red\",\"size\":3}"));
    assertThat(alpha.code()).isEqualTo(404);
    // no CRD serves the version: kube's HTTP mux answers, in plain text
    assertThat(alpha.body()).isEqualTo("404 page not found\n");
  }

  @Test
  void nonStructuralSchema_isRejectedWithKubesCauses() {
    Reply reply = api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
         "metadata":{"name":"gadgets.ctk.example.com"},
         "spec":{"group":"ctk.example.com","scope":"Namespaced",
                 "names":{"kind":"Gadget","plural":"gadgets"},
                 "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{
                   "type":"object","properties":{"spec":{"properties":{"items":{"type":"array"}}}}}}}]}}""");

    String base = "spec.versions[0].schema.openAPIV3Schema.properties[spec]";
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":%s,"reason":"Invalid",
         "details":{"name":"gadgets.ctk.example.com","group":"apiextensions.k8s.io","kind":"CustomResourceDefinition",
           "causes":[{"reason":"FieldValueRequired","message":"Required value: must be specified",
                      "field":"%s.properties[items].items"},
                     {"reason":"FieldValueRequired","message":"Required value: must not be empty for specified object fields",
                      "field":"%s.type"}]},
         "code":422}""".formatted(TextNode.valueOf("CustomResourceDefinition.apiextensions.k8s.io "
        + "\"gadgets.ctk.example.com\" is invalid: [" + base + ".properties[items].items: Required value: must be "
        + "specified, " + base + ".type: Required value: must not be empty for specified object fields]"),
        base, base)));
  }

  private static String widget(String name, String spec) {
    return "{\"apiVersion\":\"ctk.example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"" + name + "\"},"
        + "\"spec\":" + spec + "}";
  }

  private record Cause(String reason, String field, String message) {
  }

  private static Cause cause(String reason, String field, String message) {
    return new Cause(reason, field, message);
  }

  /** The whole 422 Status kube sends for these causes. */
  private static JsonNode invalid(String name, Cause... causes) {
    ObjectNode status = (ObjectNode) json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","reason":"Invalid","code":422}""");
    StringBuilder joined = new StringBuilder();
    for (Cause c : causes) {
      joined.append(joined.length() == 0 ? "" : ", ").append(c.field()).append(": ").append(c.message());
    }
    status.put("message", "Widget.ctk.example.com \"" + name + "\" is invalid: "
        + (causes.length == 1 ? joined : "[" + joined + "]"));
    ObjectNode details = status.putObject("details");
    details.put("name", name).put("group", "ctk.example.com").put("kind", "Widget");
    for (Cause c : causes) {
      details.withArray("causes").addObject().put("reason", c.reason()).put("message", c.message())
          .put("field", c.field());
    }
    return status;
  }

  static CustomResourceDefinition widgetCrd() {
    try (InputStream in = CrdSchemaTest.class.getResourceAsStream("/crds/widget-crd.yaml")) {
      return new KubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
