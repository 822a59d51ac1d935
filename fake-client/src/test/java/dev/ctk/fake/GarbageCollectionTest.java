package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.deployment;
import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import dev.ctk.fake.testing.WatchLines;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ownerReference garbage collector: Background, Orphan and Foreground propagation, recursion through
 * Deployment, ReplicaSet and Pod, blockOwnerDeletion, owners that remain, the DeleteOptions parsing, and the switch
 * that turns it off.
 */
class GarbageCollectionTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";
  private static final String REPLICASETS = "/apis/apps/v1/namespaces/default/replicasets";
  private static final String PODS = "/api/v1/namespaces/default/pods";

  private FakeCluster cluster;
  private RawApi api;

  private void start(boolean garbageCollection) {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withGarbageCollection(garbageCollection)
        .build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void background_deletesDependentsRecursively_eachAfterItsOwner() {
    start(true);
    Deployment web = cluster.create(deployment("web", "nginx:1"));
    ReplicaSet rs = cluster.create(replicaSet("web-1", owner(web, false)));
    cluster.create(pod("web-1-a", owner(rs, false)));
    cluster.create(pod("web-1-b", owner(rs, false)));
    String before = cluster.resourceVersion();

    try (WatchLines deployments = api.watch(DEPLOYMENTS + "?watch=true&resourceVersion=" + before);
        WatchLines replicaSets = api.watch(REPLICASETS + "?watch=true&resourceVersion=" + before);
        WatchLines pods = api.watch(PODS + "?watch=true&resourceVersion=" + before)) {
      assertThat(cluster.client().apps().deployments().inNamespace("default").withName("web").delete()).hasSize(1);
      cluster.awaitGarbageCollection(WAIT);

      assertThat(api.get(REPLICASETS + "/web-1").code()).isEqualTo(404);
      assertThat(api.get(PODS).json().path("items")).isEmpty();
      await("DELETED events of web, web-1, web-1-a and web-1-b").atMost(WAIT).until(
          () -> deployments.events().size() + replicaSets.events().size() + pods.events().size() == 4);
      assertThat(deployments.summary()).containsExactly("DELETED web");
      assertThat(replicaSets.summary()).containsExactly("DELETED web-1");
      assertThat(pods.summary()).containsExactly("DELETED web-1-a", "DELETED web-1-b");
      long deploymentGone = rv(deployments.events().get(0));
      long replicaSetGone = rv(replicaSets.events().get(0));
      assertThat(deploymentGone).isEqualTo(Long.parseLong(before) + 1);
      assertThat(replicaSetGone).isEqualTo(deploymentGone + 1);
      assertThat(rv(pods.events().get(0))).isEqualTo(replicaSetGone + 1);
      assertThat(rv(pods.events().get(1))).isEqualTo(replicaSetGone + 2);
    }
  }

  @Test
  void background_dependentWithAnotherLiveOwner_onlyLosesTheReference() {
    start(true);
    ConfigMap a = cluster.create(configMap("a", List.of()));
    ConfigMap b = cluster.create(configMap("b", List.of()));
    cluster.create(configMap("shared", List.of(owner(a, false), owner(b, false))));

    cluster.client().configMaps().inNamespace("default").withName("a").delete();
    cluster.awaitGarbageCollection(WAIT);

    ConfigMap shared = cluster.client().configMaps().inNamespace("default").withName("shared").get();
    assertThat(shared.getMetadata().getOwnerReferences()).extracting(OwnerReference::getName).containsExactly("b");
  }

  @Test
  void background_dependentWithFinalizer_isMarkedAndStays() {
    start(true);
    ConfigMap owner = cluster.create(configMap("owner", List.of()));
    ConfigMap held = new ConfigMapBuilder(configMap("held", List.of(owner(owner, false)))).editMetadata()
        .addToFinalizers("example.com/hold").endMetadata().build();
    cluster.create(held);

    cluster.client().configMaps().inNamespace("default").withName("owner").delete();
    cluster.awaitGarbageCollection(WAIT);

    JsonNode stored = api.get("/api/v1/namespaces/default/configmaps/held").json();
    assertThat(stored.path("metadata").path("deletionTimestamp").asText()).isEqualTo("2025-03-01T12:00:00Z");
    assertThat(stored.path("metadata").path("finalizers")).isEqualTo(json("[\"example.com/hold\"]"));
  }

  @Test
  void orphan_ownerGoesAfterItsDependentsLoseTheReference() {
    start(true);
    Deployment web = cluster.create(deployment("web", "nginx:1"));
    cluster.create(replicaSet("web-1", owner(web, true)));
    String before = cluster.resourceVersion();

    try (WatchLines deployments = api.watch(DEPLOYMENTS + "?watch=true&resourceVersion=" + before);
        WatchLines replicaSets = api.watch(REPLICASETS + "?watch=true&resourceVersion=" + before)) {
      Reply reply = api.delete(DEPLOYMENTS + "/web", "{\"propagationPolicy\":\"Orphan\"}");

      assertThat(reply.code()).isEqualTo(200);
      assertThat(reply.json().path("metadata").path("finalizers")).isEqualTo(json("[\"orphan\"]"));
      assertThat(reply.json().path("metadata").path("deletionTimestamp").asText()).isEqualTo("2025-03-01T12:00:00Z");
      cluster.awaitGarbageCollection(WAIT);
      assertThat(api.get(DEPLOYMENTS + "/web").code()).isEqualTo(404);
      JsonNode rs = api.get(REPLICASETS + "/web-1").json();
      assertThat(rs.path("metadata").has("ownerReferences")).isFalse();
      assertThat(rs.path("metadata").has("deletionTimestamp")).isFalse();
      await("MODIFIED web, MODIFIED web-1, DELETED web").atMost(WAIT)
          .until(() -> deployments.events().size() == 2 && replicaSets.events().size() == 1);
      assertThat(deployments.summary()).containsExactly("MODIFIED web", "DELETED web");
      assertThat(replicaSets.summary()).containsExactly("MODIFIED web-1");
      long base = Long.parseLong(before);
      assertThat(List.of(rv(deployments.events().get(0)), rv(replicaSets.events().get(0)),
          rv(deployments.events().get(1)))).containsExactly(base + 1, base + 2, base + 3);
    }
  }

  @Test
  void orphan_fromQueryParameters_whenThereIsNoBody() {
    start(true);
    ConfigMap owner = cluster.create(configMap("owner", List.of()));
    cluster.create(configMap("kept", List.of(owner(owner, false))));

    assertThat(api.delete("/api/v1/namespaces/default/configmaps/owner?propagationPolicy=Orphan").code())
        .isEqualTo(200);
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get("/api/v1/namespaces/default/configmaps/owner").code()).isEqualTo(404);
    assertThat(api.get("/api/v1/namespaces/default/configmaps/kept").json().path("metadata").has("ownerReferences"))
        .isFalse();
  }

  @Test
  void orphanDependentsTrue_isOrphan() {
    start(true);
    ConfigMap owner = cluster.create(configMap("owner", List.of()));
    cluster.create(configMap("kept", List.of(owner(owner, false))));

    api.delete("/api/v1/namespaces/default/configmaps/owner", "{\"orphanDependents\":true}");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get("/api/v1/namespaces/default/configmaps/kept").code()).isEqualTo(200);
  }

  @Test
  void foreground_ownerWaitsForBlockingDependents_recursively() {
    start(true);
    Deployment web = cluster.create(deployment("web", "nginx:1"));
    ReplicaSet rs = cluster.create(replicaSet("web-1", owner(web, true)));
    cluster.create(new PodBuilder(pod("web-1-a", owner(rs, true))).editMetadata()
        .addToFinalizers("example.com/hold").endMetadata().build());
    KubernetesClient client = cluster.client();

    assertThat(client.apps().deployments().inNamespace("default").withName("web")
        .withPropagationPolicy(DeletionPropagation.FOREGROUND).delete()).hasSize(1);
    cluster.awaitGarbageCollection(WAIT);

    Deployment waiting = client.apps().deployments().inNamespace("default").withName("web").get();
    assertThat(waiting.getMetadata().getFinalizers()).containsExactly("foregroundDeletion");
    ReplicaSet rsWaiting = client.apps().replicaSets().inNamespace("default").withName("web-1").get();
    assertThat(rsWaiting.getMetadata().getFinalizers()).containsExactly("foregroundDeletion");
    Pod held = client.pods().inNamespace("default").withName("web-1-a").get();
    assertThat(held.getMetadata().getDeletionTimestamp()).isEqualTo("2025-03-01T12:00:00Z");

    client.pods().inNamespace("default").withName("web-1-a").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"finalizers\":null}}");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(client.pods().inNamespace("default").withName("web-1-a").get()).isNull();
    assertThat(client.apps().replicaSets().inNamespace("default").withName("web-1").get()).isNull();
    assertThat(client.apps().deployments().inNamespace("default").withName("web").get()).isNull();
  }

  @Test
  void foreground_nonBlockingDependent_doesNotHoldTheOwner() {
    start(true);
    ConfigMap owner = cluster.create(configMap("owner", List.of()));
    cluster.create(new ConfigMapBuilder(configMap("loose", List.of(owner(owner, false)))).editMetadata()
        .addToFinalizers("example.com/hold").endMetadata().build());

    api.delete("/api/v1/namespaces/default/configmaps/owner", "{\"propagationPolicy\":\"Foreground\"}");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get("/api/v1/namespaces/default/configmaps/owner").code()).isEqualTo(404);
    assertThat(api.get("/api/v1/namespaces/default/configmaps/loose").json().path("metadata")
        .path("deletionTimestamp").asText()).isEqualTo("2025-03-01T12:00:00Z");
  }

  @Test
  void switchedOff_dependentsStay_andPolicyFinalizersHoldTheOwner() {
    start(false);
    Deployment web = cluster.create(deployment("web", "nginx:1"));
    cluster.create(replicaSet("web-1", owner(web, true)));
    ConfigMap owner = cluster.create(configMap("owner", List.of()));
    cluster.create(configMap("kept", List.of(owner(owner, false))));

    cluster.client().apps().deployments().inNamespace("default").withName("web").delete();
    api.delete("/api/v1/namespaces/default/configmaps/owner", "{\"propagationPolicy\":\"Foreground\"}");

    assertThat(api.get(DEPLOYMENTS + "/web").code()).isEqualTo(404);
    assertThat(api.get(REPLICASETS + "/web-1").json().path("metadata").path("ownerReferences").get(0)
        .path("name").asText()).isEqualTo("web");
    JsonNode held = api.get("/api/v1/namespaces/default/configmaps/owner").json();
    assertThat(held.path("metadata").path("finalizers")).isEqualTo(json("[\"foregroundDeletion\"]"));
    assertThat(api.get("/api/v1/namespaces/default/configmaps/kept").code()).isEqualTo(200);
  }

  @Test
  void backgroundDelete_ofAnOwnerWaitingInForeground_dropsTheFinalizer_andCollects() {
    start(true);
    ConfigMap owner = cluster.create(configMap("owner", List.of()));
    cluster.create(new ConfigMapBuilder(configMap("blocker", List.of(owner(owner, true)))).editMetadata()
        .addToFinalizers("example.com/hold").endMetadata().build());
    api.delete("/api/v1/namespaces/default/configmaps/owner", "{\"propagationPolicy\":\"Foreground\"}");
    cluster.awaitGarbageCollection(WAIT);
    assertThat(api.get("/api/v1/namespaces/default/configmaps/owner").json().path("metadata").path("finalizers"))
        .isEqualTo(json("[\"foregroundDeletion\"]"));

    Reply reply = api.delete("/api/v1/namespaces/default/configmaps/owner", "{\"propagationPolicy\":\"Background\"}");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(reply.code()).isEqualTo(200);
    assertThat(api.get("/api/v1/namespaces/default/configmaps/owner").code()).isEqualTo(404);
    assertThat(api.get("/api/v1/namespaces/default/configmaps/blocker").json().path("metadata")
        .path("finalizers")).isEqualTo(json("[\"example.com/hold\"]"));
  }

  @Test
  void deleteWithoutAPolicy_keepsTheObjectsOwnForegroundFinalizer() {
    start(true);
    ConfigMap owner = cluster.create(new ConfigMapBuilder(configMap("owner", List.of())).editMetadata()
        .addToFinalizers("foregroundDeletion").endMetadata().build());
    cluster.create(new ConfigMapBuilder(configMap("blocker", List.of(owner(owner, true)))).editMetadata()
        .addToFinalizers("example.com/hold").endMetadata().build());

    Reply reply = api.delete("/api/v1/namespaces/default/configmaps/owner");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(reply.code()).isEqualTo(200);
    assertThat(reply.json().path("metadata").path("finalizers")).isEqualTo(json("[\"foregroundDeletion\"]"));
    assertThat(api.get("/api/v1/namespaces/default/configmaps/owner").code()).isEqualTo(200);
    assertThat(api.get("/api/v1/namespaces/default/configmaps/blocker").json().path("metadata")
        .path("deletionTimestamp").asText()).isEqualTo("2025-03-01T12:00:00Z");
  }

  @Test
  void aJobDeletedWithoutAPolicy_orphansItsPods_asKubeDefaultsBatchV1Jobs() {
    start(true);
    Reply job = api.post("/apis/batch/v1/namespaces/default/jobs", "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\","
        + "\"metadata\":{\"name\":\"once\"},\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"Never\","
        + "\"containers\":[{\"name\":\"main\",\"image\":\"busybox\"}]}}}}");
    assertThat(job.code()).isEqualTo(201);
    OwnerReference ref = new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job").withName("once")
        .withUid(job.json().path("metadata").path("uid").asText()).withController(true).build();
    cluster.create(pod("once-a", ref));

    Reply deleted = api.delete("/apis/batch/v1/namespaces/default/jobs/once");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(deleted.json().path("metadata").path("finalizers")).isEqualTo(json("[\"orphan\"]"));
    assertThat(api.get("/apis/batch/v1/namespaces/default/jobs/once").code()).isEqualTo(404);
    JsonNode pod = api.get(PODS + "/once-a").json();
    assertThat(pod.path("metadata").has("ownerReferences")).as("the Pod stays, without its reference: %s", pod)
        .isFalse();
  }

  @Test
  void eventInjectorDelete_isADeleteWithoutAPolicy_asTheApiServesIt() {
    start(false);
    Reply job = api.post("/apis/batch/v1/namespaces/default/jobs", "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\","
        + "\"metadata\":{\"name\":\"once\"},\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"Never\","
        + "\"containers\":[{\"name\":\"main\",\"image\":\"busybox\"}]}}}}");
    io.fabric8.kubernetes.api.model.batch.v1.Job created = cluster.client().batch().v1().jobs().inNamespace("default")
        .withName("once").get();

    cluster.events().delete(created);
    String marked = api.get("/apis/batch/v1/namespaces/default/jobs/once").body();
    cluster.events().delete(created);

    assertThat(job.code()).isEqualTo(201);
    assertThat(json(marked).path("metadata").path("finalizers")).as("marked with kube's Orphan default")
        .isEqualTo(json("[\"orphan\"]"));
    assertThat(api.get("/apis/batch/v1/namespaces/default/jobs/once").body()).as("a second delete changes nothing")
        .isEqualTo(marked);
  }

  @Test
  void anEvent_getsNoPolicyFinalizer_evenInForeground() {
    start(true);
    api.post("/api/v1/namespaces/default/events", "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":"
        + "{\"name\":\"e\"},\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"default\"},"
        + "\"reason\":\"Test\",\"message\":\"m\"}");

    Reply deleted = api.delete("/api/v1/namespaces/default/events/e", "{\"propagationPolicy\":\"Foreground\"}");

    assertThat(deleted.code()).isEqualTo(200);
    assertThat(deleted.json().path("kind").asText()).isEqualTo("Status");
    assertThat(api.get("/api/v1/namespaces/default/events/e").code()).isEqualTo(404);
  }

  @Test
  void foreground_aCycleOfBlockingOwners_ends() {
    start(true);
    ConfigMap a = cluster.create(configMap("a", List.of()));
    ConfigMap b = cluster.create(configMap("b", List.of(owner(a, true))));
    cluster.client().configMaps().inNamespace("default").withName("a").edit(cm -> new ConfigMapBuilder(cm)
        .editMetadata().withOwnerReferences(owner(b, true)).endMetadata().build());

    api.delete("/api/v1/namespaces/default/configmaps/a", "{\"propagationPolicy\":\"Foreground\"}");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get("/api/v1/namespaces/default/configmaps/a").code()).isEqualTo(404);
    assertThat(api.get("/api/v1/namespaces/default/configmaps/b").code()).isEqualTo(404);
  }

  @Test
  void foreground_aDependentBeingDeletedAlready_keepsBlockingItsOwner() {
    start(true);
    ConfigMap a = cluster.create(configMap("a", List.of()));
    ConfigMap b = cluster.create(new ConfigMapBuilder(configMap("b", List.of(owner(a, true)))).editMetadata()
        .addToFinalizers("example.com/hold").endMetadata().build());
    ConfigMap c = cluster.create(configMap("c", List.of(owner(b, false))));
    cluster.create(new ConfigMapBuilder(configMap("d", List.of(owner(c, true)))).editMetadata()
        .addToFinalizers("example.com/hold").endMetadata().build());
    api.delete("/api/v1/namespaces/default/configmaps/c", "{\"propagationPolicy\":\"Foreground\"}");
    api.delete("/api/v1/namespaces/default/configmaps/b");
    cluster.awaitGarbageCollection(WAIT);

    api.delete("/api/v1/namespaces/default/configmaps/a", "{\"propagationPolicy\":\"Foreground\"}");
    cluster.awaitGarbageCollection(WAIT);

    JsonNode owner = api.get("/api/v1/namespaces/default/configmaps/a").json();
    assertThat(owner.path("metadata").path("finalizers")).as("a waits for b: %s", owner)
        .isEqualTo(json("[\"foregroundDeletion\"]"));
    assertThat(api.get("/api/v1/namespaces/default/configmaps/b").json().at("/metadata/ownerReferences/0"
        + "/blockOwnerDeletion").asBoolean()).isTrue();
  }

  @Test
  void bothOrphanDependentsAndPropagationPolicy_isInvalid() {
    start(true);
    cluster.create(configMap("owner", List.of()));

    Reply reply = api.delete("/api/v1/namespaces/default/configmaps/owner",
        "{\"propagationPolicy\":\"Orphan\",\"orphanDependents\":true}");

    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json().path("message").asText()).isEqualTo("DeleteOptions.meta.k8s.io \"\" is invalid: "
        + "propagationPolicy: Invalid value: \"Orphan\": orphanDependents and deletionPropagation cannot be both set");
  }

  @Test
  void unknownPropagationPolicy_isInvalid() {
    start(true);
    cluster.create(configMap("owner", List.of()));

    Reply reply = api.delete("/api/v1/namespaces/default/configmaps/owner", "{\"propagationPolicy\":\"Later\"}");

    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
        + "\"status\":\"Failure\",\"message\":\"DeleteOptions.meta.k8s.io \\\"\\\" is invalid: propagationPolicy: "
        + "Unsupported value: \\\"Later\\\": supported values: \\\"Foreground\\\", \\\"Background\\\", "
        + "\\\"Orphan\\\", \\\"nil\\\"\",\"reason\":\"Invalid\",\"details\":{\"group\":"
        + "\"meta.k8s.io\",\"kind\":\"DeleteOptions\",\"causes\":[{\"reason\":\"FieldValueNotSupported\","
        + "\"message\":\"Unsupported value: \\\"Later\\\": supported values: \\\"Foreground\\\", "
        + "\\\"Background\\\", \\\"Orphan\\\", \\\"nil\\\"\",\"field\":\"propagationPolicy\"}]},\"code\":422}"));
    assertThat(api.get("/api/v1/namespaces/default/configmaps/owner").code()).isEqualTo(200);
  }

  @Test
  void informer_seesDependentsDeletedAfterTheirOwner() {
    start(true);
    Deployment web = cluster.create(deployment("web", "nginx:1"));
    ReplicaSet rs = cluster.create(replicaSet("web-1", owner(web, false)));
    List<String> seen = new CopyOnWriteArrayList<>();
    try (KubernetesClient client = cluster.newClient();
        SharedIndexInformer<Pod> informer = client.pods().inNamespace("default").inform(recording(seen))) {
      cluster.create(pod("web-1-a", owner(rs, false)));
      cluster.create(pod("web-1-b", owner(rs, false)));
      await("informer adds of web-1-a and web-1-b").atMost(WAIT).until(() -> seen.size() == 2);

      client.apps().deployments().inNamespace("default").withName("web").delete();

      await("informer deletes of web-1-a and web-1-b").atMost(WAIT).until(() -> seen.size() == 4);
      assertThat(seen).containsExactly("add web-1-a", "add web-1-b", "delete web-1-a", "delete web-1-b");
      assertThat(informer.getStore().list()).isEmpty();
    }
  }

  @Test
  void informer_seesForegroundOwnerMarked_thenItsBlockerGone_thenTheOwnerGone() {
    start(true);
    ConfigMap owner = cluster.create(configMap("owner", List.of()));
    cluster.create(new ConfigMapBuilder(configMap("blocker", List.of(owner(owner, true)))).editMetadata()
        .addToFinalizers("example.com/hold").endMetadata().build());
    List<String> seen = new CopyOnWriteArrayList<>();
    try (KubernetesClient client = cluster.newClient();
        SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("default")
            .withLabel("app", "gc").inform(recording(seen))) {
      await("informer adds of owner and blocker").atMost(WAIT).until(() -> seen.size() == 2);

      api.delete("/api/v1/namespaces/default/configmaps/owner", "{\"propagationPolicy\":\"Foreground\"}");
      await("owner marked, blocker marked").atMost(WAIT).until(() -> seen.size() == 4);
      client.configMaps().inNamespace("default").withName("blocker").edit(c -> new ConfigMapBuilder(c)
          .editMetadata().withFinalizers(List.of()).endMetadata().build());

      await("blocker and owner deleted").atMost(WAIT).until(() -> seen.size() == 6);
      assertThat(seen).containsExactly("add blocker", "add owner", "update owner", "update blocker",
          "delete blocker", "delete owner");
      assertThat(informer.getStore().list()).isEmpty();
    }
  }

  // ---- fixtures ----

  private static <T extends HasMetadata> ResourceEventHandler<T> recording(List<String> seen) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T pod) {
        seen.add("add " + pod.getMetadata().getName());
      }

      @Override
      public void onUpdate(T old, T pod) {
        seen.add("update " + pod.getMetadata().getName());
      }

      @Override
      public void onDelete(T pod, boolean finalStateUnknown) {
        seen.add("delete " + pod.getMetadata().getName() + (finalStateUnknown ? " (final state unknown)" : ""));
      }
    };
  }

  private static long rv(JsonNode event) {
    return Long.parseLong(event.path("object").path("metadata").path("resourceVersion").asText());
  }

  static OwnerReference owner(HasMetadata owner, boolean blockOwnerDeletion) {
    return new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
        .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid())
        .withController(true).withBlockOwnerDeletion(blockOwnerDeletion).build();
  }

  static ConfigMap configMap(String name, List<OwnerReference> owners) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").addToLabels("app", "gc")
        .withOwnerReferences(owners).endMetadata().addToData("k", "v").build();
  }

  static ReplicaSet replicaSet(String name, OwnerReference owner) {
    return new ReplicaSetBuilder()
        .withNewMetadata().withName(name).withNamespace("default").addToLabels("app", "web")
        .withOwnerReferences(owner).endMetadata()
        .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", "web").endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec()
        .endTemplate().endSpec().build();
  }

  static Pod pod(String name, OwnerReference owner) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").addToLabels("app", "web")
        .withOwnerReferences(owner).endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec().build();
  }
}
