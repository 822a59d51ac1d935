package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.internal.http.RequestJournal;
import dev.ctk.fake.values.AdmissionDecision;
import dev.ctk.fake.values.AdmissionRequest;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.FakeClusterException;
import dev.ctk.fake.values.RequestPattern;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.utils.Utils;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What only the in-process transport has, and the faults both transports must show alike. */
class InProcessTransportTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void noPortIsBoundUntilUrl_andTheJournalNamesTheTransport() {
    try (FakeCluster cluster = FakeCluster.start()) {
      assertThat(cluster.clientTransport()).isEqualTo(ClientTransport.IN_PROCESS);
      cluster.client().configMaps().inNamespace("default").resource(configMap("a", Map.of("k", "v"))).create();
      assertThat(cluster.client().configMaps().inNamespace("default").withName("a").get().getData())
          .containsEntry("k", "v");

      assertThat(cluster.server().httpStarted()).as("HTTP listener started").isFalse();
      assertThat(cluster.client().getMasterUrl().toString()).isEqualTo("http://" + cluster.server().name()
          + ".invalid/");
      List<RequestJournal.Entry> entries = FakeClusterInternals.journal(cluster).entries();
      assertThat(entries).extracting(RequestJournal.Entry::toString).containsExactly(
          "POST /api/v1/namespaces/default/configmaps -> 201 (in-process)",
          "GET /api/v1/namespaces/default/configmaps/a -> 200 (in-process)");
      assertThat(cluster.requests().entries(RequestPattern.create("ConfigMap")).get(0).client())
          .startsWith("fabric8-kubernetes-client/");

      String url = cluster.url();
      assertThat(cluster.server().httpStarted()).isTrue();
      assertThat(url).startsWith("http://127.0.0.1:");
    }
  }

  @Test
  void watchesOfBothKinds_areJournaledAsInProcessWatches() {
    try (FakeCluster cluster = FakeCluster.start();
        KubernetesClient httpWatches = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
            .withConfig(new io.fabric8.kubernetes.client.ConfigBuilder(cluster.client().getConfiguration())
                .withOnlyHttpWatches(true).build())
            .withHttpClientFactory(cluster.httpClientFactory()).build()) {
      List<String> seen = new CopyOnWriteArrayList<>();
      Watch socket = cluster.client().configMaps().inNamespace("default").watch(recorder("ws", seen));
      Watch stream = httpWatches.configMaps().inNamespace("default").watch(recorder("http", seen));
      cluster.create(configMap("a", Map.of()));
      await("both watches saw a").atMost(WAIT).until(() -> seen.containsAll(List.of("ws ADDED a", "http ADDED a")));
      socket.close();
      stream.close();

      assertThat(FakeClusterInternals.journal(cluster).entries()).extracting(RequestJournal.Entry::transport)
          .contains("in-process-websocket-watch", "in-process-http-watch");
      assertThat(cluster.server().httpStarted()).isFalse();
    }
  }

  @Test
  void closingAClient_closesItsWatches() {
    try (FakeCluster cluster = FakeCluster.start()) {
      KubernetesClient client = cluster.newClient();
      client.configMaps().inNamespace("default").watch(recorder("w", new CopyOnWriteArrayList<>()));
      client.configMaps().inNamespace("default").inform();
      await().atMost(WAIT).until(() -> cluster.server().store().watchHub().openWatches().size() == 2);

      client.close();

      await("the store forgets the closed client's watches").atMost(WAIT)
          .until(() -> cluster.server().store().watchHub().openWatches().isEmpty());
    }
  }

  @Test
  void closingTheCluster_leavesNoThreadOfIt() {
    FakeCluster cluster = FakeCluster.builder().withBookmarkInterval(Duration.ofMillis(50)).build();
    String name = cluster.server().name();
    cluster.client().configMaps().inNamespace("default").inform();
    cluster.create(configMap("a", Map.of()));
    await("delivery and timer threads run").atMost(WAIT).until(() -> threadsOf(name).size() >= 2);

    cluster.close();

    await("no thread of " + name + " is left").atMost(WAIT).until(() -> threadsOf(name).isEmpty());
    assertThatThrownBy(cluster::client).isInstanceOf(IllegalStateException.class)
        .hasMessage("FakeCluster at http://" + name + ".invalid is closed; client() needs a running cluster. Build "
            + "a new one with FakeCluster.builder()...build().");
    assertThat(cluster.url()).as("a closed cluster starts no listener").isEqualTo("http://" + name + ".invalid");
    assertThat(cluster.server().httpStarted()).isFalse();
  }

  @Test
  void aRequestSentUnderTheStoreLock_isAnswered400SayingWhatHappened_andARetryingClientDoesNotRetryIt() {
    AtomicReference<KubernetesClient> retrying = new AtomicReference<>();
    AtomicReference<KubernetesClientException> seen = new AtomicReference<>();
    try (FakeCluster cluster = FakeCluster.builder().withValidatingAdmission("calls-back.example.com", request -> {
      try {
        retrying.get().configMaps().inNamespace("default").list();
      } catch (KubernetesClientException e) {
        seen.set(e);
      }
      return AdmissionDecision.allow();
    }).build(); KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder(Config.empty()).withMasterUrl("http://retrying.invalid")
            .withRequestRetryBackoffLimit(3).withRequestRetryBackoffInterval(10).withRequestTimeout(60_000).build())
        .withHttpClientFactory(cluster.httpClientFactory()).build()) {
      retrying.set(client);

      CompletableFuture<ConfigMap> create = CompletableFuture.supplyAsync(() -> cluster.client().configMaps()
          .inNamespace("default").resource(configMap("a", Map.of())).create());
      await("the create whose admission hook called the API ends").atMost(WAIT).until(create::isDone);

      assertThat(create.join().getMetadata().getName()).isEqualTo("a");
      assertThat(seen.get()).as("the hook's call failed").isNotNull();
      assertThat(seen.get().getCode()).isEqualTo(400);
      assertThat(seen.get().getStatus().getMessage()).isEqualTo("ctk in-process transport: GET "
          + "/api/v1/namespaces/default/configmaps was sent while the fake's write lock is held by this thread (an "
          + "admission hook or store callback called the cluster's API), so it was refused with 400, which clients "
          + "do not retry. Hooks must not call the API server; compute what the hook needs from its "
          + "AdmissionRequest instead.");
      assertThat(cluster.requests().entries(RequestPattern.list("ConfigMap"))).extracting(ApiRequestRecord::code)
          .as("answered once, not retried").containsExactly(400);
    }
  }

  @Test
  void aRequestFabric8SendsFromItsSchedulerThread_isServedOnTheClustersOwnThreads() {
    AtomicReference<String> servedOn = new AtomicReference<>();
    try (FakeCluster cluster = FakeCluster.builder().withValidatingAdmission("thread.example.com", request -> {
      servedOn.set(Thread.currentThread().getName());
      return AdmissionDecision.allow();
    }).build()) {
      KubernetesClient client = cluster.client();
      AtomicReference<String> sentOn = new AtomicReference<>();
      CompletableFuture<Integer> created = new CompletableFuture<>();
      // where fabric8 runs a retry after its backoff, or a watch reconnect
      Utils.schedule(Runnable::run, () -> {
        sentOn.set(Thread.currentThread().getName());
        client.getHttpClient().sendAsync(client.getHttpClient().newHttpRequestBuilder()
            .uri(client.getMasterUrl() + "api/v1/namespaces/default/configmaps")
            .post("application/json", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}")
            .build(), String.class)
            .whenComplete((response, failure) -> {
              if (failure != null) {
                created.completeExceptionally(failure);
              } else {
                created.complete(response.code());
              }
            });
      }, 1, TimeUnit.MILLISECONDS);

      await("the create sent from fabric8's scheduler was served").atMost(WAIT).until(created::isDone);
      assertThat(created.join()).isEqualTo(201);
      assertThat(sentOn.get()).startsWith("CachedSingleThreadScheduler-");
      assertThat(servedOn.get()).startsWith(cluster.server().name() + "-watch-");
    }
  }

  @Test
  void aWebSocketListenerThatNeverAsksForMore_hasItsWatchClosedPastTheQueueLimit() throws Exception {
    try (FakeCluster cluster = FakeCluster.start(); KubernetesClient client = cluster.newClient()) {
      AtomicInteger messages = new AtomicInteger();
      WebSocket socket = client.getHttpClient().newWebSocketBuilder()
          .uri(URI.create(client.getMasterUrl() + "api/v1/namespaces/default/configmaps?watch=true"))
          .buildAsync(new WebSocket.Listener() {
            @Override
            public void onMessage(WebSocket webSocket, String text) {
              messages.incrementAndGet(); // and never request() the next one
            }
          }).get();
      cluster.create(configMap("first", Map.of()));
      await("the first event arrived (no request() needed for it)").atMost(WAIT).until(() -> messages.get() == 1);
      String big = "x".repeat(900 * 1024);
      for (int i = 0; i < 10; i++) { // 10 events wait: more than the 8 MiB a watch may queue
        cluster.create(new ConfigMapBuilder().withNewMetadata().withName("big-" + i).withNamespace("default")
            .endMetadata().withData(Map.of("k", big)).build());
      }

      await("the watch of the stuck listener was closed").atMost(WAIT)
          .until(() -> cluster.server().store().watchHub().openWatches().isEmpty());
      assertThat(cluster.watchFaults().deliveries()).extracting(d -> d.outcome().toString()).contains("CLOSED");
      assertThat(messages.get()).as("messages delivered without request()").isEqualTo(1);
      socket.sendClose(1000, "");
    }
  }

  @Test
  void theLazyListener_reportsAPortInUseWhereItStarts() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      try (FakeCluster cluster = FakeCluster.builder().withPort(port).lazyListener().build()) {
        assertThat(cluster.client().namespaces().withName("default").get()).isNotNull();
        assertThatThrownBy(cluster::url).isInstanceOf(FakeClusterException.class)
            .hasMessage("Cannot start the fake API server on 127.0.0.1:" + port + ": Address already in use. "
                + "Another process holds that port. Choose another port with withPort(..), or withPort(0) for a "
                + "free one.");
      }
    }
  }

  @ParameterizedTest
  @EnumSource(ClientTransport.class)
  void faults_lookTheSameOnBothTransports(ClientTransport transport) {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport)
        .withObjects(configMap("web", Map.of("k", "v"))).build()) {
      KubernetesClient client = cluster.client();

      cluster.faults().when(RequestPattern.get("ConfigMap")).once().answer(ApiFault.serviceUnavailable());
      KubernetesClientException unavailable = catchThrowableOfType(KubernetesClientException.class,
          () -> client.configMaps().inNamespace("default").withName("web").get());
      assertThat(unavailable.getCode()).isEqualTo(503);
      assertThat(unavailable.getStatus().getMessage()).isEqualTo("the server is currently unable to handle the "
          + "request");

      cluster.faults().when(RequestPattern.get("ConfigMap")).once().answer(ApiFault.tooManyRequests(
          Duration.ofSeconds(3)));
      KubernetesClientException busy = catchThrowableOfType(KubernetesClientException.class,
          () -> client.configMaps().inNamespace("default").withName("web").get());
      assertThat(busy.getCode()).isEqualTo(429);
      assertThat(busy.getStatus().getDetails().getRetryAfterSeconds()).isEqualTo(3);

      cluster.faults().when(RequestPattern.get("ConfigMap")).once().answer(ApiFault.dropConnection());
      KubernetesClientException dropped = catchThrowableOfType(KubernetesClientException.class,
          () -> client.configMaps().inNamespace("default").withName("web").get());
      assertThat(causes(dropped)).as("causes of the dropped request's failure")
          .anyMatch(c -> c instanceof IOException && "Connection was closed".equals(c.getMessage()));

      cluster.faults().when(RequestPattern.get("ConfigMap")).once().answer(ApiFault.delay(Duration.ofMillis(300)));
      assertThat(client.configMaps().inNamespace("default").withName("web").get().getData())
          .containsEntry("k", "v");

      assertThat(cluster.requests().entries(RequestPattern.get("ConfigMap"))).extracting(ApiRequestRecord::summary)
          .extracting(s -> s.substring(s.indexOf(' ') + 1)).containsExactly(
              "get configmaps default/web -> 503 [fault: 503 ServiceUnavailable]",
              "get configmaps default/web -> 429 [fault: 429 TooManyRequests (Retry-After: 3)]",
              "get configmaps default/web -> connection dropped [fault: drop connection]",
              "get configmaps default/web -> 200 [fault: delay 300ms]");
    }
  }

  @ParameterizedTest
  @EnumSource(ClientTransport.class)
  void nonAsciiData_reachesAWebSocketWatchIntact(ClientTransport transport) {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      List<ConfigMap> seen = new CopyOnWriteArrayList<>();
      cluster.client().configMaps().inNamespace("default").watch(new Watcher<>() {
        @Override
        public void eventReceived(Action action, ConfigMap resource) {
          seen.add(resource);
        }

        @Override
        public void onClose(WatcherException cause) {
        }
      });
      cluster.create(configMap("a", Map.of("text", "café € 日本")));
      cluster.create(configMap("b", Map.of("text", "naïve")));

      await("both events arrived").atMost(WAIT).until(() -> seen.size() == 2);
      assertThat(seen).extracting(c -> c.getData().get("text")).containsExactly("café € 日本", "naïve");
    }
  }

  private static List<String> threadsOf(String cluster) {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
        .filter(n -> n.startsWith(cluster + "-")).toList();
  }

  private static List<Throwable> causes(Throwable e) {
    List<Throwable> out = new java.util.ArrayList<>();
    for (Throwable t = e; t != null && !out.contains(t); t = t.getCause()) {
      out.add(t);
    }
    return out;
  }

  private static Watcher<ConfigMap> recorder(String prefix, List<String> seen) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, ConfigMap resource) {
        seen.add(prefix + " " + action + " " + resource.getMetadata().getName());
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    };
  }
}
