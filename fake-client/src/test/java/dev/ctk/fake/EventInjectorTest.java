package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static dev.ctk.fake.testing.Fixtures.network;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.values.FakeClusterException;
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

/** EventInjector: writes through the store versus synthetic events, seen through an informer and through GET. */
class EventInjectorTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private FakeCluster cluster;
  private EventInjector events;
  private List<String> seen;
  private SharedIndexInformer<ConfigMap> informer;

  @BeforeEach
  void start() {
    cluster = FakeCluster.start();
    events = cluster.events();
    seen = new CopyOnWriteArrayList<>();
    informer = cluster.client().configMaps().inNamespace("default").inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(ConfigMap obj) {
        seen.add("add " + obj.getMetadata().getName() + " " + obj.getData());
      }

      @Override
      public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
        seen.add("update " + newObj.getMetadata().getName() + " " + newObj.getData());
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
  void add_update_delete_goThroughTheStore() {
    String rv0 = cluster.resourceVersion();
    ConfigMap added = events.add(configMap("a", Map.of("k", "1")));
    assertThat(added.getMetadata().getResourceVersion()).isEqualTo(Long.toString(Long.parseLong(rv0) + 1));
    assertThat(added.getMetadata().getUid()).isNotBlank();

    ConfigMap updated = events.update(new ConfigMapBuilder(added).editMetadata().withResourceVersion("1")
        .endMetadata().withData(Map.of("k", "2")).build());
    assertThat(updated.getData()).containsEntry("k", "2");

    await().atMost(WAIT).untilAsserted(() -> assertThat(seen).containsExactly("add a {k=1}", "update a {k=2}"));
    assertThat(cluster.client().configMaps().withName("a").get().getData()).containsEntry("k", "2");

    events.delete(updated);
    await().atMost(WAIT).untilAsserted(() -> assertThat(seen).endsWith("delete a"));
    assertThat(cluster.client().configMaps().withName("a").get()).isNull();
  }

  @Test
  void delete_withFinalizer_marksDeletion_updateRemovingItRemovesTheObject() {
    ConfigMap withFinalizer = events.add(new ConfigMapBuilder(configMap("f", Map.of())).editMetadata()
        .addToFinalizers("example.com/hold").endMetadata().build());
    events.delete(withFinalizer);

    ConfigMap marked = cluster.client().configMaps().withName("f").get();
    assertThat(marked.getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(marked.getMetadata().getDeletionGracePeriodSeconds()).isZero();

    events.update(new ConfigMapBuilder(marked).editMetadata().withFinalizers().endMetadata().build());
    assertThat(cluster.client().configMaps().withName("f").get()).isNull();
    await().atMost(WAIT).untilAsserted(() -> assertThat(seen).containsExactly("add f {}", "update f {}",
        "delete f"));
  }

  @Test
  void synthetic_changesInformerCacheOnly_andARelistHeals() {
    ConfigMap real = events.add(configMap("a", Map.of("k", "real")));
    events.add(configMap("b", Map.of()));
    await().atMost(WAIT).until(() -> seen.size() == 2);
    String rv = cluster.resourceVersion();

    ConfigMap lie = new ConfigMapBuilder(real).editMetadata().withResourceVersion(null).endMetadata()
        .withData(Map.of("k", "lie")).build();
    events.emitModified(lie);
    events.emitAdded(configMap("ghost", Map.of()));
    await().atMost(WAIT).untilAsserted(() -> assertThat(seen).containsExactly("add a {k=real}", "add b {}",
        "update a {k=lie}", "add ghost {}"));
    assertThat(informer.getStore().getByKey("default/a").getMetadata().getResourceVersion())
        .as("an event without resourceVersion carries the current global one").isEqualTo(rv);
    assertThat(informer.getStore().getByKey("default/a").getData()).containsEntry("k", "lie");
    assertThat(informer.getStore().getByKey("default/ghost")).isNotNull();

    events.emitDeleted(real);
    await().atMost(WAIT).untilAsserted(() -> assertThat(seen).endsWith("delete a"));
    assertThat(informer.getStore().getByKey("default/a")).isNull();

    assertThat(cluster.resourceVersion()).as("synthetic events do not move the resourceVersion").isEqualTo(rv);
    assertThat(cluster.client().configMaps().withName("a").get().getData()).containsEntry("k", "real");
    assertThat(cluster.client().configMaps().withName("ghost").get()).isNull();

    SharedIndexInformer<ConfigMap> relisted = cluster.client().configMaps().inNamespace("default").inform();
    try {
      assertThat(relisted.getStore().list()).extracting(c -> c.getMetadata().getName() + "=" + c.getData())
          .containsExactlyInAnyOrder("a={k=real}", "b={}");
    } finally {
      relisted.close();
    }
  }

  @Test
  void synthetic_reachesOnlyMatchingWatches_andCarriesCurrentResourceVersion() {
    List<String> labelled = new CopyOnWriteArrayList<>();
    SharedIndexInformer<ConfigMap> selective = cluster.client().configMaps().inNamespace("default")
        .withLabel("app", "web").inform(new ResourceEventHandler<>() {
          @Override
          public void onAdd(ConfigMap obj) {
            labelled.add(obj.getMetadata().getName() + "@" + obj.getMetadata().getResourceVersion());
          }

          @Override
          public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
          }

          @Override
          public void onDelete(ConfigMap obj, boolean unknown) {
          }
        });
    try {
      events.emitAdded(configMap("plain", Map.of()));
      events.emitAdded(configMap("web", Map.of("app", "web"), Map.of()));
      await().atMost(WAIT).untilAsserted(() -> assertThat(seen).containsExactly("add plain {}", "add web {}"));
      await().atMost(WAIT).untilAsserted(() -> assertThat(labelled)
          .containsExactly("web@" + cluster.resourceVersion()));
    } finally {
      selective.close();
    }
  }

  @Test
  void add_existing_failsWithMessage() {
    events.add(configMap("a", Map.of()));
    assertThatThrownBy(() -> events.add(configMap("a", Map.of())))
        .isInstanceOf(FakeClusterException.class)
        .hasMessage("EventInjector.add(ConfigMap default/a) failed: 409 AlreadyExists: configmaps \"a\" already "
            + "exists. Use update(..) to replace the existing object, or choose another name.");
  }

  @Test
  void update_missing_and_kindWithoutCrd_failWithMessages() {
    assertThatThrownBy(() -> events.update(configMap("nope", Map.of())))
        .isInstanceOf(FakeClusterException.class)
        .hasMessage("EventInjector.update(ConfigMap default/nope) failed: 404 NotFound: configmaps \"nope\" not "
            + "found. Create it first with add(..).");
    assertThatThrownBy(() -> events.add(network("net-a", "10.0.0.0/24")))
        .isInstanceOf(FakeClusterException.class)
        .hasMessage("EventInjector.add(Network default/net-a) failed: kind Network in samplecrd.k8s.io/v1 is not "
            + "served: no CustomResourceDefinition defines it. Install the CRD first (FakeCluster.installCrd(..) or "
            + "FakeCluster.builder().withCrds(..)), or fix apiVersion/kind.");
    ConfigMap elsewhere = new ConfigMapBuilder(configMap("x", Map.of())).editMetadata().withNamespace("team-a")
        .endMetadata().build();
    assertThatThrownBy(() -> events.add(elsewhere))
        .isInstanceOf(FakeClusterException.class)
        .hasMessage("EventInjector.add(ConfigMap team-a/x) failed: 404 NotFound: namespaces \"team-a\" not found. "
            + "Create the namespace first (a Namespace object).");
  }
}
