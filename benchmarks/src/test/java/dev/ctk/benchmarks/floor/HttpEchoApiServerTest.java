package dev.ctk.benchmarks.floor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The HTTP echo server answers fabric8's client and informer over loopback as the in-process one does. */
class HttpEchoApiServerTest {

  private static final String METADATA = "\"uid\":\"u-1\",\"creationTimestamp\":\"2026-11-27T12:00:00Z\"";

  @Test
  void aCreate_isAnsweredWithTheMetadata_andSeenByASyncedInformer() {
    try (HttpEchoApiServer server = HttpEchoApiServer.start(METADATA); KubernetesClient client = server.newClient()) {
      List<ConfigMap> seen = new CopyOnWriteArrayList<>();
      try (SharedIndexInformer<ConfigMap> informer = client.configMaps().inform(new ResourceEventHandler<>() {
        @Override
        public void onAdd(ConfigMap obj) {
          seen.add(obj);
        }

        @Override
        public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
        }

        @Override
        public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
        }
      })) {
        assertThat(server.masterUrl()).startsWith("http://127.0.0.1:");
        await().atMost(Duration.ofSeconds(10)).until(informer::isWatching);

        ConfigMap created = client.configMaps().resource(new ConfigMapBuilder()
            .withNewMetadata().withName("one").endMetadata().addToData("k", "v").build()).create();

        assertThat(created.getMetadata().getUid()).isEqualTo("u-1");
        assertThat(created.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(created.getMetadata().getResourceVersion()).isEqualTo("2");
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 1);
        assertThat(seen.get(0).getMetadata().getName()).isEqualTo("one");
        assertThat(seen.get(0).getMetadata().getResourceVersion()).isEqualTo("2");
        assertThat(seen.get(0).getData()).containsEntry("k", "v");
      }
    }
  }

  @Test
  void anythingButConfigMaps_is404_namingWhatIsServed() {
    try (HttpEchoApiServer server = HttpEchoApiServer.start(METADATA); KubernetesClient client = server.newClient()) {
      assertThatThrownBy(() -> client.secrets().list())
          .isInstanceOf(KubernetesClientException.class)
          .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(404))
          .satisfies(e -> assertThat(((KubernetesClientException) e).getStatus().getMessage()).isEqualTo(
              "GET /api/v1/namespaces/default/secrets is not served by ctk's echo server (it answers only GET, POST "
                  + "and websocket watches of /api/v1/namespaces/<namespace>/configmaps)"));
    }
  }

  @Test
  void aWatchThatIsNoWebsocket_is404() throws Exception {
    try (HttpEchoApiServer server = HttpEchoApiServer.start(METADATA)) {
      HttpResponse<String> answer = send(server, HttpRequest.newBuilder(
          URI.create(server.masterUrl() + "/api/v1/namespaces/default/configmaps?watch=true")).GET());

      assertThat(answer.statusCode()).isEqualTo(404);
      assertThat(answer.body()).isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"metadata\":{},"
          + "\"status\":\"Failure\",\"message\":\"GET /api/v1/namespaces/default/configmaps?watch=true is not "
          + "served by ctk's echo server (it answers only GET, POST and websocket watches of "
          + "/api/v1/namespaces/<namespace>/configmaps)\",\"reason\":\"NotFound\",\"code\":404}");
    }
  }

  @Test
  void aCreateWhoseBodyIsNoObject_is400_quotingIt() throws Exception {
    try (HttpEchoApiServer server = HttpEchoApiServer.start(METADATA)) {
      HttpResponse<String> answer = send(server, HttpRequest.newBuilder(
          URI.create(server.masterUrl() + "/api/v1/namespaces/default/configmaps"))
          .POST(HttpRequest.BodyPublishers.ofString("not\tjson")));

      assertThat(answer.statusCode()).isEqualTo(400);
      assertThat(answer.body()).isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"metadata\":{},"
          + "\"status\":\"Failure\",\"message\":\"ctk echo server: a create's body must be the JSON object fabric8 "
          + "sends (from '{' to '}'), was: 'not\\tjson'\",\"reason\":\"BadRequest\",\"code\":400}");
    }
  }

  private static HttpResponse<String> send(HttpEchoApiServer server, HttpRequest.Builder request) throws Exception {
    return java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build()
        .send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
