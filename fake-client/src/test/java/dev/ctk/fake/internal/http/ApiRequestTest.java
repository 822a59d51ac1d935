package dev.ctk.fake.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ApiRequest#describe}'s body resourceVersion, which the journal records for updates and patches: a JSON
 * object is read as a stream, and must give what a decoded tree gives for every shape of body (each row is checked
 * against its expected value and against the tree's).
 */
class ApiRequestTest {

  private static final String PATH = "/api/v1/namespaces/default/configmaps/web";
  private static final ResourceRegistry REGISTRY = new ResourceRegistry();

  private static String resourceVersionOf(String method, String contentType, String body) {
    ApiRequest request = ApiRequest.of(method, PATH, Map.of("content-type", contentType),
        body.getBytes(StandardCharsets.UTF_8));
    return request.describe(1, Instant.EPOCH, REGISTRY).bodyResourceVersion();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', nullValues = "NONE", textBlock = """
      metadata first                | {"metadata":{"name":"web","resourceVersion":"42"},"data":{"k":"v"}}  | 42
      metadata after nested data    | {"data":{"metadata":{"resourceVersion":"1"}},"metadata":{"resourceVersion":"7"}} | 7
      a list before metadata        | {"items":[{"metadata":{"resourceVersion":"1"}}],"metadata":{"resourceVersion":"8"}} | 8
      the last metadata wins        | {"metadata":{"resourceVersion":"1"},"metadata":{"name":"web"}}       | NONE
      the last resourceVersion wins | {"metadata":{"resourceVersion":"1","resourceVersion":"2"}}         | 2
      a number                      | {"metadata":{"resourceVersion":12}}                                  | 12
      true                          | {"metadata":{"resourceVersion":true}}                                | true
      null                          | {"metadata":{"resourceVersion":null}}                                | NONE
      empty                         | {"metadata":{"resourceVersion":""}}                                  | NONE
      an object                     | {"metadata":{"resourceVersion":{"v":"3"}}}                           | NONE
      metadata not an object        | {"metadata":"resourceVersion"}                                       | NONE
      no metadata                   | {"data":{"resourceVersion":"3"}}                                     | NONE
      truncated after the value     | {"metadata":{"resourceVersion":"5"},"data":{"k":                     | NONE
      a string body                 | "resourceVersion"                                                    | NONE
      leading whitespace            | '  {"metadata":{"resourceVersion":"6"}}'                             | 6
      trailing garbage              | {"metadata":{"resourceVersion":"6"}} x                               | 6
      metadata an array             | {"metadata":[{"resourceVersion":"6"}]}                               | NONE
      a float                       | {"metadata":{"resourceVersion":1.50}}                                | 1.5
      """)
  void anUpdatesResourceVersion_isWhatItsDecodedBodySays(String shape, String body, String expected) {
    String streamed = resourceVersionOf("PUT", "application/json", body);

    assertThat(streamed).as(shape).isEqualTo(expected).isEqualTo(fromTree(body));
  }

  @Test
  void aJsonPatch_isDecoded_andItsLastTestOrReplaceOfTheResourceVersionCounts() {
    String patch = "[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"9\"},"
        + "{\"op\":\"add\",\"path\":\"/metadata/resourceVersion\",\"value\":\"8\"},"
        + "{\"op\":\"replace\",\"path\":\"/metadata/resourceVersion\",\"value\":\"10\"}]";

    assertThat(resourceVersionOf("PATCH", "application/json-patch+json", patch)).isEqualTo("10");
  }

  @Test
  void aBodyWithAByteOrderMark_isReadAsItsTreeIs() {
    String body = "\uFEFF{\"metadata\":{\"resourceVersion\":\"11\"}}";

    assertThat(resourceVersionOf("PUT", "application/json", body)).isEqualTo("11").isEqualTo(fromTree(body));
  }

  /** What a decoded object gives, as the record read it before the stream: the oracle of the table above. */
  private static String fromTree(String body) {
    JsonNode tree;
    try {
      tree = JsonCodec.JSON.readTree(body.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      return null;
    }
    JsonNode rv = tree.path("metadata").path("resourceVersion");
    return rv.isValueNode() && !rv.isNull() && !rv.asText().isEmpty() ? rv.asText() : null;
  }

  @Test
  void aMergePatch_isReadAsJson_andAYamlBody_isDecoded() {
    assertThat(resourceVersionOf("PATCH", "application/merge-patch+json",
        "{\"metadata\":{\"resourceVersion\":\"3\"}}")).isEqualTo("3");
    assertThat(resourceVersionOf("PATCH", "application/apply-patch+yaml",
        "metadata:\n  resourceVersion: \"4\"\n")).isEqualTo("4");
  }

  @Test
  void aCreate_recordsNoBodyResourceVersion() {
    assertThat(resourceVersionOf("POST", "application/json", "{\"metadata\":{\"resourceVersion\":\"3\"}}"))
        .isNull();
  }
}
