package dev.ctk.fake.internal.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Field sets: the {@code fieldsV1} format, kube's set operations and path texts, and the sets of values. */
class FieldSetTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<PathElement> path(Object... parts) {
    List<PathElement> out = new ArrayList<>();
    for (Object part : parts) {
      out.add(part instanceof PathElement pe ? pe : PathElement.field((String) part));
    }
    return out;
  }

  private static PathElement key(String name, JsonNode value) {
    return PathElement.key(List.of(new PathElement.KeyField(name, value)));
  }

  /** The fieldsV1 of a Deployment created with kubectl: members, children, both ("."), keys and values. */
  private static final String KUBECTL_CREATE = """
      {"f:metadata":{"f:finalizers":{".":{},"v:\\"a/b\\"":{}},"f:labels":{".":{},"f:app":{}}},
       "f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{
         ".":{},"f:image":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},
         "f:containerPort":{}}}}}}}}}""";

  @Test
  void fieldsV1_roundTrips_inKubesMemberOrder() {
    FieldSet set = FieldSet.fromFieldsV1(json(KUBECTL_CREATE));

    assertThat(set.toFieldsV1()).isEqualTo(json(KUBECTL_CREATE));
    assertThat(set.toFieldsV1().toString()).isEqualTo(json(KUBECTL_CREATE).toString());
    assertThat(set.has(path("spec", "replicas"))).isTrue();
    assertThat(set.has(path("metadata", "labels"))).isTrue();
    assertThat(set.has(path("spec"))).isFalse();
  }

  @Test
  void paths_listMembersBeforeChildren_asKubePrintsThem() {
    FieldSet set = FieldSet.fromFieldsV1(json(KUBECTL_CREATE));

    assertThat(set.toString()).isEqualTo(String.join("\n",
        ".metadata.finalizers",
        ".metadata.labels",
        ".metadata.finalizers[=\"a/b\"]",
        ".metadata.labels.app",
        ".spec.replicas",
        ".spec.selector",
        ".spec.template.spec.containers[name=\"nginx\"]",
        ".spec.template.spec.containers[name=\"nginx\"].image",
        ".spec.template.spec.containers[name=\"nginx\"].ports",
        ".spec.template.spec.containers[name=\"nginx\"].ports[containerPort=80,protocol=\"TCP\"]",
        ".spec.template.spec.containers[name=\"nginx\"].ports[containerPort=80,protocol=\"TCP\"].containerPort"));
  }

  @Test
  void pathElements_orderFieldsKeysValuesIndexes_andSerializeLikeKube() {
    List<PathElement> sorted = new ArrayList<>(List.of(PathElement.index(0), PathElement.value(TextNode.valueOf("x")),
        key("name", TextNode.valueOf("a")), PathElement.field("z")));
    sorted.sort(null);

    assertThat(sorted).extracting(PathElement::serialize)
        .containsExactly("f:z", "k:{\"name\":\"a\"}", "v:\"x\"", "i:0");
    assertThat(key("name", TextNode.valueOf("<a&b>")).serialize()).isEqualTo("k:{\"name\":\"\\u003ca\\u0026b\\u003e\"}");
    assertThat(PathElement.key(List.of(new PathElement.KeyField("protocol", TextNode.valueOf("TCP")),
        new PathElement.KeyField("containerPort", IntNode.valueOf(80)))).toString())
        .isEqualTo("[containerPort=80,protocol=\"TCP\"]");
    assertThat(PathElement.parse("k:{\"port\":80,\"name\":\"x\"}")).isEqualTo(PathElement.key(List.of(
        new PathElement.KeyField("name", TextNode.valueOf("x")), new PathElement.KeyField("port", IntNode.valueOf(80)))));
    assertThat(PathElement.parse("z:unknown")).isNull();
    assertThatThrownBy(() -> PathElement.parse("fx")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("missing colon: fx");
  }

  @Test
  void difference_isPerMember_recursiveDifference_dropsWhatIsBelow() {
    FieldSet set = FieldSet.of(List.of(path("spec"), path("spec", "replicas"), path("spec", "paused")));
    FieldSet spec = FieldSet.of(List.of(path("spec")));

    assertThat(set.difference(spec).toString()).isEqualTo(".spec.paused\n.spec.replicas");
    assertThat(set.recursiveDifference(spec).isEmpty()).isTrue();
    assertThat(set.intersection(FieldSet.of(List.of(path("spec", "paused"), path("status")))).toString())
        .isEqualTo(".spec.paused");
    assertThat(set.union(FieldSet.of(List.of(path("status")))).toString())
        .isEqualTo(".spec\n.status\n.spec.paused\n.spec.replicas");
  }

  @Test
  void setOfAValue_hasScalarsEmptyObjectsNullsAndItems_butNotTheStructsAbove() {
    JsonNode deployment = json("""
        {"metadata":{"labels":{"app":"web"}},
         "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"paused":null,
           "template":{"spec":{"securityContext":{},"containers":[{"name":"main","env":[{"name":"A","value":"1"}]}]}}}}""");

    FieldSet set = FieldSets.of(deployment, BuiltinTypes.forType("Deployment"));

    assertThat(set.toString()).isEqualTo(String.join("\n",
        ".metadata.labels.app",
        ".spec.paused",
        ".spec.replicas",
        ".spec.selector",
        ".spec.template.spec.securityContext",
        ".spec.template.spec.containers[name=\"main\"]",
        ".spec.template.spec.containers[name=\"main\"].name",
        ".spec.template.spec.containers[name=\"main\"].env[name=\"A\"]",
        ".spec.template.spec.containers[name=\"main\"].env[name=\"A\"].name",
        ".spec.template.spec.containers[name=\"main\"].env[name=\"A\"].value"));
  }

  @Test
  void setOfACustomResource_makesFreeFormMapKeysMembers() {
    JsonNode crd = json("""
        {"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object","properties":{
          "spec":{"type":"object","properties":{"routes":{"type":"object","additionalProperties":{
            "type":"object","properties":{"port":{"type":"integer"}}}}}}}}}}]}}""");

    FieldSet set = FieldSets.of(json("{\"spec\":{\"routes\":{\"web\":{\"port\":80}}}}"),
        CrdTypes.forVersion(crd, "v1"));

    assertThat(set.toFieldsV1()).isEqualTo(json("{\"f:spec\":{\"f:routes\":{\"f:web\":{\".\":{},\"f:port\":{}}}}}"));
  }

  @Test
  void everyOperation_keepsNoEmptyNode_soIsEmptyAgreesWithThePaths() {
    FieldSet deep = FieldSet.of(List.of(path("spec", "template", "spec", "containers"),
        path("spec", "template", "metadata", "labels", "app"), path("status", "conditions")));
    FieldSet other = FieldSet.of(List.of(path("spec", "template", "spec", "volumes"), path("metadata", "name")));
    FieldSet spec = FieldSet.of(List.of(path("spec")));
    FieldSet statusWithin = FieldSet.fromFieldsV1(json("{\"f:status\":{\"f:conditions\":{}}}"));

    List<FieldSet> results = List.of(deep.difference(deep), deep.recursiveDifference(deep),
        deep.intersection(other), deep.recursiveDifference(spec).recursiveDifference(statusWithin),
        deep.difference(other), deep.union(other).difference(deep), deep.withPrefix(PathElement.field("metadata")),
        IgnoredFields.ALL_BUT_STATUS.filter(other), IgnoredFields.STATUS.filter(statusWithin),
        FieldSet.fromFieldsV1(json("{\"f:spec\":{\"f:template\":{}}}")).difference(
            FieldSet.of(List.of(path("spec", "template")))));

    for (FieldSet result : results) {
      assertThat(result.isEmpty()).as("isEmpty of %s", result.paths()).isEqualTo(result.paths().isEmpty());
      assertThat(result.toFieldsV1().isEmpty()).isEqualTo(result.paths().isEmpty());
    }
    assertThat(results.stream().filter(FieldSet::isEmpty).count()).as("most of them remove everything").isEqualTo(8);
    assertThat(Comparison.of(new TextNode("a"), new TextNode("b"), FieldType.DEDUCED).changed().isEmpty())
        .as("values compared at the root add no path").isTrue();
  }

  @Test
  void comparison_addsObjectsThatAppear_asMembersToo() {
    FieldType deployment = BuiltinTypes.forType("Deployment");
    Comparison c = Comparison.of(json("{\"spec\":{\"strategy\":{}}}"),
        json("{\"spec\":{\"strategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":1}}}}"), deployment);

    assertThat(c.added().toString()).isEqualTo(String.join("\n",
        ".spec.strategy.rollingUpdate",
        ".spec.strategy.type",
        ".spec.strategy.rollingUpdate.maxSurge"));
    assertThat(c.modified().isEmpty()).isTrue();
    assertThat(Comparison.of(json("{\"spec\":{\"replicas\":1}}"), json("{\"spec\":{\"replicas\":1.0}}"), deployment)
        .changed().isEmpty()).as("1 and 1.0 are the same value").isTrue();
  }

  @Test
  void namedFieldsBecomeMembers_onlyWhereTheSchemaDeclaresThem() {
    FieldSet set = FieldSet.of(List.of(path("spec", "template", "spec", "containers",
        key("name", TextNode.valueOf("main")), "image")));

    assertThat(set.withNamedFieldsAsMembers(BuiltinTypes.forType("Deployment")).toString())
        .isEqualTo(String.join("\n", ".spec", ".spec.template", ".spec.template.spec",
            ".spec.template.spec.containers", ".spec.template.spec.containers[name=\"main\"].image"));
    assertThat(set.withNamedFieldsAsMembers(FieldType.DEDUCED)).isEqualTo(set);
  }

  @Test
  void operations_leaveTheirOperandsAsTheyWere_thoughResultsShareParts() {
    FieldSet a = FieldSet.fromFieldsV1(json(KUBECTL_CREATE));
    FieldSet b = FieldSet.of(List.of(path("spec", "template", "spec", "hostname"), path("metadata", "labels", "tier"),
        path("spec", "replicas")));
    String aBefore = a.toFieldsV1().toString();
    String bBefore = b.toFieldsV1().toString();

    FieldSet union = a.union(b);
    FieldSet difference = union.difference(b);
    FieldSet recursive = union.recursiveDifference(FieldSet.of(List.of(path("metadata"))));

    assertThat(union.has(path("spec", "template", "spec", "hostname"))).isTrue();
    assertThat(union.has(path("spec", "template", "spec", "containers", key("name", TextNode.valueOf("nginx")),
        "image"))).isTrue();
    assertThat(difference.has(path("spec", "replicas"))).isFalse();
    assertThat(difference.has(path("metadata", "labels", "tier"))).isFalse();
    assertThat(difference.has(path("metadata", "labels", "app"))).isTrue();
    assertThat(recursive.has(path("metadata", "labels", "app"))).isFalse();
    assertThat(recursive.has(path("spec", "replicas"))).isTrue();
    assertThat(union.difference(new FieldSet())).isSameAs(union);
    assertThat(union.union(new FieldSet())).isSameAs(union);
    assertThat(a.toFieldsV1().toString()).isEqualTo(aBefore);
    assertThat(b.toFieldsV1().toString()).isEqualTo(bBefore);
    assertThat(union.toFieldsV1().toString()).contains("\"f:hostname\":{}", "\"f:tier\":{}", "\"f:image\":{}");
  }

  @Test
  void comparisons_leaveOutMetadataManagedFields_asIfStrippedBeforehand() {
    FieldType configMap = BuiltinTypes.forType("ConfigMap");
    JsonNode tracked = json("{\"metadata\":{\"managedFields\":[{\"manager\":\"a\"}]},\"data\":{\"k\":\"v\"}}");
    JsonNode retracked = json("{\"metadata\":{\"managedFields\":[{\"manager\":\"b\"}]},\"data\":{\"k\":\"v\"}}");
    JsonNode nullMetadata = json("{\"metadata\":null,\"data\":{\"k\":\"v\"}}");

    Comparison onlyManagedFieldsDiffer = Comparison.of(tracked, retracked, configMap);
    Comparison toNullMetadata = Comparison.of(tracked, nullMetadata, configMap);

    assertThat(onlyManagedFieldsDiffer.added().isEmpty()).isTrue();
    assertThat(onlyManagedFieldsDiffer.modified().isEmpty()).isTrue();
    assertThat(onlyManagedFieldsDiffer.removed().isEmpty()).isTrue();
    // stripped, the metadata is {} against null: a leaf that changed, as kube compares it
    assertThat(toNullMetadata.modified().toString()).isEqualTo(".metadata");
    assertThat(tracked.path("metadata").has("managedFields")).isTrue();
  }

  @Test
  void withoutManagedFields_leavesTheObjectAsItWas_andCopiesOnlyWhatItChanges() {
    ObjectNode tracked = (ObjectNode) json(
        "{\"metadata\":{\"name\":\"a\",\"managedFields\":[{\"manager\":\"a\"}]},\"data\":{\"k\":\"v\"}}");
    ObjectNode untracked = (ObjectNode) json("{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}");
    String before = tracked.toString();

    ObjectNode stripped = ManagedFields.withoutThem(tracked);

    assertThat(stripped).isEqualTo(untracked);
    assertThat(tracked.toString()).isEqualTo(before);
    assertThat(stripped.get("data")).isSameAs(tracked.get("data"));
    assertThat(ManagedFields.withoutThem(untracked)).isSameAs(untracked);
  }
}
