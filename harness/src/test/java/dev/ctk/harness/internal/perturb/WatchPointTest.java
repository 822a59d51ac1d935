package dev.ctk.harness.internal.perturb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.ApiFault;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.values.RequestPattern;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A stale-view hold on a real fake cluster: when it lets go. */
class WatchPointTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  @Test
  void a_stale_view_is_released_after_the_tests_next_write_even_when_a_later_request_is_answered_first() {
    try (FakeCluster cluster = FakeCluster.start()) {
      KubernetesClient client = cluster.client();
      List<String> log = new CopyOnWriteArrayList<>();
      SharedIndexInformer<ConfigMap> informer = client.configMaps().inform();
      WatchPoint point = new WatchPoint(cluster, PerturbationPoint.staleView("ConfigMap", 1), log::add,
          (quiet, bound) -> true, List::of, request -> false);
      point.start();
      // GIVEN the informer's view held at its first event
      ConfigMap first = client.resource(configMap("first")).create();
      await("the hold takes event #1").atMost(WAIT).until(point::reached);
      // WHEN the test's next write is answered late, after a read that was sent after it
      cluster.faults().when(RequestPattern.update("ConfigMap").named("default", "first")).once()
          .answer(ApiFault.delay(Duration.ofMillis(400)));
      long before = cluster.requests().lastSequence();
      CompletableFuture<ConfigMap> write = CompletableFuture.supplyAsync(() -> client
          .resource(new ConfigMapBuilder(first).addToData("k", "v").build()).update());
      await("the write is received").atMost(WAIT).until(() -> cluster.requests().lastSequence() > before);
      assertThat(client.configMaps().withName("other").get()).isNull();
      assertThat(cluster.requests().since(before)).as("the read is answered while the write waits")
          .extracting(r -> r.verb()).containsExactly("get");
      write.join();
      // THEN the hold lets go because of that write, not at its 2 s bound
      await("the release").atMost(WAIT).until(() -> log.stream().anyMatch(line -> line.contains(" released ")));
      assertThat(log).filteredOn(line -> line.contains(" released "))
          .singleElement().asString()
          .contains("after the test's next write (request #" + (before + 1) + " update ConfigMap default/first)");
      informer.close();
    }
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build();
  }
}
