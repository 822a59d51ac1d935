package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import dev.ctk.fake.values.RequestPattern;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real fabric8 informers (list, then watch from the list's resourceVersion) against the fake while writes race with
 * the informer's start: every object present before the start is added exactly once, and every later change is
 * seen exactly once, in order.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class InformerTest {

  @Parameter
  ClientTransport transport;

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int PRE_EXISTING = 30;
  private static final int RACING = 20;

  /** One handler call: kind of call, object name, resourceVersion of the object delivered. */
  private record Seen(String call, String name, long rv) {
  }

  @ParameterizedTest(name = "onlyHttpWatches={0}")
  @ValueSource(booleans = {false, true})
  void informer_seesEachChangeExactlyOnce_whileWritesRaceItsStart(boolean onlyHttpWatches) throws Exception {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      for (int i = 0; i < PRE_EXISTING; i++) {
        cluster.create(configMap("pre-" + i, Map.of("v", "0")));
      }
      String startRv = cluster.resourceVersion();
      RawApi api = new RawApi(cluster.url());
      try (WatchLines truth = api.watch("/api/v1/namespaces/default/configmaps?watch=true&resourceVersion="
          + startRv)) {
        Config config = cluster.clientConfig();
        config.setOnlyHttpWatches(onlyHttpWatches);
        List<Seen> seen = new CopyOnWriteArrayList<>();
        try (KubernetesClient client = FakeClusterInternals.client(cluster, config)) {
          CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> write(cluster.client()));
          SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("default").inform(
              recordingHandler(seen));
          writes.join();
          String finalRv = cluster.resourceVersion();
          await("the informer has caught up with resourceVersion " + finalRv).atMost(WAIT)
              .until(() -> finalRv.equals(informer.lastSyncResourceVersion()));
          await("the ground-truth watch has every change").atMost(WAIT)
              .until(() -> lastRv(truth.events()) == Long.parseLong(finalRv));

          // handlers run after the informer records lastSyncResourceVersion: wait for them too
          await("the informer's handlers saw every change").atMost(WAIT)
              .untilAsserted(() -> assertPerObjectSequences(seen, truth.events()));
          assertThat(informer.getStore().list()).extracting(c -> c.getMetadata().getName() + "@"
                  + c.getMetadata().getResourceVersion())
              .containsExactlyInAnyOrderElementsOf(cluster.client().configMaps().list().getItems().stream()
                  .map(c -> c.getMetadata().getName() + "@" + c.getMetadata().getResourceVersion()).toList());
          informer.close();
        }
      }
      // the informer's watches (fabric8's, not the raw ground-truth one) used the transport asked for: 200 for
      // HTTP streaming, 101 for a websocket upgrade
      int expectedCode = onlyHttpWatches ? 200 : 101;
      assertThat(cluster.requests().entries(RequestPattern.watch("ConfigMap").client("fabric8"))).isNotEmpty()
          .allSatisfy(r -> assertThat(r.code()).isEqualTo(expectedCode));
    }
  }

  private static void write(KubernetesClient client) {
    for (int round = 1; round <= 3; round++) {
      for (int i = 0; i < PRE_EXISTING; i++) {
        String v = Integer.toString(round);
        client.configMaps().inNamespace("default").withName("pre-" + i).edit(c -> {
          c.setData(Map.of("v", v));
          return c;
        });
      }
      for (int j = 0; j < RACING; j++) {
        String name = "race-" + round + "-" + j;
        client.configMaps().inNamespace("default").resource(configMap(name, Map.of("v", "0"))).create();
        client.configMaps().inNamespace("default").withName(name).edit(c -> {
          c.setData(Map.of("v", "1"));
          return c;
        });
        if (j % 2 == 0) {
          client.configMaps().inNamespace("default").withName(name).delete();
        }
      }
    }
  }

  /**
   * For every object: the first call the informer made is an add of some state the object really had; after it,
   * the informer saw exactly the object's later committed changes, in order, each once. Objects created before the
   * informer started are added exactly once.
   */
  private static void assertPerObjectSequences(List<Seen> seen, List<JsonNode> truth) {
    Map<String, List<Long>> truthRvs = new LinkedHashMap<>();
    for (JsonNode event : truth) {
      String name = event.path("object").path("metadata").path("name").asText();
      long rv = Long.parseLong(event.path("object").path("metadata").path("resourceVersion").asText());
      truthRvs.computeIfAbsent(name, k -> new ArrayList<>()).add(rv);
    }
    Map<String, List<Seen>> byObject = new ConcurrentHashMap<>();
    for (Seen s : seen) {
      byObject.computeIfAbsent(s.name(), k -> new CopyOnWriteArrayList<>()).add(s);
    }
    for (int i = 0; i < PRE_EXISTING; i++) {
      List<Seen> calls = byObject.get("pre-" + i);
      assertThat(calls).as("pre-%d", i).isNotEmpty();
      assertThat(calls.stream().filter(s -> s.call().equals("add")).count()).as("adds of pre-%d", i).isEqualTo(1);
    }
    for (Map.Entry<String, List<Seen>> entry : byObject.entrySet()) {
      String name = entry.getKey();
      List<Seen> calls = entry.getValue();
      assertThat(calls.get(0).call()).as("first call for %s", name).isEqualTo("add");
      long first = calls.get(0).rv();
      List<Long> expectedAfterFirst = truthRvs.getOrDefault(name, List.of()).stream().filter(rv -> rv > first)
          .toList();
      List<Long> actualAfterFirst = calls.subList(1, calls.size()).stream().map(Seen::rv).toList();
      assertThat(actualAfterFirst).as("changes of %s after its first state rv=%d", name, first)
          .isEqualTo(expectedAfterFirst);
      assertThat(calls.subList(1, calls.size())).as("calls after the add of %s", name)
          .noneMatch(s -> s.call().equals("add"));
    }
  }

  private static long lastRv(List<JsonNode> events) {
    return events.isEmpty() ? -1 : Long.parseLong(events.get(events.size() - 1).path("object").path("metadata")
        .path("resourceVersion").asText());
  }

  private static ResourceEventHandler<ConfigMap> recordingHandler(List<Seen> seen) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(ConfigMap obj) {
        seen.add(new Seen("add", obj.getMetadata().getName(), rv(obj)));
      }

      @Override
      public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
        seen.add(new Seen("update", newObj.getMetadata().getName(), rv(newObj)));
      }

      @Override
      public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
        seen.add(new Seen(deletedFinalStateUnknown ? "delete-unknown" : "delete", obj.getMetadata().getName(),
            rv(obj)));
      }
    };
  }

  private static long rv(ConfigMap c) {
    return Long.parseLong(c.getMetadata().getResourceVersion());
  }
}
