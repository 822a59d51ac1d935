package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static dev.ctk.fake.testing.Fixtures.network;
import static dev.ctk.fake.testing.Fixtures.networkCrd;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Label selectors, field selectors, limit/continue and list metadata. */
class ListSelectorsAndPagingTest {

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withObjects(
        configMap("a", Map.of("app", "web", "tier", "front"), Map.of()),
        configMap("b", Map.of("app", "web", "tier", "back"), Map.of()),
        configMap("c", Map.of("app", "db"), Map.of()),
        configMap("d", Map.of(), Map.of())).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @ParameterizedTest(name = "{0} selects {1}")
  @CsvSource(delimiter = '|', value = {
      "app=web              | a,b",
      "app==web             | a,b",
      "app!=web             | c,d",
      "app in (web,db)      | a,b,c",
      "app notin (web)      | c,d",
      "tier                 | a,b",
      "!tier                | c,d",
      "app=web,tier=back    | b",
      "app=web,!tier        | ''"
  })
  void labelSelector(String selector, String expected) {
    Reply reply = api.get("/api/v1/namespaces/default/configmaps?labelSelector=" + encode(selector));
    assertThat(reply.code()).isEqualTo(200);
    assertThat(names(reply.json())).isEqualTo(expected.isEmpty() ? List.of() : List.of(expected.split(",")));
  }

  @Test
  void labelSelector_throughFabric8() {
    assertThat(cluster.client().configMaps().withLabel("app", "web").list().getItems())
        .extracting(c -> c.getMetadata().getName()).containsExactly("a", "b");
    assertThat(cluster.client().configMaps().withLabelIn("app", "db").list().getItems())
        .extracting(c -> c.getMetadata().getName()).containsExactly("c");
    assertThat(cluster.client().configMaps().withoutLabel("tier").list().getItems())
        .extracting(c -> c.getMetadata().getName()).containsExactly("c", "d");
  }

  @Test
  void fieldSelector_metadataNameAndNamespace() {
    assertThat(names(api.get("/api/v1/configmaps?fieldSelector=metadata.name%3Db").json())).containsExactly("b");
    assertThat(names(api.get("/api/v1/configmaps?fieldSelector=metadata.name!%3Db,metadata.namespace%3Ddefault")
        .json())).containsExactly("a", "c", "d");
    assertThat(names(api.get("/api/v1/configmaps?fieldSelector=metadata.namespace%3Dkube-system").json())).isEmpty();
    assertThat(cluster.client().configMaps().withField("metadata.name", "c").list().getItems()).hasSize(1);
  }

  @Test
  void fieldSelector_unsupportedField_isBadRequest() {
    Reply reply = api.get("/api/v1/namespaces/default/configmaps?fieldSelector=spec.foo%3Dx");
    assertThat(reply.code()).isEqualTo(400);
    assertThat(reply.json().path("reason").asText()).isEqualTo("BadRequest");
    assertThat(reply.json().path("message").asText())
        .isEqualTo("\"spec.foo\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
  }

  @Test
  void badLabelSelector_isBadRequest() {
    Reply reply = api.get("/api/v1/namespaces/default/configmaps?labelSelector=" + encode("app in web"));
    assertThat(reply.code()).isEqualTo(400);
    assertThat(reply.json().path("reason").asText()).isEqualTo("BadRequest");
    assertThat(reply.json().path("message").asText()).startsWith("unable to parse requirement");
  }

  @Test
  void list_metadata_carriesGlobalResourceVersionAndKind() {
    JsonNode list = api.get("/api/v1/namespaces/default/configmaps").json();
    assertThat(list.path("kind").asText()).isEqualTo("ConfigMapList");
    assertThat(list.path("apiVersion").asText()).isEqualTo("v1");
    assertThat(list.path("metadata").path("resourceVersion").asText()).isEqualTo(cluster.resourceVersion());
    assertThat(list.path("metadata").has("continue")).isFalse();
  }

  @Test
  void pagination_limitAndContinue_isOneConsistentSnapshot() {
    Reply first = api.get("/api/v1/namespaces/default/configmaps?limit=3");
    JsonNode meta = first.json().path("metadata");
    assertThat(names(first.json())).containsExactly("a", "b", "c");
    assertThat(meta.path("remainingItemCount").asLong()).isEqualTo(1);
    String snapshotRv = meta.path("resourceVersion").asText();

    cluster.create(configMap("e", Map.of()));
    cluster.client().configMaps().withName("d").delete();

    Reply second = api.get("/api/v1/namespaces/default/configmaps?limit=3&continue="
        + encode(meta.path("continue").asText()));
    assertThat(names(second.json())).containsExactly("d");
    assertThat(second.json().path("metadata").path("resourceVersion").asText()).isEqualTo(snapshotRv);
    assertThat(second.json().path("metadata").has("continue")).isFalse();
  }

  @Test
  void pagination_throughFabric8_visitsEveryItemOnce() {
    List<String> seen = new ArrayList<>();
    String token = null;
    do {
      ConfigMapList page = cluster.client().configMaps().list(new ListOptionsBuilder().withLimit(2L)
          .withContinue(token).build());
      page.getItems().forEach(c -> seen.add(c.getMetadata().getName()));
      token = page.getMetadata().getContinue();
    } while (token != null && !token.isEmpty());
    assertThat(seen).containsExactly("a", "b", "c", "d");
  }

  @Test
  void continueToken_ofAnotherResource_isBadRequest() {
    String token = api.get("/api/v1/namespaces/default/configmaps?limit=1").json().path("metadata")
        .path("continue").asText();
    Reply reply = api.get("/api/v1/namespaces/default/secrets?limit=1&continue=" + encode(token));
    assertThat(reply.code()).isEqualTo(400);
    assertThat(reply.json().path("message").asText())
        .isEqualTo("continue key is not valid: it continues a list of /configmaps, not of /secrets");
  }

  @Test
  void pagination_withSelector_omitsRemainingItemCount() {
    JsonNode first = api.get("/api/v1/namespaces/default/configmaps?limit=1&labelSelector=app%3Dweb").json();
    assertThat(names(first)).containsExactly("a");
    assertThat(first.path("metadata").has("continue")).isTrue();
    assertThat(first.path("metadata").has("remainingItemCount")).isFalse();
  }

  @Test
  void continueToken_unknown_isExpired_malformed_isBadRequest() {
    Reply bad = api.get("/api/v1/namespaces/default/configmaps?limit=1&continue=%21%21");
    assertThat(bad.code()).isEqualTo(400);
    assertThat(bad.json().path("message").asText()).startsWith("continue key is not valid: ");

    String unknown = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
        "{\"v\":\"meta.k8s.io/v1\",\"rv\":1,\"snapshot\":999,\"offset\":1}".getBytes(StandardCharsets.UTF_8));
    Reply expired = api.get("/api/v1/namespaces/default/configmaps?limit=1&continue=" + unknown);
    assertThat(expired.code()).isEqualTo(410);
    assertThat(expired.json().path("reason").asText()).isEqualTo("Expired");
    assertThat(expired.json().path("message").asText()).isEqualTo("The provided continue parameter is too old to "
        + "display a consistent list result. You can start a new list without the continue parameter.");
  }

  @Test
  void continueToken_withAResourceVersion_isBadRequest_unlessItIsZero() {
    String token = api.get("/api/v1/namespaces/default/configmaps?limit=1").json().path("metadata")
        .path("continue").asText();

    Reply withVersion = api.get("/api/v1/namespaces/default/configmaps?limit=1&resourceVersion=1&continue="
        + encode(token));
    Reply withZero = api.get("/api/v1/namespaces/default/configmaps?limit=1&resourceVersion=0&continue="
        + encode(token));

    assertThat(withVersion.code()).isEqualTo(400);
    assertThat(withVersion.json()).isEqualTo(RawApi.json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"specifying resource version is not allowed when using continue","reason":"BadRequest",
         "code":400}"""));
    assertThat(withZero.code()).isEqualTo(200);
    assertThat(names(withZero.json())).containsExactly("b");
  }

  @Test
  void listItems_ofABuiltInKind_carryNoKindAndApiVersion_asKubesTypedLists() {
    JsonNode list = api.get("/api/v1/namespaces/default/configmaps?labelSelector=app%3Ddb").json();

    assertThat(list.path("kind").asText() + " " + list.path("apiVersion").asText()).isEqualTo("ConfigMapList v1");
    List<String> fields = new ArrayList<>();
    list.path("items").get(0).fieldNames().forEachRemaining(fields::add);
    assertThat(fields).as("no kind, no apiVersion (and no empty data)").containsExactly("metadata");
  }

  @Test
  void listItems_ofACustomResource_keepKindAndApiVersion_asKubesUnstructuredLists() {
    try (FakeCluster withCrd = FakeCluster.builder().withCrds(networkCrd())
        .withObjects(network("net-a", "10.0.0.0/24")).build()) {
      JsonNode item = new RawApi(withCrd.url()).get("/apis/samplecrd.k8s.io/v1/namespaces/default/networks").json()
          .path("items").get(0);

      assertThat(item.path("kind").asText() + " " + item.path("apiVersion").asText())
          .isEqualTo("Network samplecrd.k8s.io/v1");
    }
  }

  private static List<String> names(JsonNode list) {
    List<String> names = new ArrayList<>();
    list.path("items").forEach(i -> names.add(i.path("metadata").path("name").asText()));
    return names;
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
