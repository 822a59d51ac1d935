package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.internal.watch.Watch;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which resourceVersion synthetic events carry, and what that does to an informer's next re-watch. */
class SyntheticResourceVersionTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  private FakeCluster cluster;
  private List<String> seen;
  private SharedIndexInformer<ConfigMap> informer;

  @BeforeEach
  void start() {
    cluster = FakeCluster.start();
    seen = new CopyOnWriteArrayList<>();
    informer = cluster.client().configMaps().inNamespace("default").inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(ConfigMap obj) {
        seen.add("add " + obj.getMetadata().getName() + "@" + obj.getMetadata().getResourceVersion());
      }

      @Override
      public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
        seen.add("update " + newObj.getMetadata().getName() + "@" + newObj.getMetadata().getResourceVersion());
      }

      @Override
      public void onDelete(ConfigMap obj, boolean unknown) {
        seen.add("delete " + obj.getMetadata().getName());
      }
    });
  }

  @AfterEach
  void stop() {
    informer.close();
    cluster.close();
  }

  @Test
  void emitDeleted_ofAnOldObject_carriesTheCurrentResourceVersion_andAReconnectReplaysNothing() {
    ConfigMap web = cluster.create(configMap("web", Map.of("v", "1")));
    ConfigMap old = cluster.create(configMap("o0", Map.of()));
    cluster.events().update(new ConfigMapBuilder(web).withData(Map.of("v", "2")).build());
    cluster.events().update(new ConfigMapBuilder(web).withData(Map.of("v", "3")).build());
    String current = cluster.resourceVersion();
    awaitInformerAt(current);
    await().atMost(WAIT).until(() -> seen.size() == 4);

    cluster.events().emitDeleted(old);
    await("the informer drops o0").atMost(WAIT).until(() -> seen.contains("delete o0"));
    assertThat(informer.lastSyncResourceVersion()).as("the informer's resourceVersion never moves back")
        .isEqualTo(current);
    seen.clear();

    reconnectEveryWatch();
    cluster.create(configMap("marker", Map.of()));

    await("the re-watch delivers the marker").atMost(WAIT)
        .untilAsserted(() -> assertThat(seen).contains("add marker@" + cluster.resourceVersion()));
    assertThat(seen).as("handler calls after the re-watch: the new object only, no replayed history")
        .containsExactly("add marker@" + cluster.resourceVersion());
  }

  @Test
  void emitModified_withAnExplicitOldResourceVersion_rewindsTheInformer_andAReconnectReplaysHistory() {
    ConfigMap web = cluster.create(configMap("web", Map.of("v", "1")));
    String rewound = web.getMetadata().getResourceVersion();
    ConfigMap v2 = cluster.events().update(new ConfigMapBuilder(web).withData(Map.of("v", "2")).build());
    awaitInformerAt(cluster.resourceVersion());
    await().atMost(WAIT).until(() -> seen.size() == 2);

    cluster.events().emitModified(web, rewound);
    awaitInformerAt(rewound);
    await("the handler saw the rewound state").atMost(WAIT).until(() -> seen.contains("update web@" + rewound));
    seen.clear();

    reconnectEveryWatch();

    await("the re-watch replays the change after the rewound resourceVersion").atMost(WAIT)
        .untilAsserted(() -> assertThat(seen).containsExactly("update web@" + v2.getMetadata().getResourceVersion()));
  }

  private void awaitInformerAt(String resourceVersion) {
    await("the informer is at resourceVersion " + resourceVersion).atMost(WAIT)
        .until(() -> resourceVersion.equals(informer.lastSyncResourceVersion()));
  }

  /** Ends every watch from the server side, as timeoutSeconds or a dropped connection would: informers re-watch. */
  private void reconnectEveryWatch() {
    List<Watch> before = cluster.server().store().watchHub().openWatches();
    assertThat(before).isNotEmpty();
    before.forEach(Watch::close);
    await("the informer watches again").atMost(WAIT).until(() -> cluster.server().store().watchHub().openWatches()
        .stream().anyMatch(w -> !before.contains(w)));
  }
}
