package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static dev.ctk.fake.testing.Fixtures.deployment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.RequestPattern;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The request journal: one record per answered request and per injected event, every component filled in. */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class RequestJournalTest {

  @Parameter
  ClientTransport transport;

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

  private FakeCluster cluster;
  private KubernetesClient client;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClientTransport(transport).build();
    client = cluster.client();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  /** The summary without its sequence number, which depends on the order of the test's requests. */
  private static String line(ApiRequestRecord r) {
    return r.summary().replaceFirst("^#\\d+ ", "");
  }

  private ApiRequestRecord last() {
    List<ApiRequestRecord> all = cluster.requests().all();
    return all.get(all.size() - 1);
  }

  @Test
  void everyVerb_isRecordedWithItsComponents() {
    client.configMaps().inNamespace("default").resource(configMap("web", Map.of("app", "web"), Map.of("k", "v")))
        .create();
    ApiRequestRecord create = last();
    assertThat(line(create)).isEqualTo("create configmaps in default -> 201 changed");
    assertThat(create.verb()).isEqualTo("create");
    assertThat(create.kind()).isEqualTo("ConfigMap");
    assertThat(create.resource()).isEqualTo("configmaps");
    assertThat(create.namespace()).isEqualTo("default");
    assertThat(create.name()).isNull();
    assertThat(create.client()).startsWith("fabric8-kubernetes-client/");
    assertThat(create.code()).isEqualTo(201);
    assertThat(create.changed()).isTrue();
    assertThat(create.fault()).isNull();
    assertThat(create.time()).isNotNull();

    ConfigMap web = client.configMaps().inNamespace("default").withName("web").get();
    assertThat(line(last())).isEqualTo("get configmaps default/web -> 200");

    client.configMaps().inNamespace("default").withLabel("app", "web").list();
    assertThat(line(last())).isEqualTo("list configmaps in default (labelSelector=app=web) -> 200");
    assertThat(last().labelSelector()).isEqualTo("app=web");

    String rv = web.getMetadata().getResourceVersion();
    web.setData(Map.of("k", "updated"));
    ConfigMap updated = client.configMaps().inNamespace("default").resource(web).update();
    assertThat(line(last())).isEqualTo("update configmaps default/web (resourceVersion=" + rv + ") -> 200 changed");
    assertThat(last().bodyResourceVersion()).isEqualTo(rv);

    String unconditional = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"web\","
        + "\"labels\":{\"app\":\"web\"}},\"data\":{\"k\":\"unconditional\"}}";
    assertThat(api.put(CONFIGMAPS + "/web", unconditional).code()).isEqualTo(200);
    assertThat(line(last())).isEqualTo("update configmaps default/web (no resourceVersion) -> 200 changed");
    assertThat(last().bodyResourceVersion()).isNull();
    assertThat(last().client()).doesNotStartWith("fabric8");

    assertThat(api.put(CONFIGMAPS + "/web", unconditional).code()).isEqualTo(200);
    assertThat(line(last())).isEqualTo("update configmaps default/web (no resourceVersion) -> 200 no change");
    assertThat(last().changed()).isFalse();

    String current = cluster.resourceVersion();
    assertThat(api.patch(CONFIGMAPS + "/web", "application/json-patch+json",
        "[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"" + current + "\"},"
            + "{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"json\"}]").code()).isEqualTo(200);
    assertThat(line(last())).isEqualTo("patch configmaps default/web (json, resourceVersion=" + current
        + ") -> 200 changed");
    assertThat(last().patchType()).isEqualTo("json");

    assertThat(api.patch(CONFIGMAPS + "/web", "application/merge-patch+json", "{\"data\":{\"k\":\"merge\"}}")
        .code()).isEqualTo(200);
    assertThat(line(last())).isEqualTo("patch configmaps default/web (merge, no resourceVersion) -> 200 changed");

    String now = cluster.resourceVersion();
    assertThat(api.patch(CONFIGMAPS + "/web", "application/strategic-merge-patch+json",
        "{\"metadata\":{\"resourceVersion\":\"" + now + "\"},\"data\":{\"k\":\"strategic\"}}").code())
        .isEqualTo(200);
    assertThat(line(last())).isEqualTo("patch configmaps default/web (strategic-merge, resourceVersion=" + now
        + ") -> 200 changed");

    assertThat(api.patch(CONFIGMAPS + "/web", "application/merge-patch+json", "{\"data\":{\"k\":\"strategic\"}}")
        .code()).isEqualTo(200);
    assertThat(line(last())).isEqualTo("patch configmaps default/web (merge, no resourceVersion) -> 200 no change");

    String apply = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  k: a\n";
    assertThat(api.patch(CONFIGMAPS + "/applied?fieldManager=ctk", "application/apply-patch+yaml", apply).code())
        .isEqualTo(201);
    assertThat(line(last())).isEqualTo("patch configmaps default/applied (apply, fieldManager=ctk) -> 201 changed");
    assertThat(last().fieldManager()).isEqualTo("ctk");
    assertThat(api.patch(CONFIGMAPS + "/applied?fieldManager=ctk", "application/apply-patch+yaml", apply).code())
        .isEqualTo(200);
    assertThat(line(last())).isEqualTo("patch configmaps default/applied (apply, fieldManager=ctk) -> 200 no change");
    assertThat(last().changed()).isFalse();

    client.configMaps().inNamespace("default").withName("web").delete();
    assertThat(line(last())).isEqualTo("delete configmaps default/web -> 200 changed");

    client.configMaps().inNamespace("default").withLabel("gone", "yes").delete();
    assertThat(line(last())).isEqualTo("deletecollection configmaps in default (labelSelector=gone=yes) -> 200 "
        + "no change");
    client.configMaps().inNamespace("default").withField("metadata.name", "applied").delete();
    assertThat(line(last())).isEqualTo("deletecollection configmaps in default (fieldSelector=metadata.name=applied)"
        + " -> 200 changed");

    assertThat(api.get("/version").code()).isEqualTo(200);
    ApiRequestRecord version = last();
    assertThat(line(version)).isEqualTo("get /version -> 200");
    assertThat(version.kind()).isNull();
  }

  @Test
  void statusSubresource_isRecordedAsSubresource() {
    Deployment created = client.apps().deployments().inNamespace("default").resource(deployment("web", "nginx:1"))
        .create();
    created.setStatus(new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder().withReplicas(1).build());
    client.apps().deployments().inNamespace("default").resource(created).updateStatus();
    ApiRequestRecord status = last();
    assertThat(line(status)).isEqualTo("update deployments default/web/status (resourceVersion="
        + created.getMetadata().getResourceVersion() + ") -> 200 changed, generation 1");
    assertThat(status.subresource()).isEqualTo("status");
    assertThat(status.kind()).isEqualTo("Deployment");
    assertThat(cluster.requests().entries(RequestPattern.update("Deployment").subresource("status"))).hasSize(1);
    assertThat(cluster.requests().entries(RequestPattern.update("deployments").withoutSubresource())).isEmpty();
  }

  @Test
  void generation_isRecordedAsStored_bumpedBySpecWritesOnly() {
    String deployments = "/apis/apps/v1/namespaces/default/deployments";
    String merge = "application/merge-patch+json";
    // create: generation 1
    client.apps().deployments().inNamespace("default").resource(deployment("web", "nginx:1")).create();
    assertThat(line(last())).isEqualTo("create deployments in default -> 201 changed, generation 1");
    assertThat(last().generation()).isEqualTo(1L);
    // reads: none
    client.apps().deployments().inNamespace("default").withName("web").get();
    assertThat(line(last())).isEqualTo("get deployments default/web -> 200");
    assertThat(last().generation()).isNull();
    client.apps().deployments().inNamespace("default").list();
    assertThat(line(last())).isEqualTo("list deployments in default -> 200");
    assertThat(last().generation()).isNull();
    // a spec write bumps it
    assertThat(api.patch(deployments + "/web", merge, "{\"spec\":{\"replicas\":2}}").code()).isEqualTo(200);
    assertThat(line(last())).isEqualTo("patch deployments default/web (merge, no resourceVersion) -> 200 changed, "
        + "generation 2");
    assertThat(last().generation()).isEqualTo(2L);
    // a status write leaves it
    assertThat(api.patch(deployments + "/web/status", merge, "{\"status\":{\"replicas\":2}}").code())
        .isEqualTo(200);
    assertThat(line(last())).isEqualTo("patch deployments default/web/status (merge, no resourceVersion) -> 200 "
        + "changed, generation 2");
    assertThat(last().generation()).isEqualTo(2L);
    // a label change (metadata only) leaves it
    assertThat(api.patch(deployments + "/web", merge, "{\"metadata\":{\"labels\":{\"tier\":\"front\"}}}")
        .code()).isEqualTo(200);
    assertThat(line(last())).isEqualTo("patch deployments default/web (merge, no resourceVersion) -> 200 changed, "
        + "generation 2");
    assertThat(last().generation()).isEqualTo(2L);
    // a write that changes nothing: still the stored generation, not shown in the summary
    assertThat(api.patch(deployments + "/web", merge, "{\"spec\":{\"replicas\":2}}").code()).isEqualTo(200);
    assertThat(line(last())).isEqualTo("patch deployments default/web (merge, no resourceVersion) -> 200 no change");
    assertThat(last().generation()).isEqualTo(2L);
    // a write to the scale subresource bumps the parent's
    assertThat(api.patch(deployments + "/web/scale", merge, "{\"spec\":{\"replicas\":3}}").code())
        .isEqualTo(200);
    assertThat(line(last())).isEqualTo("patch deployments default/web/scale (merge, no resourceVersion) -> 200 "
        + "changed, generation 3");
    // a refused write: none
    assertThat(api.patch(deployments + "/web", merge, "{\"metadata\":{\"resourceVersion\":\"1\"},"
        + "\"spec\":{\"replicas\":4}}").code()).isEqualTo(409);
    assertThat(last().generation()).isNull();
    // a delete that removed the object: none
    client.apps().deployments().inNamespace("default").withName("web").delete();
    assertThat(line(last())).isEqualTo("delete deployments default/web -> 200 changed");
    assertThat(last().generation()).isNull();
    // a delete that a finalizer holds back: the generation of the object it left
    Deployment held = deployment("held", "nginx:1");
    held.getMetadata().setFinalizers(List.of("ctk.dev/hold"));
    client.apps().deployments().inNamespace("default").resource(held).create();
    client.apps().deployments().inNamespace("default").withName("held").delete();
    assertThat(last().verb()).isEqualTo("delete");
    assertThat(last().generation()).isNotNull().isEqualTo(client.apps().deployments().inNamespace("default")
        .withName("held").get().getMetadata().getGeneration());
  }

  @Test
  void generation_isNullForKindsWithout_andRecordedForInjectedEvents() {
    client.configMaps().inNamespace("default").resource(configMap("web", Map.of("k", "v"))).create();
    assertThat(line(last())).isEqualTo("create configmaps in default -> 201 changed");
    assertThat(last().generation()).isNull();

    Deployment added = cluster.events().add(deployment("web", "nginx:1"));
    assertThat(last().generation()).isEqualTo(1L);
    added.getSpec().setReplicas(5);
    cluster.events().update(added);
    assertThat(last().generation()).isEqualTo(2L);
    assertThat(line(last())).isEqualTo("update deployments default/web [injected]");
  }

  @Test
  void watches_overWebsocketAndHttp_areRecordedWhenOpened() throws Exception {
    try (Watch watch = client.configMaps().inNamespace("default").watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, ConfigMap resource) {
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    })) {
      assertThat(watch).isNotNull();
      ApiRequestRecord ws = cluster.requests().entries(RequestPattern.watch("ConfigMap")).get(0);
      assertThat(line(ws)).isEqualTo("watch configmaps in default -> 101");
      assertThat(ws.succeeded()).isTrue();
    }
    try (WatchLines lines = api.watch(CONFIGMAPS + "?watch=true&labelSelector=app%3Dweb")) {
      await("the HTTP watch was recorded").atMost(WAIT)
          .until(() -> cluster.requests().entries(RequestPattern.watch("ConfigMap")).size() == 2);
      assertThat(line(cluster.requests().entries(RequestPattern.watch("ConfigMap")).get(1)))
          .isEqualTo("watch configmaps in default (labelSelector=app=web) -> 200");
      assertThat(lines.hasEnded()).isFalse();
    }
  }

  @Test
  void injectedEvents_areRecordedWithTheInjectorAsClient() {
    ConfigMap added = cluster.events().add(configMap("web", Map.of("k", "v")));
    cluster.events().update(added);
    added.setData(Map.of("k", "w"));
    cluster.events().update(added);
    cluster.events().emitDeleted(added);
    cluster.events().delete(added);

    assertThat(cluster.requests().entries()).isEmpty();
    assertThat(cluster.requests().injections()).extracting(RequestJournalTest::line).containsExactly(
        "add configmaps default/web [injected]",
        "update configmaps default/web [injected]",
        "update configmaps default/web [injected]",
        "emitDeleted configmaps default/web [injected]",
        "delete configmaps default/web [injected]");
    assertThat(cluster.requests().injections()).extracting(ApiRequestRecord::changed)
        .containsExactly(true, false, true, false, true);
    assertThat(cluster.requests().injections()).extracting(ApiRequestRecord::client)
        .containsOnly(ApiRequestRecord.INJECTOR);
    assertThat(cluster.requests().injections().get(0).code()).isEqualTo(201);
    assertThat(cluster.requests().entries(RequestPattern.any())).isEmpty();
  }

  @Test
  void sequences_areGlobalAndIncreasing_andSinceReadsWhatCameAfter() {
    cluster.events().add(configMap("a", Map.of()));
    client.configMaps().inNamespace("default").withName("a").get();
    long mark = cluster.requests().lastSequence();
    assertThat(mark).isEqualTo(2);
    cluster.events().add(configMap("b", Map.of()));
    client.configMaps().inNamespace("default").withName("b").get();

    assertThat(cluster.requests().all()).extracting(ApiRequestRecord::sequence).containsExactly(1L, 2L, 3L, 4L);
    assertThat(cluster.requests().since(mark)).extracting(ApiRequestRecord::summary).containsExactly(
        "#3 add configmaps default/b [injected]", "#4 get configmaps default/b -> 200");

    cluster.requests().clear();
    assertThat(cluster.requests().all()).isEmpty();
    client.configMaps().inNamespace("default").withName("b").get();
    assertThat(cluster.requests().all()).extracting(ApiRequestRecord::sequence).containsExactly(5L);
  }

  @Test
  void journal_isBounded_keepingTheNewestEntries() {
    assertThat(cluster.requests().limit()).isEqualTo(10_000);
    dev.ctk.fake.internal.http.RequestJournal journal = new dev.ctk.fake.internal.http.RequestJournal(3);
    for (int i = 0; i < 5; i++) {
      long sequence = journal.receive();
      journal.add(new dev.ctk.fake.internal.http.RequestJournal.Entry(ApiRequestRecord.builder()
          .sequence(sequence).time(java.time.Instant.EPOCH).verb("get").kind("ConfigMap").resource("configmaps")
          .namespace("default").name("c" + sequence).client("test").code(200).build(), "GET", "/", "", "http"));
    }
    assertThat(journal.records()).extracting(ApiRequestRecord::summary).containsExactly(
        "#3 get configmaps default/c3 -> 200", "#4 get configmaps default/c4 -> 200",
        "#5 get configmaps default/c5 -> 200");
    assertThat(journal.lastSequence()).isEqualTo(5);
  }
}
