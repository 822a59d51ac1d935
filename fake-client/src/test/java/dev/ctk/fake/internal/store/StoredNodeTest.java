package dev.ctk.fake.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link StoredNode}: stored versions written alike share their {@code managedFields} field sets and short texts,
 * and a copy made to change one (as every write does) leaves the others as they were.
 */
class StoredNodeTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode configMap(String name, String key) throws Exception {
    return (ObjectNode) JSON.readTree("""
        {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"%s","namespace":"default",
         "creationTimestamp":"2026-11-27T01:00:00Z","managedFields":[{"manager":"fabric8-kubernetes-client",
         "operation":"Update","apiVersion":"v1","time":"2026-11-27T01:00:00Z","fieldsType":"FieldsV1",
         "fieldsV1":{"f:data":{".":{},"f:%s":{}}}}]},"data":{"%s":"v"}}""".formatted(name, key, key));
  }

  private static JsonNode entry(ObjectNode stored) {
    return stored.path("metadata").path("managedFields").get(0);
  }

  @Test
  void versions_written_alike_share_their_field_sets_and_texts_but_not_their_own_values() throws Exception {
    // WHEN
    StoredNode a = StoredNode.copyOf(configMap("a", "k")).shareCommonParts();
    StoredNode b = StoredNode.copyOf(configMap("b", "k")).shareCommonParts();
    StoredNode other = StoredNode.copyOf(configMap("c", "other")).shareCommonParts();
    // THEN
    assertThat(entry(a).get("fieldsV1")).isSameAs(entry(b).get("fieldsV1"));
    assertThat(entry(a).get("manager")).isSameAs(entry(b).get("manager"));
    assertThat(entry(a).get("time")).isSameAs(entry(b).get("time"));
    assertThat(a.path("metadata").get("namespace")).isSameAs(b.path("metadata").get("namespace"));
    assertThat(entry(other).get("fieldsV1")).isNotSameAs(entry(a).get("fieldsV1"));
    assertThat(a.path("metadata").get("name")).isNotSameAs(b.path("metadata").get("name"));
    assertThat(a).isEqualTo(configMap("a", "k"));
  }

  @Test
  void a_copy_made_to_change_one_version_leaves_the_others_as_they_were() throws Exception {
    // GIVEN two versions sharing a field set
    StoredNode a = StoredNode.copyOf(configMap("a", "k")).shareCommonParts();
    StoredNode b = StoredNode.copyOf(configMap("b", "k")).shareCommonParts();
    // WHEN a write changes a copy of a's field set, as the store's writes do
    ObjectNode next = a.deepCopy();
    ((ObjectNode) next.path("metadata").path("managedFields").get(0).path("fieldsV1").path("f:data"))
        .putObject("f:added");
    StoredNode c = StoredNode.copyOf(next).shareCommonParts();
    // THEN
    assertThat(entry(b).get("fieldsV1").path("f:data").has("f:added")).isFalse();
    assertThat(entry(a).get("fieldsV1").path("f:data").has("f:added")).isFalse();
    assertThat(entry(c).get("fieldsV1").path("f:data").has("f:added")).isTrue();
    assertThat(next.getClass()).isEqualTo(ObjectNode.class);
  }

  @Test
  void one_serialization_serves_a_write_s_events_and_answer_and_never_another_version() throws Exception {
    // GIVEN two stored versions
    StoredNode a = StoredNode.copyOf(configMap("a", "k")).shareCommonParts();
    StoredNode b = StoredNode.copyOf(configMap("b", "k")).shareCommonParts();
    // WHEN a's JSON is asked twice in a row (two watch events) and taken (the answer), then again; then b's, then a's
    byte[] first = a.json();
    byte[] again = a.json();
    byte[] taken = a.takeJson();
    byte[] afterTaken = a.json();
    byte[] ofB = b.json();
    byte[] afterB = a.json();
    b.json();
    byte[] takenAfterB = a.takeJson();
    // THEN the bytes are the tree's, written once for the events and the answer, and never another version's
    assertThat(again).isSameAs(first);
    assertThat(taken).isSameAs(first);
    assertThat(afterTaken).isEqualTo(first).isNotSameAs(first);
    assertThat(first).isEqualTo(JSON.writeValueAsBytes(configMap("a", "k")));
    assertThat(ofB).isEqualTo(JSON.writeValueAsBytes(configMap("b", "k")));
    assertThat(afterB).isEqualTo(first).isNotSameAs(afterTaken);
    assertThat(takenAfterB).isEqualTo(first);
  }

  @Test
  void a_character_outside_the_basic_plane_is_written_as_its_utf8_bytes_as_go_writes_it() throws Exception {
    // GIVEN a value with an emoji
    ObjectNode object = configMap("a", "k");
    ((ObjectNode) object.get("data")).put("k", "hi \ud83d\udc4b");
    // WHEN
    String json = new String(StoredNode.copyOf(object).json(), StandardCharsets.UTF_8);
    // THEN
    assertThat(json).contains("\"k\":\"hi \ud83d\udc4b\"").doesNotContain("\\uD83D");
  }
}
