package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Watch requests at the edges: look-alike paths, future resourceVersions, huge timeouts, clients that stop reading. */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class WatchEdgeCasesTest {

  @Parameter
  ClientTransport transport;

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClientTransport(transport).withObjects(configMap("existing", Map.of())).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void pathsContainingWatch_areOrdinaryRequests_notStreamingWatches() {
    cluster.create(new NamespaceBuilder().withNewMetadata().withName("watch").endMetadata().build());
    cluster.create(new ConfigMapBuilder().withNewMetadata().withName("x").withNamespace("watch").endMetadata()
        .build());

    RawApi.Reply configMaps = api.get("/api/v1/namespaces/watch/configmaps");
    RawApi.Reply deployments = api.get("/apis/apps/v1/namespaces/watch/deployments");
    RawApi.Reply leases = api.get("/apis/coordination.k8s.io/v1/namespaces/watch/leases");
    RawApi.Reply namedWatch = api.get("/apis/apps/v1/namespaces/default/deployments/watch");

    assertThat(configMaps.code()).isEqualTo(200);
    assertThat(configMaps.json().path("items").get(0).path("metadata").path("name").asText()).isEqualTo("x");
    assertThat(deployments.code()).isEqualTo(200);
    assertThat(deployments.json().path("kind").asText()).isEqualTo("DeploymentList");
    assertThat(leases.code()).isEqualTo(200);
    assertThat(leases.json().path("kind").asText()).isEqualTo("LeaseList");
    assertThat(namedWatch.code()).isEqualTo(404);
    assertThat(namedWatch.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"deployments.apps \\"watch\\" not found","reason":"NotFound",
         "details":{"name":"watch","group":"apps","kind":"deployments"},"code":404}"""));
  }

  @Test
  void fromFutureResourceVersion_staysOpenAndSilent_thenSendsOnlyTheChangesAfterIt() {
    long current = Long.parseLong(cluster.resourceVersion());
    long future = current + 2;
    int open = cluster.server().store().watchHub().openWatches().size();
    try (WatchLines watch = api.watch(CONFIGMAPS + "?watch=true&resourceVersion=" + future)) {
      await("the watch is open before the writes").atMost(WAIT)
          .until(() -> cluster.server().store().watchHub().openWatches().size() == open + 1);
      cluster.create(configMap("before", Map.of()));
      cluster.create(configMap("at", Map.of()));
      cluster.create(configMap("after", Map.of()));

      await("the change after the watch's resourceVersion").atMost(WAIT).until(() -> !watch.events().isEmpty());
      assertThat(watch.summary()).containsExactly("ADDED after");
      assertThat(watch.hasEnded()).as("no ERROR event, the watch stays open").isFalse();
      assertThat(watch.events().get(0).path("object").path("metadata").path("resourceVersion").asLong())
          .isEqualTo(future + 1);
    }
  }

  @Test
  void hugeTimeoutSeconds_isCapped_theWatchWorks_andNothingIsLeftBehind() {
    try (WatchLines watch = api.watch(CONFIGMAPS + "?watch=true&timeoutSeconds=9300000000000000")) {
      await("the watch with a huge timeout delivers events").atMost(WAIT)
          .untilAsserted(() -> assertThat(watch.summary()).containsExactly("ADDED existing"));
      assertThat(watch.status().join()).isEqualTo(200);
      assertThat(cluster.server().store().watchHub().openWatches()).hasSize(1);
    }
    await("the watch is gone once its client left").atMost(WAIT)
        .until(() -> cluster.server().store().watchHub().openWatches().isEmpty());
  }

  @Test
  void httpWatchClientThatStopsReading_isClosed() throws IOException {
    try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), cluster.port())) {
      socket.setReceiveBufferSize(4096);
      OutputStream out = socket.getOutputStream();
      out.write(("GET " + CONFIGMAPS + "?watch=true HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      await("the watch is registered").atMost(WAIT)
          .until(() -> cluster.server().store().watchHub().openWatches().size() == 1);

      fillUntilWatchesClose();
    }
  }

  @Test
  void websocketWatchClientThatStopsReading_isClosed() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    java.net.http.WebSocket socket = http.newWebSocketBuilder()
        .buildAsync(URI.create(cluster.url().replace("http://", "ws://") + CONFIGMAPS + "?watch=true"),
            new java.net.http.WebSocket.Listener() {
              @Override
              public void onOpen(java.net.http.WebSocket webSocket) {
                // never request a message: the client reads nothing
              }

              @Override
              public CompletionStage<?> onText(java.net.http.WebSocket webSocket, CharSequence data, boolean last) {
                return null;
              }
            })
        .get(10, TimeUnit.SECONDS);
    try {
      await("the watch is registered").atMost(WAIT)
          .until(() -> cluster.server().store().watchHub().openWatches().size() == 1);

      fillUntilWatchesClose();
    } finally {
      socket.abort();
    }
  }

  /** Writes ~900 KB objects until the server gives up on the watch that does not read (at most ~45 MB). */
  private void fillUntilWatchesClose() {
    String payload = "x".repeat(900 * 1024);
    for (int i = 0; i < 50 && !cluster.server().store().watchHub().openWatches().isEmpty(); i++) {
      cluster.create(configMap("big-" + i, Map.of("payload", payload)));
    }
    await("the server closed the watch whose client stopped reading").atMost(WAIT)
        .until(() -> cluster.server().store().watchHub().openWatches().isEmpty());
  }
}
