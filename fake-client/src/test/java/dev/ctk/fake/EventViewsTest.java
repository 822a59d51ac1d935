package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** core/v1 and events.k8s.io/v1 Events are one stored object under two shapes, as in kube-apiserver. */
class EventViewsTest {

  private static final String CORE = "/api/v1/namespaces/default/events";
  private static final String EVENTS = "/apis/events.k8s.io/v1/namespaces/default/events";

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
  void coreEvent_readThroughEventsApi_withKubesFieldNames_andImmutableThroughIt() {
    api.post(CORE, """
        {"metadata":{"name":"started"},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},
         "reason":"Started","message":"started it","type":"Normal","source":{"component":"kubelet"},
         "firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:00:05Z","count":3}""");

    assertThat(withoutMetadata(api.get(EVENTS + "/started").json())).isEqualTo(json("""
        {"apiVersion":"events.k8s.io/v1","kind":"Event","eventTime":null,"reason":"Started",
         "regarding":{"kind":"Pod","name":"p","namespace":"default"},"note":"started it","type":"Normal",
         "deprecatedSource":{"component":"kubelet"},"deprecatedFirstTimestamp":"2026-01-01T00:00:00Z",
         "deprecatedLastTimestamp":"2026-01-01T00:00:05Z","deprecatedCount":3}"""));
    RawApi.Reply immutable = api.patch(EVENTS + "/started", "application/merge-patch+json",
        "{\"note\":\"restarted it\",\"deprecatedCount\":4,\"deprecatedFirstTimestamp\":\"2026-01-02T00:00:00Z\"}");
    assertThat(immutable.code() + " " + immutable.json().path("message").asText()).isEqualTo("422 Event \"started\" "
        + "is invalid: [message: Invalid value: \"restarted it\": field is immutable, firstTimestamp: Invalid value: "
        + "2026-01-02 00:00:00 +0000 UTC: field is immutable, count: Invalid value: 4: field is immutable]");
    assertThat(withoutMetadata(api.get(CORE + "/started").json())).isEqualTo(json("""
        {"apiVersion":"v1","kind":"Event","involvedObject":{"kind":"Pod","name":"p","namespace":"default"},
         "reason":"Started","message":"started it","type":"Normal","source":{"component":"kubelet"},
         "firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:00:05Z","count":3,
         "eventTime":null,"reportingComponent":"","reportingInstance":""}"""));
  }

  @Test
  void eventsApiEvent_readThroughCore_patchedThroughCore_andANoOpPatchChangesNothing() {
    api.post(EVENTS, """
        {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"pulled"},
         "regarding":{"kind":"Pod","name":"p","namespace":"default"},"reason":"Pulled","note":"pulled it",
         "type":"Normal","action":"Pull","reportingController":"kubelet","reportingInstance":"node-1",
         "eventTime":"2026-01-01T00:00:00.000000Z"}""");

    assertThat(withoutMetadata(api.get(CORE + "/pulled").json())).isEqualTo(json("""
        {"apiVersion":"v1","kind":"Event","involvedObject":{"kind":"Pod","name":"p","namespace":"default"},
         "reason":"Pulled","message":"pulled it","type":"Normal","action":"Pull","source":{},
         "firstTimestamp":null,"lastTimestamp":null,"eventTime":"2026-01-01T00:00:00.000000Z",
         "reportingComponent":"kubelet","reportingInstance":"node-1"}"""));

    RawApi.Reply patched = api.patch(CORE + "/pulled", "application/merge-patch+json",
        "{\"message\":\"pulled again\",\"count\":2}");
    assertThat(patched.code()).isEqualTo(200);
    RawApi.Reply core = api.get(EVENTS + "/pulled");
    assertThat(core.json().path("note").asText() + " " + core.json().path("deprecatedCount").asText())
        .isEqualTo("pulled again 2");
    assertThat(core.json().at("/metadata/resourceVersion"))
        .isEqualTo(patched.json().at("/metadata/resourceVersion"));
    String before = core.json().at("/metadata/resourceVersion").asText();
    RawApi.Reply unchanged = api.patch(EVENTS + "/pulled", "application/merge-patch+json",
        "{\"deprecatedSource\":{},\"deprecatedFirstTimestamp\":null}");
    assertThat(unchanged.json().at("/metadata/resourceVersion").asText()).isEqualTo(before);
  }

  @Test
  void oneCollection_listedWatchedAndDeletedThroughEitherApi() {
    api.post(CORE, "{\"metadata\":{\"name\":\"a\"},\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\"}}");
    api.post(EVENTS, "{\"metadata\":{\"name\":\"b\"},\"regarding\":{\"kind\":\"Pod\",\"name\":\"p\"},"
        + "\"eventTime\":\"2026-01-01T00:00:00.000000Z\"}");

    assertThat(names(api.get(CORE))).isEqualTo("[a, b]");
    assertThat(names(api.get(EVENTS))).isEqualTo("[a, b]");
    assertThat(api.get(EVENTS).json().at("/items/0/regarding/name").asText()).isEqualTo("p");

    assertThat(api.delete(EVENTS + "/a").code()).isEqualTo(200);
    assertThat(api.get(CORE + "/a").code()).isEqualTo(404);
  }

  private static String names(RawApi.Reply list) {
    java.util.List<String> names = new java.util.ArrayList<>();
    list.json().path("items").forEach(item -> names.add(item.at("/metadata/name").asText()));
    return names.toString();
  }

  private static ObjectNode withoutMetadata(com.fasterxml.jackson.databind.JsonNode event) {
    ObjectNode copy = (ObjectNode) event.deepCopy();
    copy.remove("metadata");
    return copy;
  }
}
