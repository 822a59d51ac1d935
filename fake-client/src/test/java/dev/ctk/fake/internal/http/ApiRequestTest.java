package dev.ctk.fake.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.internal.registry.ResourceRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ApiRequest#describe}'s body resourceVersion, which the journal records for updates and patches: a JSON
 * object is read as a stream, and must give what a decoded tree gives for every shape of body.
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
      a json patch                  | [{"op":"test","path":"/metadata/resourceVersion","value":"9"}]       | 9
      """)
  void anUpdatesResourceVersion_isWhatItsDecodedBodySays(String shape, String body, String expected) {
    assertThat(resourceVersionOf("PUT", "application/json", body)).as(shape).isEqualTo(expected);
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
