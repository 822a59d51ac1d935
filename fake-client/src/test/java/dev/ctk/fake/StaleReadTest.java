package dev.ctk.fake;

import static dev.ctk.fake.WatchFaultCloseTest.WAIT;
import static dev.ctk.fake.WatchFaultCloseTest.cache;
import static dev.ctk.fake.WatchFaultCloseTest.rv;
import static dev.ctk.fake.WatchFaultCloseTest.withData;
import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.WatchFaultCloseTest.Recorder;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.FaultFiring;
import dev.ctk.fake.values.RequestPattern;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** ApiFault.staleRead: GET and LIST answered from an older state, rebuilt from the watch history. */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class StaleReadTest {

  @Parameter
  ClientTransport transport;

  private FakeCluster cluster;
  private KubernetesClient client;
  /** a (v=1, labelled app=web), b and c created; then the state moves on: see {@link #moveOn()}. */
  private ConfigMap a;
  private ConfigMap b;
  private String before;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClientTransport(transport).build();
    client = cluster.client();
    a = cluster.create(configMap("a", Map.of("app", "web"), Map.of("v", "1")));
    b = cluster.create(configMap("b", Map.of("app", "web"), Map.of("v", "1")));
    cluster.create(configMap("c", Map.of("app", "db"), Map.of("v", "1")));
    before = cluster.resourceVersion();
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  /** a is edited (v=2), b deleted, d created. */
  private void moveOn() {
    client.configMaps().inNamespace("default").withName("a").edit(c -> withData(c, "2"));
    client.configMaps().inNamespace("default").withName("b").delete();
    cluster.create(configMap("d", Map.of("app", "web"), Map.of("v", "1")));
  }

  private static List<String> items(ConfigMapList list) {
    return list.getItems().stream().map(c -> c.getMetadata().getName() + "@" + rv(c) + " v=" + c.getData().get("v"))
        .toList();
  }

  @Test
  void aList_answersTheItemsAsTheyWereThen_withTheSameSelectors_andThatResourceVersion() {
    moveOn();
    cluster.faults().when(RequestPattern.list("ConfigMap")).times(2).answer(ApiFault.staleRead(before));

    ConfigMapList web = client.configMaps().inNamespace("default").withLabel("app", "web").list();
    ConfigMapList everywhere = client.configMaps().inAnyNamespace().list();
    ConfigMapList now = client.configMaps().inNamespace("default").withLabel("app", "web").list();

    assertThat(items(web)).containsExactly("a@" + rv(a) + " v=1", "b@" + rv(b) + " v=1");
    assertThat(web.getMetadata().getResourceVersion()).isEqualTo(before);
    assertThat(everywhere.getItems()).extracting(c -> c.getMetadata().getName()).containsExactly("a", "b", "c");
    assertThat(everywhere.getMetadata().getResourceVersion()).isEqualTo(before);
    assertThat(now.getItems()).as("the rule fired twice; the third list is fresh")
        .extracting(c -> c.getMetadata().getName()).containsExactly("a", "d");
    assertThat(cluster.requests().entries(RequestPattern.list("ConfigMap"))).extracting(ApiRequestRecord::fault)
        .containsExactly("stale read at resourceVersion " + before, "stale read at resourceVersion " + before,
            null);
  }

  @Test
  void aPagedList_servesEveryPageFromThePast() {
    moveOn();
    cluster.faults().when(RequestPattern.list("ConfigMap")).once().answer(ApiFault.staleRead(before));

    ConfigMapList first = client.configMaps().inNamespace("default")
        .list(new ListOptionsBuilder().withLimit(2L).build());
    ConfigMapList second = client.configMaps().inNamespace("default")
        .list(new ListOptionsBuilder().withLimit(2L).withContinue(first.getMetadata().getContinue()).build());

    assertThat(first.getItems()).extracting(c -> c.getMetadata().getName()).containsExactly("a", "b");
    assertThat(first.getMetadata().getRemainingItemCount()).isOne();
    assertThat(second.getItems()).extracting(c -> c.getMetadata().getName()).containsExactly("c");
    assertThat(second.getMetadata().getResourceVersion()).isEqualTo(before);
  }

  @Test
  void aGet_answersTheObjectAsItWasThen_or404WhenItDidNotExist() {
    moveOn();
    cluster.faults().when(RequestPattern.get("ConfigMap")).answer(ApiFault.staleRead(before));

    ConfigMap oldA = client.configMaps().inNamespace("default").withName("a").get();
    ConfigMap deletedB = client.configMaps().inNamespace("default").withName("b").get();
    RawApi.Reply d = new RawApi(cluster.url()).get("/api/v1/namespaces/default/configmaps/d");

    assertThat(rv(oldA) + " v=" + oldA.getData().get("v")).isEqualTo(rv(a) + " v=1");
    assertThat(rv(deletedB)).isEqualTo(rv(b));
    assertThat(d.code()).isEqualTo(404);
    assertThat(d.json()).isEqualTo(RawApi.json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"configmaps \\"d\\" not found","reason":"NotFound",
         "details":{"name":"d","kind":"configmaps"},"code":404}"""));
  }

  @Test
  void otherVerbs_areServedNormally_notCounted_andLeaveNoFiring() {
    FaultRule rule = cluster.faults().when(RequestPattern.any().kind("ConfigMap"))
        .answer(ApiFault.staleRead(before));

    ConfigMap updated = client.configMaps().resource(withData(a, "2")).update();
    ConfigMap created = client.configMaps().resource(configMap("e", Map.of())).create();
    ConfigMap read = client.configMaps().inNamespace("default").withName("a").get();

    assertThat(updated.getData()).containsEntry("v", "2");
    assertThat(created.getMetadata().getResourceVersion()).isEqualTo(cluster.resourceVersion());
    assertThat(read.getData()).as("the GET reads the past").containsEntry("v", "1");
    assertThat(rule.fired()).isOne();
    assertThat(cluster.faults().firings()).extracting(FaultFiring::fault)
        .containsExactly("stale read at resourceVersion " + before);
    assertThat(cluster.requests().entries(RequestPattern.writes()))
        .extracting(r -> r.verb() + " " + r.code() + " fault=" + r.fault())
        .containsExactly("update 200 fault=null", "create 201 fault=null");
  }

  @Test
  void beyondTheWatchHistory_itAnswers410Expired_andInTheFuture504() {
    try (FakeCluster small = FakeCluster.builder().withClientTransport(transport).withWatchHistoryLimit(2).build()) {
      String old = small.resourceVersion();
      small.create(configMap("x", Map.of()));
      small.create(configMap("y", Map.of()));
      small.create(configMap("z", Map.of()));
      String oldest = Long.toString(Long.parseLong(small.resourceVersion()) - 2);
      small.faults().when(RequestPattern.list("ConfigMap")).once().answer(ApiFault.staleRead(old));
      small.faults().when(RequestPattern.list("ConfigMap")).once().answer(ApiFault.staleRead("999"));

      assertThatThrownBy(() -> small.client().configMaps().inNamespace("default").list())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(410);
            assertThat(e.getStatus().getReason()).isEqualTo("Expired");
            assertThat(e.getStatus().getMessage()).isEqualTo("too old resource version: " + old + " (" + oldest
                + ")");
          });
      assertThatThrownBy(() -> small.client().configMaps().inNamespace("default").list())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(504);
            assertThat(e.getStatus().getMessage()).isEqualTo("Timeout: Too large resource version: 999, current: "
                + small.resourceVersion());
          });
    }
  }

  @Test
  void anInformerThatListsStale_watchesFromThatResourceVersion_andCatchesUpInOrder() {
    cluster.faults().when(RequestPattern.list("ConfigMap")).once().answer(ApiFault.staleRead(before));
    ConfigMap a2 = client.configMaps().inNamespace("default").withName("a").edit(c -> withData(c, "2"));
    client.configMaps().inNamespace("default").withName("b").delete();
    String bDeleted = cluster.resourceVersion();
    ConfigMap d = cluster.create(configMap("d", Map.of("app", "web"), Map.of("v", "1")));
    Recorder recorder = new Recorder();

    SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("default").withLabel("app", "web")
        .inform(recorder);
    try {
      await("the informer catches up").atMost(WAIT)
          .until(() -> cache(informer).equals(List.of("a@" + rv(a2), "d@" + rv(d))));
      assertThat(recorder.calls).containsExactly("add a@" + rv(a), "add b@" + rv(b), "update a@" + rv(a2),
          "delete b@" + bDeleted, "add d@" + rv(d));
      assertThat(recorder.lists).hasValue(1);
      assertThat(cluster.requests().entries(RequestPattern.watch("ConfigMap"))).as("one watch, served normally")
          .extracting(ApiRequestRecord::fault).containsExactly((String) null);
    } finally {
      informer.close();
    }
  }

  @Test
  void staleRead_refusesAnythingButAPositiveInteger() {
    for (String bad : List.of("", "0", "-3", "+3", "07", "3.0", "abc", "99999999999999999999")) {
      assertThatThrownBy(() -> ApiFault.staleRead(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("ApiFault.staleRead: resourceVersion must be a positive integer, as "
              + "FakeCluster.resourceVersion() returns it, was \"" + bad + "\". Read cluster.resourceVersion() when "
              + "the state a stale read should show is current.");
    }
    assertThatThrownBy(() -> ApiFault.staleRead(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("ApiFault.staleRead: resourceVersion is null");
    assertThat(ApiFault.staleRead("12")).hasToString("stale read at resourceVersion 12");
  }
}
