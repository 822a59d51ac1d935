package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.internal.http.RequestJournal;
import dev.ctk.fake.values.RequestPattern;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.StandardHttpClient;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.StandardWebSocketBuilder;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** How in-process clients, their watches and delayed requests end: when a client gives up or closes, and when the
 * cluster closes; pinned against the HTTP transport where both can show it. */
class InProcessLifecycleTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  @ParameterizedTest
  @EnumSource(ClientTransport.class)
  void aRequestHeldByADelayFault_failsAtOnceWhenTheClusterCloses(ClientTransport transport) {
    FakeCluster cluster = FakeCluster.builder().withClientTransport(transport)
        .withObjects(configMap("web", Map.of())).build();
    // a request timeout far beyond the bound below: only the close can end the request in time
    KubernetesClient client = FakeClusterInternals.client(cluster,
        new ConfigBuilder(cluster.client().getConfiguration()).withRequestTimeout(120_000).build());
    try (client) {
      cluster.faults().when(RequestPattern.get("ConfigMap")).once().answer(ApiFault.delay(Duration.ofMinutes(2)));
      CompletableFuture<ConfigMap> get = CompletableFuture.supplyAsync(
          () -> client.configMaps().inNamespace("default").withName("web").get());
      await("the delay fault holds the GET").atMost(WAIT).until(() -> cluster.faults().firings().size() == 1);

      cluster.close();

      await("the held GET ended with the cluster").atMost(WAIT).until(get::isDone);
      assertThat(get).isCompletedExceptionally();
      assertThat(causes(get.handle((v, e) -> e).join())).as("causes of the held GET's failure")
          .anyMatch(c -> c instanceof IOException);
      assertThat(FakeClusterInternals.journal(cluster).entries()).extracting(e -> e.record().summary())
          .extracting(s -> s.substring(s.indexOf(' ') + 1))
          .containsExactly("get configmaps default/web -> connection dropped [fault: delay 2m]");
    }
  }

  @ParameterizedTest
  @EnumSource(ClientTransport.class)
  void aClosedClient_failsAsFabric8sVertxClientDoes(ClientTransport transport) throws Exception {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport)
        .withObjects(configMap("web", Map.of())).build()) {
      KubernetesClient client = cluster.newClient();
      String watchUri = client.getMasterUrl() + "api/v1/namespaces/default/configmaps?watch=true";
      int answered = FakeClusterInternals.journal(cluster).entries().size();
      client.close();

      assertThatThrownBy(() -> client.configMaps().inNamespace("default").withName("web").get())
          .isInstanceOf(IllegalStateException.class).hasMessage("Client is closed");
      Throwable webSocket = webSocketFailure(client, watchUri);
      assertThat(FakeClusterInternals.journal(cluster).entries()).as("requests the cluster answered").hasSize(
          answered);
      if (transport == ClientTransport.HTTP && webSocket instanceof RejectedExecutionException) {
        return; // Vert.x's event loop was already gone: then its client throws this instead, a race of its own
      }
      assertThat(webSocket).isInstanceOf(IllegalStateException.class).hasMessage("Client is closed");
    }
  }

  @ParameterizedTest
  @EnumSource(ClientTransport.class)
  void aWatchWithEventsItsClientDidNotAskFor_deliversItsCloseWhenTheClusterCloses(ClientTransport transport)
      throws Exception {
    FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build();
    KubernetesClient client = cluster.newClient();
    try (client) {
      AtomicInteger messages = new AtomicInteger();
      CountDownLatch closed = new CountDownLatch(1);
      WebSocket socket = client.getHttpClient().newWebSocketBuilder()
          .uri(URI.create(client.getMasterUrl() + "api/v1/namespaces/default/configmaps?watch=true"))
          .buildAsync(new WebSocket.Listener() {
            @Override
            public void onMessage(WebSocket webSocket, String text) {
              messages.incrementAndGet(); // and never request() the next one
            }

            @Override
            public void onClose(WebSocket webSocket, int code, String reason) {
              closed.countDown();
            }

            @Override
            public void onError(WebSocket webSocket, Throwable error) {
              closed.countDown();
            }
          }).get();
      cluster.create(configMap("a", Map.of()));
      await("the first event arrived").atMost(WAIT).until(() -> messages.get() == 1);
      cluster.create(configMap("b", Map.of()));
      cluster.create(configMap("c", Map.of()));

      cluster.close();

      // over HTTP the close waits behind the events the client has not asked for; in process they are dropped
      await("the watch's close reached the listener").atMost(WAIT).until(() -> {
        socket.request(); // the client asks again after the cluster is gone
        return closed.getCount() == 0;
      });
      if (transport == ClientTransport.IN_PROCESS) {
        assertThat(messages.get()).as("events delivered in process").isEqualTo(1);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aWatchWhoseClientGaveUpBeforeItOpened_isClosedAndNotOpened(boolean webSocket) {
    try (FakeCluster cluster = FakeCluster.start(); KubernetesClient client = cluster.newClient()) {
      cluster.faults().when(RequestPattern.watch("ConfigMap")).once().answer(ApiFault.delay(Duration.ofMillis(500)));
      StandardHttpClient<?, ?, ?> http = (StandardHttpClient<?, ?, ?>) client.getHttpClient();
      URI uri = URI.create(client.getMasterUrl() + "api/v1/namespaces/default/configmaps?watch=true");
      CompletableFuture<?> answer = webSocket
          ? http.buildWebSocketDirect((StandardWebSocketBuilder) http.newWebSocketBuilder().uri(uri),
              new WebSocket.Listener() { })
          : http.consumeBytesDirect((StandardHttpRequest) http.newHttpRequestBuilder().uri(uri).build(),
              (List<java.nio.ByteBuffer> buffers, AsyncBody body) -> body.consume());
      answer.cancel(false); // the client stops waiting (fabric8 does this on a timeout) while the delay holds it
      String served = webSocket ? "in-process-websocket-watch" : "in-process-http-watch";

      await("the delayed watch was served, then closed").atMost(WAIT)
          .until(() -> transports(cluster).contains(served)
              && cluster.server().store().watchHub().openWatches().isEmpty());
    }
  }

  @Test
  void aWebSocketClosedByItsClientInOnOpen_leavesNoWatchInTheStore() throws Exception {
    try (FakeCluster cluster = FakeCluster.start(); KubernetesClient client = cluster.newClient()) {
      client.getHttpClient().newWebSocketBuilder()
          .uri(URI.create(client.getMasterUrl() + "api/v1/namespaces/default/configmaps?watch=true"))
          .buildAsync(new WebSocket.Listener() {
            @Override
            public void onOpen(WebSocket webSocket) {
              webSocket.sendClose(1000, "not needed after all");
            }
          }).get();

      await("the watch was opened and closed again").atMost(WAIT)
          .until(() -> transports(cluster).contains("in-process-websocket-watch")
              && cluster.server().store().watchHub().openWatches().isEmpty());
    }
  }

  @Test
  void aClosedCluster_startsNoHttpListener() {
    FakeCluster cluster = FakeCluster.start();
    String name = cluster.server().name();
    cluster.close();

    assertThatThrownBy(() -> cluster.server().startHttp()).isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot start the HTTP listener of the fake API server " + name + ": it is closed, and a "
            + "listener started now would never be stopped. Build a new FakeCluster to get a URL.");
    assertThat(cluster.server().httpStarted()).isFalse();
  }

  @Test
  void clientsShareOneSerialization_thatTheFakesOwnConversionsDoNotUse(@TempDir Path dir) throws IOException {
    try (FakeCluster cluster = FakeCluster.start();
        FakeCluster overHttp = FakeCluster.builder().withClientTransport(ClientTransport.HTTP).build();
        KubernetesClient other = cluster.newClient()) {
      assertThat(other.getKubernetesSerialization()).isSameAs(cluster.client().getKubernetesSerialization())
          .isSameAs(overHttp.client().getKubernetesSerialization());
      cluster.installCrd(CustomResourceDefinitionContext.v1CRDFromCustomResourceType(Gadget.class).build());
      other.getKubernetesSerialization().registerKubernetesResource(Gadget.class);
      Path yaml = Files.writeString(dir.resolve("gadget.yaml"), "apiVersion: serialization.ctk.example.com/v1\n"
          + "kind: Gadget\nmetadata:\n  name: g\n  namespace: default\n");

      List<HasMetadata> loaded = cluster.load(yaml);

      assertThat(loaded).singleElement().as("what the fake converted, with a class registered only with clients")
          .isInstanceOf(GenericKubernetesResource.class);
      assertThat(other.resources(Gadget.class).inNamespace("default").withName("g").get()).isInstanceOf(
          Gadget.class);
    }
  }

  /** A custom resource class only the clients' serialization knows. */
  @Group("serialization.ctk.example.com")
  @Version("v1")
  @Kind("Gadget")
  public static final class Gadget extends CustomResource<Map<String, Object>, Void> implements Namespaced {
  }

  /** How opening a websocket fails: thrown, or the cause of the future's failure. */
  private static Throwable webSocketFailure(KubernetesClient client, String uri) throws Exception {
    CompletableFuture<WebSocket> opening;
    try {
      opening = client.getHttpClient().newWebSocketBuilder().uri(URI.create(uri))
          .buildAsync(new WebSocket.Listener() { });
    } catch (RuntimeException e) {
      return e;
    }
    try {
      opening.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      throw new AssertionError("a websocket opened on a closed client");
    } catch (ExecutionException e) {
      return e.getCause() instanceof CompletionException c && c.getCause() != null ? c.getCause() : e.getCause();
    }
  }

  private static List<String> transports(FakeCluster cluster) {
    return FakeClusterInternals.journal(cluster).entries().stream().map(RequestJournal.Entry::transport).toList();
  }

  private static List<Throwable> causes(Throwable e) {
    List<Throwable> out = new ArrayList<>();
    for (Throwable t = e; t != null && !out.contains(t); t = t.getCause()) {
      out.add(t);
    }
    return out;
  }
}
