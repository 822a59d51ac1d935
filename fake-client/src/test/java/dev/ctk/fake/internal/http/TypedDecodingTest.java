package dev.ctk.fake.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import org.junit.jupiter.api.Test;

/**
 * {@link TypedDecoding#mismatch} on a tracked object: a {@code fieldsV1} object is skipped whole (its contents never
 * mismatch), and a check goes on after it; anything else in its place is refused as a field of the wrong type.
 */
class TypedDecodingTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ResourceType CONFIG_MAPS = new ResourceRegistry().byPath("", "v1", "configmaps")
      .orElseThrow();

  private static ObjectNode configMap(String fieldsV1, String data) throws Exception {
    return (ObjectNode) JSON.readTree("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\","
        + "\"managedFields\":[{\"manager\":\"m\",\"operation\":\"Update\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":"
        + fieldsV1 + ",\"time\":\"2026-01-01T00:00:00Z\"}]},\"data\":" + data + "}");
  }

  @Test
  void aTrackedObject_withNestedFieldSets_hasNoMismatch() throws Exception {
    // "operation": 5 would be a number in a string field if the set's members were read as the entry's own
    ObjectNode object = configMap("{\"f:data\":{\".\":{},\"f:k\":{}},\"f:metadata\":{\"f:labels\":{\"f:a\":{}}},"
        + "\"operation\":5}", "{\"k\":\"v\"}");

    assertThat(TypedDecoding.mismatch(CONFIG_MAPS, object)).isEmpty();
  }

  @Test
  void aWrongType_afterASkippedFieldSet_isStillFound() throws Exception {
    ObjectNode object = configMap("{\"f:data\":{\"f:k\":{\"deep\":[1,{\"x\":2}]}},\"f:n\":5}", "{\"k\":5}");

    assertThat(TypedDecoding.mismatch(CONFIG_MAPS, object)).get().extracting(TypedDecoding.Mismatch::jsonError)
        .isEqualTo("json: cannot unmarshal number into Go struct field ConfigMap.data of type string");
  }

  @Test
  void aFieldSetThatIsNoObject_isAFieldOfTheWrongType() throws Exception {
    ObjectNode object = configMap("\"f:data\"", "{\"k\":\"v\"}");

    assertThat(TypedDecoding.mismatch(CONFIG_MAPS, object)).get().extracting(TypedDecoding.Mismatch::jsonError)
        .isEqualTo("json: cannot unmarshal string into Go struct field ManagedFieldsEntry.metadata.managedFields"
            + ".fieldsV1 of type v1.FieldsV1");
  }
}
