package dev.ctk.fake;

import static dev.ctk.fake.GarbageCollectionTest.configMap;
import static dev.ctk.fake.testing.Fixtures.deployment;
import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.controller.VirtualTime;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi.Reply;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import dev.ctk.fake.values.GarbageCollection;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Namespace deletion: the DELETE answers Terminating and the namespace stays so through the namespace controller's
 * grace period (on virtual time here), then its content is deleted, its status conditions written, and it is
 * removed; creates refused with 403 while it terminates; synchronous garbage collection as the fake had it; and, with
 * garbage collection off, a namespace that stays Terminating as on a bare apiserver.
 */
class NamespaceDeletionTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String TEAM = "/api/v1/namespaces/team";
  private static final String TEAM_CONFIGMAPS = TEAM + "/configmaps";

  private final VirtualTime time = VirtualTime.startingAt(Fixtures.NOW);
  private FakeCluster cluster;
  private RawApi api;

  private void start(boolean garbageCollection) {
    start(garbageCollection ? GarbageCollection.ASYNCHRONOUS : GarbageCollection.OFF);
  }

  private void start(GarbageCollection garbageCollection) {
    cluster = FakeCluster.builder().withTimeSource(time).withGarbageCollection(garbageCollection)
        .withObjects(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build(),
            inTeam(configMap("a", List.of())), inTeam(configMap("b", List.of())),
            new DeploymentBuilder(deployment("web", "nginx:1")).editMetadata().withNamespace("team").endMetadata()
                .build())
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
  void default_kubeSystem_andKubePublic_mayNotBeDeleted() {
    start(true);

    for (String name : List.of("default", "kube-system", "kube-public")) {
      Reply refused = api.delete("/api/v1/namespaces/" + name);

      assertThat(refused.code()).isEqualTo(403);
      assertThat(refused.json()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
          + "\"status\":\"Failure\",\"message\":\"namespaces \\\"" + name + "\\\" is forbidden: this namespace may "
          + "not be deleted\",\"reason\":\"Forbidden\",\"details\":{\"name\":\"" + name + "\",\"kind\":\"namespaces\"},"
          + "\"code\":403}"));
      assertThat(api.get("/api/v1/namespaces/" + name).json().path("metadata").has("deletionTimestamp")).isFalse();
    }
  }

  @Test
  void delete_marksTerminating_withoutAGracePeriod() {
    start(false);

    JsonNode marked = api.delete(TEAM).json();

    assertThat(marked.path("metadata").path("deletionTimestamp").asText()).isNotEmpty();
    assertThat(marked.path("metadata").has("deletionGracePeriodSeconds")).as("kube sets none on a Namespace: %s",
        marked.path("metadata")).isFalse();
  }

  @Test
  void emptyQueryValues_areValues_asKubeDecodesThem() {
    start(false);
    api.post(TEAM_CONFIGMAPS, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"held\","
        + "\"finalizers\":[\"example.com/hold\"]}}");

    Reply both = api.delete(TEAM_CONFIGMAPS + "/held?orphanDependents=&propagationPolicy=Foreground");
    Reply emptyPolicy = api.delete(TEAM_CONFIGMAPS + "/held?propagationPolicy=");
    Reply emptyOrphan = api.delete(TEAM_CONFIGMAPS + "/held?orphanDependents=");

    assertThat(both.code()).isEqualTo(422);
    assertThat(both.json().path("message").asText()).endsWith("orphanDependents and deletionPropagation cannot be "
        + "both set");
    assertThat(emptyPolicy.json().path("message").asText()).isEqualTo("DeleteOptions.meta.k8s.io \"\" is invalid: "
        + "propagationPolicy: Unsupported value: \"\": supported values: \"Foreground\", \"Background\", \"Orphan\", "
        + "\"nil\"");
    assertThat(emptyOrphan.json().path("metadata").path("finalizers")).as("an empty orphanDependents is true")
        .isEqualTo(json("[\"example.com/hold\",\"orphan\"]"));
  }

  @Test
  void orphanDependentsFalse_onAnObjectThatStays_isAnswered202() {
    start(false);
    api.post(TEAM_CONFIGMAPS, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"held\","
        + "\"finalizers\":[\"example.com/hold\"]}}");

    Reply accepted = api.delete(TEAM_CONFIGMAPS + "/held", "{\"orphanDependents\":false}");
    Reply namespace = api.delete(TEAM + "?orphanDependents=false");
    Reply removed = api.delete(TEAM_CONFIGMAPS + "/a", "{\"orphanDependents\":false}");

    assertThat(accepted.code()).isEqualTo(202);
    assertThat(accepted.json().path("metadata").path("name").asText()).isEqualTo("held");
    assertThat(namespace.code()).isEqualTo(202);
    assertThat(removed.code()).as("removed at once: 200 with a Status").isEqualTo(200);
  }

  @Test
  void create_isActive_withTheKubernetesFinalizer_addedToTheOnesSent() {
    start(false);

    Reply plain = api.post("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
        + "\"metadata\":{\"name\":\"plain\"},\"status\":{\"phase\":\"Terminating\"}}");
    Reply held = api.post("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
        + "\"metadata\":{\"name\":\"held\"},\"spec\":{\"finalizers\":[\"example.com/hold\"]}}");

    assertThat(plain.code()).isEqualTo(201);
    assertThat(plain.json().path("spec")).isEqualTo(json("{\"finalizers\":[\"kubernetes\"]}"));
    assertThat(plain.json().path("status")).as("the status sent is not kept").isEqualTo(json("{\"phase\":\"Active\"}"));
    assertThat(held.json().path("spec")).isEqualTo(json("{\"finalizers\":[\"example.com/hold\",\"kubernetes\"]}"));
    assertThat(api.get(TEAM).json().path("spec")).as("a seeded namespace too")
        .isEqualTo(json("{\"finalizers\":[\"kubernetes\"]}"));
  }

  @Test
  void delete_withAPrecondition_keepsTheNamespaceRegistrysOwnWording() {
    start(false);
    String uid = api.get(TEAM).json().path("metadata").path("uid").asText();

    Reply reply = api.delete(TEAM, "{\"preconditions\":{\"uid\":\"other\"}}");

    assertThat(reply.code()).isEqualTo(409);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"Operation cannot be fulfilled on namespaces \\"team\\": Precondition failed: UID in precondition: \
        other, UID in object meta: %s","reason":"Conflict","details":{"name":"team","kind":"namespaces"},"code":409}"""
        .formatted(uid)));
  }

  @Test
  void delete_answersTerminating_andAGetStillSeesIt_untilTheGracePeriodEnds_thenContentAndNamespaceGo() {
    start(true);
    String before = cluster.resourceVersion();
    try (WatchLines namespaces = api.watch("/api/v1/namespaces?watch=true&resourceVersion=" + before);
        WatchLines configMaps = api.watch("/api/v1/configmaps?watch=true&resourceVersion=" + before);
        WatchLines deployments = api.watch("/apis/apps/v1/deployments?watch=true&resourceVersion=" + before)) {
      Reply reply = api.delete(TEAM);

      assertThat(reply.code()).isEqualTo(200);
      assertThat(reply.json().path("status")).isEqualTo(json("{\"phase\":\"Terminating\"}"));
      assertThat(reply.json().path("spec")).isEqualTo(json("{\"finalizers\":[\"kubernetes\"]}"));
      assertThat(reply.json().path("metadata").path("deletionTimestamp").asText()).isEqualTo("2025-03-01T12:00:00Z");
      Reply read = api.get(TEAM);
      assertThat(read.code()).isEqualTo(200);
      assertThat(read.json()).isEqualTo(reply.json());
      cluster.awaitGarbageCollection(WAIT);
      assertThat(api.get(TEAM).json()).as("the grace period ends only when the virtual clock gets there")
          .isEqualTo(reply.json());
      assertThat(api.get("/apis/apps/v1/namespaces/team/deployments/web").code()).isEqualTo(200);

      time.advance(Duration.ofSeconds(5));
      cluster.awaitGarbageCollection(WAIT);

      assertThat(api.get(TEAM).code()).isEqualTo(404);
      assertThat(api.get("/apis/apps/v1/namespaces/team/deployments/web").code()).isEqualTo(404);
      await("namespace MODIFIED twice and DELETED, content DELETED").atMost(WAIT).until(
          () -> namespaces.events().size() == 3 && configMaps.events().size() == 2 && deployments.events().size() == 1);
      assertThat(namespaces.summary()).containsExactly("MODIFIED team", "MODIFIED team", "DELETED team");
      assertThat(configMaps.summary()).containsExactly("DELETED a", "DELETED b");
      assertThat(deployments.summary()).containsExactly("DELETED web");
      assertThat(namespaces.events().get(1).path("object").path("status")).isEqualTo(json("""
          {"phase":"Terminating","conditions":[%s,%s,%s,
           {"type":"NamespaceContentRemaining","status":"False","lastTransitionTime":"2025-03-01T12:00:05Z",
            "reason":"ContentRemoved","message":"All content successfully removed"},
           {"type":"NamespaceFinalizersRemaining","status":"False","lastTransitionTime":"2025-03-01T12:00:05Z",
            "reason":"ContentHasNoFinalizers","message":"All content-preserving finalizers finished"}]}"""
          .formatted(DISCOVERED, PARSED, DELETED)));
      long marked = rv(namespaces.events().get(0));
      long conditions = rv(namespaces.events().get(1));
      assertThat(List.of(rv(configMaps.events().get(0)), rv(configMaps.events().get(1)),
          rv(deployments.events().get(0)))).allSatisfy(rv -> assertThat(rv).isBetween(marked + 1, conditions - 1));
      assertThat(rv(namespaces.events().get(2))).isEqualTo(conditions + 1);
    }
  }

  @Test
  void objectWithFinalizer_holdsTheNamespaceTerminating_withConditionsSayingWhy_untilItGoes() {
    start(true);
    cluster.create(new ConfigMapBuilder(inTeam(configMap("held", List.of()))).editMetadata()
        .addToFinalizers("example.com/hold").endMetadata().build());

    api.delete(TEAM);
    time.advance(Duration.ofSeconds(5));
    cluster.awaitGarbageCollection(WAIT);

    JsonNode terminating = api.get(TEAM).json();
    assertThat(terminating.path("status")).isEqualTo(json("""
        {"phase":"Terminating","conditions":[%s,%s,%s,
         {"type":"NamespaceContentRemaining","status":"True","lastTransitionTime":"2025-03-01T12:00:05Z",
          "reason":"SomeResourcesRemain","message":"Some resources are remaining: configmaps. has 1 resource instances"},
         {"type":"NamespaceFinalizersRemaining","status":"True","lastTransitionTime":"2025-03-01T12:00:05Z",
          "reason":"SomeFinalizersRemain","message":"Some content in the namespace has finalizers remaining: \
        example.com/hold in 1 resource instances"}]}""".formatted(DISCOVERED, PARSED, DELETED)));
    assertThat(api.get(TEAM_CONFIGMAPS).json().path("items")).extracting(i -> i.path("metadata").path("name")
        .asText()).containsExactly("held");

    api.patch(TEAM_CONFIGMAPS + "/held", "application/merge-patch+json", "{\"metadata\":{\"finalizers\":null}}");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get(TEAM_CONFIGMAPS + "/held").code()).isEqualTo(404);
    assertThat(api.get(TEAM).code()).isEqualTo(404);
  }

  @Test
  void synchronous_emptiesAndRemovesTheNamespace_beforeTheDeleteIsAnswered() {
    start(GarbageCollection.SYNCHRONOUS);

    Reply reply = api.delete(TEAM);

    assertThat(reply.code()).isEqualTo(200);
    assertThat(reply.json().path("status").path("phase").asText()).isEqualTo("Terminating");
    assertThat(api.get(TEAM).code()).isEqualTo(404);
    assertThat(api.get(TEAM_CONFIGMAPS).json().path("items")).isEmpty();
  }

  @Test
  void zeroGracePeriod_startsAsSoonAsTheCollectorRuns_stillAfterTheDeleteIsAnswered() {
    cluster = FakeCluster.builder().withTimeSource(time).withNamespaceDeletionGracePeriod(Duration.ZERO)
        .withObjects(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build()).build();
    api = new RawApi(cluster.url());

    assertThat(api.delete(TEAM).json().path("status").path("phase").asText()).isEqualTo("Terminating");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get(TEAM).code()).isEqualTo(404);
  }

  @Test
  void create_inTerminatingNamespace_isForbidden() {
    start(true);
    api.delete(TEAM);

    Reply reply = api.post(TEAM_CONFIGMAPS, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
        + "\"late\"}}");

    assertThat(reply.code()).isEqualTo(403);
    assertThat(reply.json()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
        + "\"status\":\"Failure\",\"message\":\"configmaps \\\"late\\\" is forbidden: unable to create new content "
        + "in namespace team because it is being terminated\",\"reason\":\"Forbidden\",\"details\":{\"name\":"
        + "\"late\",\"kind\":\"configmaps\",\"causes\":[{\"reason\":\"NamespaceTerminating\",\"message\":"
        + "\"namespace team is being terminated\",\"field\":\"metadata.namespace\"}]},\"code\":403}"));
  }

  @Test
  void create_withGenerateName_inTerminatingNamespace_isForbidden_namingTheObjectByItsPrefix() {
    start(false);
    api.delete(TEAM);

    Reply reply = api.post("/apis/apps/v1/namespaces/team/deployments", "{\"apiVersion\":\"apps/v1\",\"kind\":"
        + "\"Deployment\",\"metadata\":{\"generateName\":\"web-\"}}");

    assertThat(reply.code()).isEqualTo(403);
    assertThat(reply.json()).isEqualTo(json("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
        + "\"status\":\"Failure\",\"message\":\"deployments.apps \\\"web-\\\" is forbidden: unable to create new "
        + "content in namespace team because it is being terminated\",\"reason\":\"Forbidden\",\"details\":{"
        + "\"name\":\"web-\",\"group\":\"apps\",\"kind\":\"deployments\",\"causes\":[{\"reason\":"
        + "\"NamespaceTerminating\",\"message\":\"namespace team is being terminated\",\"field\":"
        + "\"metadata.namespace\"}]},\"code\":403}"));
  }

  @Test
  void switchedOff_namespaceStaysTerminating_withItsContent() {
    start(false);

    api.delete(TEAM);

    JsonNode namespace = api.get(TEAM).json();
    assertThat(namespace.path("status").path("phase").asText()).isEqualTo("Terminating");
    assertThat(namespace.path("spec").path("finalizers")).isEqualTo(json("[\"kubernetes\"]"));
    assertThat(api.get(TEAM_CONFIGMAPS).json().path("items")).hasSize(2);
    assertThat(api.delete(TEAM).json().path("metadata").path("resourceVersion").asText())
        .isEqualTo(namespace.path("metadata").path("resourceVersion").asText());
  }

  private static final String DISCOVERED = """
      {"type":"NamespaceDeletionDiscoveryFailure","status":"False","lastTransitionTime":"2025-03-01T12:00:05Z",
       "reason":"ResourcesDiscovered","message":"All resources successfully discovered"}""";
  private static final String PARSED = """
      {"type":"NamespaceDeletionGroupVersionParsingFailure","status":"False",
       "lastTransitionTime":"2025-03-01T12:00:05Z","reason":"ParsedGroupVersions",
       "message":"All legacy kube types successfully parsed"}""";
  private static final String DELETED = """
      {"type":"NamespaceDeletionContentFailure","status":"False","lastTransitionTime":"2025-03-01T12:00:05Z",
       "reason":"ContentDeleted","message":"All content successfully deleted, may be waiting on finalization"}""";

  private static ConfigMap inTeam(ConfigMap configMap) {
    configMap.getMetadata().setNamespace("team");
    return configMap;
  }

  private static long rv(JsonNode event) {
    return Long.parseLong(event.path("object").path("metadata").path("resourceVersion").asText());
  }
}
