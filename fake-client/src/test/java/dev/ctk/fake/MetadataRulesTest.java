package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.NETWORKS;
import static dev.ctk.fake.testing.Fixtures.configMap;
import static dev.ctk.fake.testing.Fixtures.deployment;
import static dev.ctk.fake.testing.Fixtures.network;
import static dev.ctk.fake.testing.Fixtures.networkCrd;
import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** resourceVersion conflicts, generateName, generation, no-op updates and duplicate owner references. */
class MetadataRulesTest {

  private FakeCluster cluster;
  private KubernetesClient client;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withCrds(networkCrd()).withRandomSeed(7).build();
    client = cluster.client();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void staleResourceVersion_isConflictWithKubeMessage() {
    ConfigMap first = client.configMaps().resource(configMap("web", Map.of("k", "1"))).create();
    client.configMaps().resource(new ConfigMapBuilder(first).withData(Map.of("k", "2")).build()).update();

    Reply stale = api.put("/api/v1/namespaces/default/configmaps/web", "{\"metadata\":{\"name\":\"web\","
        + "\"resourceVersion\":\"" + first.getMetadata().getResourceVersion() + "\"},\"data\":{\"k\":\"3\"}}");

    assertThat(stale.code()).isEqualTo(409);
    assertThat(stale.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"Operation cannot be fulfilled on configmaps \\"web\\": the object has been modified; please apply your changes to the latest version and try again",
         "reason":"Conflict","details":{"name":"web","kind":"configmaps"},"code":409}"""));
    assertThat(client.configMaps().withName("web").get().getData()).containsEntry("k", "2");
  }

  @Test
  void staleResourceVersion_onGroupedKind_namesQualifiedResource() {
    Deployment d = client.apps().deployments().resource(deployment("web", "nginx:1")).create();
    client.apps().deployments().withName("web").edit(x -> {
      x.getSpec().setReplicas(2);
      return x;
    });
    Reply stale = api.put("/apis/apps/v1/namespaces/default/deployments/web", "{\"metadata\":{\"name\":\"web\","
        + "\"resourceVersion\":\"" + d.getMetadata().getResourceVersion() + "\"},\"spec\":{}}");
    assertThat(stale.json().path("message").asText()).isEqualTo("Operation cannot be fulfilled on "
        + "deployments.apps \"web\": the object has been modified; please apply your changes to the latest version "
        + "and try again");
    assertThat(stale.json().path("details")).isEqualTo(json(
        "{\"name\":\"web\",\"group\":\"apps\",\"kind\":\"deployments\"}"));
  }

  @Test
  void generateName_addsFiveCharactersFromKubeAlphabet_deterministicWithSeed() {
    Reply reply = api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"generateName\":\"job-\"}}");
    String name = reply.json().path("metadata").path("name").asText();

    assertThat(reply.code()).isEqualTo(201);
    assertThat(name).matches("job-[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertThat(reply.json().path("metadata").path("generateName").asText()).isEqualTo("job-");
    try (FakeCluster sameSeed = FakeCluster.builder().withRandomSeed(7).build();
        FakeCluster otherSeed = FakeCluster.builder().withRandomSeed(8).build()) {
      String again = new RawApi(sameSeed.url()).post("/api/v1/namespaces/default/configmaps",
          "{\"metadata\":{\"generateName\":\"job-\"}}").json().path("metadata").path("name").asText();
      String other = new RawApi(otherSeed.url()).post("/api/v1/namespaces/default/configmaps",
          "{\"metadata\":{\"generateName\":\"job-\"}}").json().path("metadata").path("name").asText();
      assertThat(again).isEqualTo(name);
      assertThat(other).isNotEqualTo(name);
    }
  }

  @Test
  void generation_deployment_bumpsOnSpecAndAnnotations_notOnLabelsOrStatus() {
    Deployment created = client.apps().deployments().resource(deployment("web", "nginx:1")).create();
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);

    Deployment labelled = client.apps().deployments().withName("web").edit(d -> {
      d.getMetadata().getLabels().put("tier", "front");
      return d;
    });
    assertThat(labelled.getMetadata().getGeneration()).isEqualTo(1L);

    Deployment statusWrite = client.apps().deployments().withName("web").editStatus(d -> {
      d.setStatus(new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder().withReplicas(1).build());
      return d;
    });
    assertThat(statusWrite.getMetadata().getGeneration()).isEqualTo(1L);

    Deployment annotated = client.apps().deployments().withName("web").edit(d -> {
      d.getMetadata().setAnnotations(Map.of("note", "x"));
      return d;
    });
    assertThat(annotated.getMetadata().getGeneration()).isEqualTo(2L);

    Deployment scaled = client.apps().deployments().withName("web").edit(d -> {
      d.getSpec().setReplicas(3);
      return d;
    });
    assertThat(scaled.getMetadata().getGeneration()).isEqualTo(3L);
  }

  @Test
  void generation_customResource_bumpsOnSpecOnly_configMapHasNone() {
    GenericKubernetesResource net = client.genericKubernetesResources(NETWORKS)
        .resource(network("net-a", "10.0.0.0/24")).create();
    assertThat(net.getMetadata().getGeneration()).isEqualTo(1L);

    GenericKubernetesResource relabelled = client.genericKubernetesResources(NETWORKS).withName("net-a").edit(n -> {
      n.getMetadata().setLabels(Map.of("a", "b"));
      return n;
    });
    assertThat(relabelled.getMetadata().getGeneration()).isEqualTo(1L);

    GenericKubernetesResource changed = client.genericKubernetesResources(NETWORKS).withName("net-a").edit(n -> {
      n.setAdditionalProperty("spec", Map.of("cidr", "10.1.0.0/24", "gateway", "10.1.0.1"));
      return n;
    });
    assertThat(changed.getMetadata().getGeneration()).isEqualTo(2L);

    Reply cm = api.post("/api/v1/namespaces/default/configmaps",
        "{\"metadata\":{\"name\":\"c\",\"generation\":5}}");
    assertThat(cm.json().path("metadata").has("generation")).isFalse();
  }

  @Test
  void noOpUpdate_keepsResourceVersion_asKubeDoes() {
    ConfigMap created = client.configMaps().resource(configMap("web", Map.of("k", "v"))).create();
    String before = cluster.resourceVersion();

    ConfigMap same = client.configMaps().resource(created).update();

    assertThat(same.getMetadata().getResourceVersion()).isEqualTo(created.getMetadata().getResourceVersion());
    assertThat(cluster.resourceVersion()).isEqualTo(before);
  }

  @Test
  void namespace_isActive_andLabelledWithItsName_asKubeDoes() {
    Reply created = api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"team-a\"},"
        + "\"status\":{\"phase\":\"Terminating\"}}");
    assertThat(created.json().path("status")).isEqualTo(json("{\"phase\":\"Active\"}"));
    assertThat(created.json().path("metadata").path("labels")).isEqualTo(json(
        "{\"kubernetes.io/metadata.name\":\"team-a\"}"));
    Reply relabelled = api.patch("/api/v1/namespaces/team-a", "application/merge-patch+json",
        "{\"metadata\":{\"labels\":null}}");
    assertThat(relabelled.json().path("metadata").path("labels")).isEqualTo(json(
        "{\"kubernetes.io/metadata.name\":\"team-a\"}"));
    assertThat(cluster.client().namespaces().withName("default").get().getMetadata().getLabels())
        .containsEntry("kubernetes.io/metadata.name", "default");
  }

  @Test
  void serverFields_cannotBeChangedByUpdate() {
    ConfigMap created = client.configMaps().resource(configMap("web", Map.of("k", "v"))).create();
    Reply reply = api.put("/api/v1/namespaces/default/configmaps/web", "{\"metadata\":{\"name\":\"web\","
        + "\"creationTimestamp\":\"2000-01-01T00:00:00Z\"},\"data\":{\"k\":\"w\"}}");
    // a uid in the body is a precondition (see UidPreconditionTest); creationTimestamp is silently kept
    Reply forged = api.put("/api/v1/namespaces/default/configmaps/web", "{\"metadata\":{\"name\":\"web\","
        + "\"uid\":\"forged\"},\"data\":{\"k\":\"x\"}}");
    assertThat(forged.code()).isEqualTo(409);

    assertThat(reply.json().path("metadata").path("uid").asText()).isEqualTo(created.getMetadata().getUid());
    assertThat(reply.json().path("metadata").path("creationTimestamp").asText()).isEqualTo("2025-03-01T12:00:00Z");
  }

  @Test
  void duplicateOwnerReferences_areDropped_onCreateUpdateAndPatch_asKubeDoes() {
    // without the garbage collector: it would find the reference under another name dangling and remove the owner's
    // uid from the list, both references with it, as kube's collector does
    cluster.close();
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withGarbageCollection(false).build();
    client = cluster.client();
    api = new RawApi(cluster.url());
    String uid = client.apps().deployments().resource(deployment("web", "nginx:1")).create().getMetadata().getUid();
    String owner = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"web\",\"uid\":\"" + uid
        + "\"}";
    String sameUidOtherName = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"api\","
        + "\"uid\":\"" + uid + "\"}";
    String configMaps = "/api/v1/namespaces/default/configmaps";

    Reply created = api.post(configMaps, "{\"metadata\":{\"name\":\"web\",\"ownerReferences\":[" + owner + ","
        + sameUidOtherName + "," + owner + "]}}");
    Reply patched = api.patch(configMaps + "/web", "application/json-patch+json",
        "[{\"op\":\"add\",\"path\":\"/metadata/ownerReferences/-\",\"value\":" + owner + "}]");
    Reply updated = api.put(configMaps + "/web", "{\"metadata\":{\"name\":\"web\",\"ownerReferences\":[" + owner
        + "," + owner + "]}}");

    assertThat(created.json().at("/metadata/ownerReferences")).as("create: the whole-entry duplicate dropped, the "
        + "entry with the same uid but another name kept").isEqualTo(json("[" + owner + "," + sameUidOtherName + "]"));
    assertThat(patched.code()).as(patched.body()).isEqualTo(200);
    assertThat(patched.json().at("/metadata/ownerReferences")).as("a JSON patch appending a reference already there")
        .isEqualTo(json("[" + owner + "," + sameUidOtherName + "]"));
    assertThat(patched.json().at("/metadata/resourceVersion")).as("the deduplicated patch changed nothing")
        .isEqualTo(created.json().at("/metadata/resourceVersion"));
    assertThat(updated.json().at("/metadata/ownerReferences")).as("update").isEqualTo(json("[" + owner + "]"));
  }
}
