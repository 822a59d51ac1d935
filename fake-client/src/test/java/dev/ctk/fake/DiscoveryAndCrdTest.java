package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.NETWORKS;
import static dev.ctk.fake.testing.Fixtures.network;
import static dev.ctk.fake.testing.Fixtures.networkCrd;
import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.WatchLines;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Discovery endpoints, and CRDs created and deleted through the API. */
class DiscoveryAndCrdTest {

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void version_health_andCoreDiscovery() {
    assertThat(api.get("/version").json().path("gitVersion").asText()).isEqualTo("v1.32.0-ctk-fake");
    assertThat(cluster.client().getKubernetesVersion().getMinor()).isEqualTo("32");
    for (String health : new String[] {"/healthz", "/readyz", "/livez"}) {
      assertThat(api.get(health).body()).isEqualTo("ok");
    }
    assertThat(api.get("/api").json().path("versions")).isEqualTo(json("[\"v1\"]"));
    JsonNode core = api.get("/api/v1").json();
    assertThat(core.path("groupVersion").asText()).isEqualTo("v1");
    assertThat(resource(core, "pods")).isEqualTo(json("""
        {"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod",
         "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
         "shortNames":["po"],"categories":["all"]}"""));
    assertThat(resource(core, "pods/status")).isEqualTo(json("""
        {"name":"pods/status","singularName":"","namespaced":true,"kind":"Pod","verbs":["get","patch","update"]}"""));
    assertThat(resource(core, "nodes").path("namespaced").asBoolean()).isFalse();
  }

  @Test
  void namespaces_areServedWithoutDeleteCollection_asInKube() {
    assertThat(resource(api.get("/api/v1").json(), "namespaces")).isEqualTo(json("""
        {"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace",
         "verbs":["create","delete","get","list","patch","update","watch"],"shortNames":["ns"]}"""));

    RawApi.Reply deleteAll = api.delete("/api/v1/namespaces");

    assertThat(deleteAll.code()).isEqualTo(405);
    assertThat(deleteAll.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"the server does not allow this method on the requested resource","reason":"MethodNotAllowed",
         "details":{},"code":405}"""));
    assertThat(api.get("/api/v1/namespaces/default").code()).as("nothing deleted").isEqualTo(200);
  }

  @Test
  void groupDiscovery_listsEveryBuiltInGroup() {
    List<String> groups = new ArrayList<>();
    api.get("/apis").json().path("groups").forEach(g -> groups.add(g.path("name").asText()));
    assertThat(groups).containsExactly("apps", "batch", "networking.k8s.io", "rbac.authorization.k8s.io",
        "apiextensions.k8s.io", "coordination.k8s.io", "policy", "discovery.k8s.io", "events.k8s.io", "autoscaling",
        "storage.k8s.io");
    assertThat(api.get("/apis/apps").json()).isEqualTo(json("""
        {"kind":"APIGroup","apiVersion":"v1","name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],
         "preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}"""));
    assertThat(resource(api.get("/apis/apps/v1").json(), "deployments/status").path("kind").asText())
        .isEqualTo("Deployment");
    assertThat(api.get("/apis/samplecrd.k8s.io/v1").code()).isEqualTo(404);
  }

  @Test
  void fabric8Discovery_seesResources() {
    List<String> names = cluster.client().getApiResources("apps/v1").getResources().stream()
        .map(APIResource::getName).toList();
    assertThat(names).contains("deployments", "deployments/status", "statefulsets");
  }

  @Test
  void crdCreatedThroughApi_isEstablished_servedAndDiscoverable() {
    CustomResourceDefinition created = cluster.client().apiextensions().v1().customResourceDefinitions()
        .resource(networkCrd()).create();

    assertThat(created.getStatus().getConditions()).extracting(c -> c.getType() + "=" + c.getStatus())
        .containsExactly("NamesAccepted=True", "Established=True");
    assertThat(created.getStatus().getAcceptedNames().getKind()).isEqualTo("Network");
    assertThat(created.getStatus().getStoredVersions()).containsExactly("v1");
    assertThat(resource(api.get("/apis/samplecrd.k8s.io/v1").json(), "networks")).isEqualTo(json("""
        {"name":"networks","singularName":"network","namespaced":true,"kind":"Network",
         "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
         "shortNames":["net"]}"""));
    assertThat(api.get("/apis").json().path("groups").toString()).contains("samplecrd.k8s.io");

    cluster.client().genericKubernetesResources(NETWORKS).resource(network("net-a", "10.0.0.0/24")).create();
    assertThat(cluster.client().genericKubernetesResources(NETWORKS).list().getItems()).hasSize(1);
  }

  @Test
  void crdDeleted_removesItsObjectsAndTheKind_andEndsItsWatches() {
    cluster.installCrd(networkCrd());
    cluster.create(network("net-a", "10.0.0.0/24"));
    RawApi.Reply before = api.get("/apis/samplecrd.k8s.io/v1/namespaces/default/networks");
    assertThat(before.json().path("items")).hasSize(1);
    WatchLines watch = api.watch("/apis/samplecrd.k8s.io/v1/namespaces/default/networks?watch=true");
    await().atMost(Duration.ofSeconds(10)).until(() -> watch.summary().size() == 1);

    cluster.client().apiextensions().v1().customResourceDefinitions().withName("networks.samplecrd.k8s.io").delete();

    await("the watch on networks ends with the CRD").atMost(Duration.ofSeconds(10)).until(watch::hasEnded);
    assertThat(watch.summary()).containsExactly("ADDED net-a", "DELETED net-a");
    RawApi.Reply after = api.get("/apis/samplecrd.k8s.io/v1/namespaces/default/networks");
    assertThat(after.code()).isEqualTo(404);
    // the group went with its only CRD: kube's HTTP mux answers, in plain text
    assertThat(after.body()).isEqualTo("404 page not found\n");
    cluster.installCrd(networkCrd());
    assertThat(api.get("/apis/samplecrd.k8s.io/v1/namespaces/default/networks").json().path("items")).isEmpty();
  }

  @Test
  void invalidCrdName_isRejectedAsKubeDoes() {
    CustomResourceDefinition wrong = new CustomResourceDefinitionBuilder(networkCrd()).editMetadata()
        .withName("networks").endMetadata().build();
    assertThatThrownBy(() -> cluster.client().apiextensions().v1().customResourceDefinitions().resource(wrong)
        .create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getStatus().getMessage())
            .isEqualTo("CustomResourceDefinition.apiextensions.k8s.io \"networks\" is invalid: metadata.name: "
                + "Invalid value: \"networks\": must be spec.names.plural+\".\"+spec.group"));
  }

  @Test
  void multiVersionCrd_servesEveryServedVersion_preferringTheHighest() {
    CustomResourceDefinition twoVersions = new CustomResourceDefinitionBuilder(networkCrd()).editSpec()
        .addNewVersion().withName("v1beta1").withServed(true).withStorage(false).endVersion()
        .addNewVersion().withName("v1alpha1").withServed(false).withStorage(false).endVersion()
        .endSpec().build();
    cluster.installCrd(twoVersions);

    JsonNode group = api.get("/apis/samplecrd.k8s.io").json();
    assertThat(group.path("preferredVersion").path("version").asText()).isEqualTo("v1");
    assertThat(group.path("versions").findValuesAsText("version")).containsExactly("v1", "v1beta1");
    api.post("/apis/samplecrd.k8s.io/v1/namespaces/default/networks", "{\"apiVersion\":\"samplecrd.k8s.io/v1\","
        + "\"kind\":\"Network\",\"metadata\":{\"name\":\"n\"}}");
    assertThat(api.get("/apis/samplecrd.k8s.io/v1beta1/namespaces/default/networks/n").json()
        .path("apiVersion").asText()).isEqualTo("samplecrd.k8s.io/v1beta1");
    assertThat(api.get("/apis/samplecrd.k8s.io/v1alpha1/namespaces/default/networks/n").code()).isEqualTo(404);
  }

  private static JsonNode resource(JsonNode list, String name) {
    for (JsonNode r : list.path("resources")) {
      if (r.path("name").asText().equals(name)) {
        return r;
      }
    }
    throw new AssertionError("no resource " + name + " in " + list);
  }

  @Test
  void requestResolvedBeforeItsCrdWasDeleted_findsNoKind_andCreatesNothing() {
    cluster.installCrd(networkCrd());
    dev.ctk.fake.internal.store.ObjectStore store = cluster.server().store();
    // what a request holds after resolving its URL, before it takes the store lock
    dev.ctk.fake.internal.registry.ResourceType stale = cluster.server().registry()
        .byPath("samplecrd.k8s.io", "v1", "networks").orElseThrow();
    cluster.client().apiextensions().v1().customResourceDefinitions().withName("networks.samplecrd.k8s.io")
        .delete();
    com.fasterxml.jackson.databind.node.ObjectNode body = (com.fasterxml.jackson.databind.node.ObjectNode) json("""
        {"apiVersion":"samplecrd.k8s.io/v1","kind":"Network","metadata":{"name":"late","namespace":"default"},
         "spec":{"cidr":"10.0.0.0/24"}}""");
    String rv = cluster.resourceVersion();
    dev.ctk.fake.internal.select.LabelSelector everything = dev.ctk.fake.internal.select.LabelSelector.everything();

    assertThatThrownBy(() -> store.create(stale, "default", body, dev.ctk.fake.internal.common.WriteOptions.API))
        .isInstanceOf(dev.ctk.fake.internal.status.ApiError.class)
        .hasMessage("the server could not find the requested resource");
    assertThatThrownBy(() -> store.list(stale, "default", everything, null, 0, null))
        .hasMessage("the server could not find the requested resource");
    assertThatThrownBy(() -> store.get(stale, "default", "late"))
        .hasMessage("the server could not find the requested resource");
    assertThat(store.exists(stale, "default", "late")).isFalse();
    assertThat(cluster.resourceVersion()).as("nothing was committed").isEqualTo(rv);

    cluster.installCrd(networkCrd());
    assertThat(cluster.client().genericKubernetesResources(NETWORKS).inNamespace("default").list().getItems())
        .as("a reinstalled CRD starts empty").isEmpty();
  }
}
