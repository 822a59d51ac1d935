package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static dev.ctk.fake.testing.Fixtures.network;
import static dev.ctk.fake.testing.Fixtures.networkCrd;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.RawApi;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The list answer (written item by item from the stored objects) reaches a client intact over both transports, the
 * same bytes over each, and leaves the stored objects as they were.
 */
class ListAnswerTest {

  @ParameterizedTest
  @EnumSource(ClientTransport.class)
  void aListOfBuiltInObjects_isTheSameBytesOverEitherTransport_withNonAsciiDataIntact(ClientTransport transport) {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).withObjects(
        configMap("a", Map.of("app", "web"), Map.of("text", "café € 日本 \uD83D\uDE80")),
        configMap("b", Map.of("app", "web"), Map.of("text", "naïve \"quoted\" \\ line\nbreak")),
        configMap("c", Map.of("app", "db"), Map.of())).build()) {
      KubernetesClient client = cluster.client();

      String viaClient = client.raw(cluster.clientConfig().getMasterUrl() + "api/v1/namespaces/default/configmaps");
      RawApi.Reply viaHttp = new RawApi(cluster.url()).get("/api/v1/namespaces/default/configmaps");

      assertThat(viaClient).isEqualTo(viaHttp.body());
      assertThat(viaHttp.contentType()).isEqualTo("application/json");
      JsonNode list = viaHttp.json();
      assertThat(list.path("kind").asText() + " " + list.path("apiVersion").asText()).isEqualTo("ConfigMapList v1");
      assertThat(list.path("metadata").path("resourceVersion").asText()).isEqualTo(cluster.resourceVersion());
      List<String> firstFields = new ArrayList<>();
      list.path("items").get(0).fieldNames().forEachRemaining(firstFields::add);
      assertThat(firstFields).containsExactly("metadata", "data");
      ConfigMapList typed = client.configMaps().inNamespace("default").list();
      assertThat(typed.getItems()).extracting(c -> c.getData().get("text"))
          .containsExactly("café € 日本 \uD83D\uDE80", "naïve \"quoted\" \\ line\nbreak", null);
      ConfigMap stored = client.configMaps().inNamespace("default").withName("a").get();
      assertThat(stored.getKind() + " " + stored.getApiVersion()).as("the stored object keeps kind and apiVersion")
          .isEqualTo("ConfigMap v1");
    }
  }

  @ParameterizedTest
  @EnumSource(ClientTransport.class)
  void pagesWithLimitAndContinue_visitEveryItemOnce_andCountTheRest(ClientTransport transport) {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).withObjects(
        configMap("a", Map.of()), configMap("b", Map.of()), configMap("c", Map.of()), configMap("d", Map.of()),
        configMap("e", Map.of())).build()) {
      List<String> seen = new ArrayList<>();
      List<String> pages = new ArrayList<>();
      String token = null;
      do {
        ConfigMapList page = cluster.client().configMaps().inNamespace("default")
            .list(new ListOptionsBuilder().withLimit(2L).withContinue(token).build());
        page.getItems().forEach(c -> seen.add(c.getMetadata().getName()));
        pages.add(page.getItems().size() + " remaining " + page.getMetadata().getRemainingItemCount());
        token = page.getMetadata().getContinue();
      } while (token != null && !token.isEmpty());

      assertThat(seen).containsExactly("a", "b", "c", "d", "e");
      assertThat(pages).containsExactly("2 remaining 3", "2 remaining 1", "1 remaining null");
    }
  }

  @ParameterizedTest
  @EnumSource(ClientTransport.class)
  void deleteCollection_answersTheDeletedObjectsAsAList(ClientTransport transport) {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).withObjects(
        configMap("a", Map.of("app", "web"), Map.of("k", "ü")), configMap("b", Map.of("app", "db"), Map.of()))
        .build()) {
      String answer = cluster.client().raw(cluster.clientConfig().getMasterUrl()
          + "api/v1/namespaces/default/configmaps?labelSelector=app%3Dweb", "DELETE", null);

      assertThat(answer).isEqualTo("{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":"
          + "{\"resourceVersion\":\"" + cluster.resourceVersion() + "\"},\"items\":[" + itemOf(answer, 0) + "]}");
      assertThat(itemOf(answer, 0)).startsWith("{\"metadata\":{\"labels\":{\"app\":\"web\"},\"name\":\"a\",")
          .contains("\"data\":{\"k\":\"ü\"}");
      assertThat(cluster.client().configMaps().inNamespace("default").list().getItems())
          .extracting(c -> c.getMetadata().getName()).containsExactly("b");
    }
  }

  @ParameterizedTest
  @EnumSource(ClientTransport.class)
  void aListOfCustomResources_keepsKindAndApiVersionOnItsItems(ClientTransport transport) {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).withCrds(networkCrd())
        .withObjects(network("net-a", "10.0.0.0/24"), network("net-b", "10.0.1.0/24")).build()) {
      String viaClient = cluster.client().raw(cluster.clientConfig().getMasterUrl()
          + "apis/samplecrd.k8s.io/v1/namespaces/default/networks");

      JsonNode list = RawApi.json(viaClient);
      assertThat(list.path("kind").asText()).isEqualTo("NetworkList");
      List<String> items = new ArrayList<>();
      list.path("items").forEach(i -> items.add(i.path("kind").asText() + " " + i.path("apiVersion").asText() + " "
          + i.path("metadata").path("name").asText()));
      assertThat(items).containsExactly("Network samplecrd.k8s.io/v1 net-a", "Network samplecrd.k8s.io/v1 net-b");
    }
  }

  /** The JSON text of item {@code index} of a list answer, re-serialized (same bytes: items are written as stored). */
  private static String itemOf(String list, int index) {
    return RawApi.json(list).path("items").get(index).toString();
  }

  @ParameterizedTest
  @EnumSource(ClientTransport.class)
  void aListWrittenFromKeptItemBytes_isTheSameAsTheFirst_andShowsEachNewVersion(ClientTransport transport)
      throws Exception {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).withObjects(
        configMap("a", Map.of("app", "web"), Map.of("text", "café € 日本")),
        configMap("b", Map.of("app", "web"), Map.of("k", "v"))).build()) {
      RawApi api = new RawApi(cluster.url());
      String first = api.get("/api/v1/namespaces/default/configmaps").body();
      // WHEN listed again (items from their kept bytes), then b changes
      String second = api.get("/api/v1/namespaces/default/configmaps").body();
      cluster.client().configMaps().inNamespace("default").withName("b")
          .edit(c -> new io.fabric8.kubernetes.api.model.ConfigMapBuilder(c).addToData("k", "v2").build());
      String third = api.get("/api/v1/namespaces/default/configmaps").body();
      String labelled = api.get("/api/v1/namespaces/default/configmaps?labelSelector=app%3Dweb").body();
      // THEN the concatenated answer is what the JSON serializer writes for the same tree
      assertThat(second).isEqualTo(first);
      assertThat(new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(RawApi.json(second)))
          .isEqualTo(second);
      JsonNode list = RawApi.json(third);
      assertThat(list.path("items").get(0)).isEqualTo(RawApi.json(first).path("items").get(0));
      assertThat(list.path("items").get(1).path("data").path("k").asText()).isEqualTo("v2");
      assertThat(list.path("items").get(1).path("metadata").path("resourceVersion").asText())
          .isEqualTo(cluster.resourceVersion());
      assertThat(list.path("items").get(1).has("kind")).isFalse();
      assertThat(RawApi.json(labelled).path("items")).isEqualTo(list.path("items"));
      assertThat(cluster.client().configMaps().inNamespace("default").list().getItems())
          .extracting(c -> c.getData().values().iterator().next()).containsExactly("café € 日本", "v2");
    }
  }
}
