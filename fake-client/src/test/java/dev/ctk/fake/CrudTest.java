package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.NETWORKS;
import static dev.ctk.fake.testing.Fixtures.configMap;
import static dev.ctk.fake.testing.Fixtures.network;
import static dev.ctk.fake.testing.Fixtures.networkCrd;
import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Create, get, list, update and delete for a namespaced built-in, a cluster-scoped built-in and a CRD kind. */
class CrudTest {

  private FakeCluster cluster;
  private KubernetesClient client;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withCrds(networkCrd()).build();
    client = cluster.client();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void configMap_roundTrip_setsServerFields() {
    ConfigMap created = client.configMaps().resource(configMap("web", Map.of("k", "v"))).create();

    assertThat(created.getMetadata().getUid()).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-"
        + "[0-9a-f]{12}");
    assertThat(created.getMetadata().getCreationTimestamp()).isEqualTo("2025-03-01T12:00:00Z");
    assertThat(created.getMetadata().getResourceVersion()).isEqualTo(cluster.resourceVersion());
    assertThat(created.getMetadata().getGeneration()).isNull();
    assertThat(client.configMaps().withName("web").get().getData()).isEqualTo(Map.of("k", "v"));

    created.getData().put("k", "w");
    ConfigMap updated = client.configMaps().resource(created).update();
    assertThat(Long.parseLong(updated.getMetadata().getResourceVersion()))
        .isGreaterThan(Long.parseLong(created.getMetadata().getResourceVersion()));
    assertThat(updated.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());

    assertThat(client.configMaps().list().getItems()).extracting(c -> c.getMetadata().getName())
        .containsExactly("web");
    client.configMaps().withName("web").delete();
    assertThat(client.configMaps().withName("web").get()).isNull();
  }

  @Test
  void configMap_errors_areKubeStatusBodies() {
    api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"web\"}}");

    Reply missing = api.get("/api/v1/namespaces/default/configmaps/nope");
    assertThat(missing.code()).isEqualTo(404);
    assertThat(missing.contentType()).isEqualTo("application/json");
    assertThat(missing.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"configmaps \\"nope\\" not found","reason":"NotFound",
         "details":{"name":"nope","kind":"configmaps"},"code":404}"""));

    Reply exists = api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"web\"}}");
    assertThat(exists.code()).isEqualTo(409);
    assertThat(exists.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"configmaps \\"web\\" already exists","reason":"AlreadyExists",
         "details":{"name":"web","kind":"configmaps"},"code":409}"""));

    Reply noNamespace = api.post("/api/v1/namespaces/nowhere/configmaps", "{\"metadata\":{\"name\":\"web\"}}");
    assertThat(noNamespace.code()).isEqualTo(404);
    assertThat(noNamespace.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"namespaces \\"nowhere\\" not found","reason":"NotFound",
         "details":{"name":"nowhere","kind":"namespaces"},"code":404}"""));

    Reply deleteMissing = api.delete("/api/v1/namespaces/default/configmaps/nope");
    assertThat(deleteMissing.code()).isEqualTo(404);
    assertThat(deleteMissing.json().path("message").asText()).isEqualTo("configmaps \"nope\" not found");
  }

  @Test
  void unknownResource_answersKubeNotFound() {
    for (String path : new String[] {"/api/v1/namespaces/default/widgets",
        "/api/v1/namespaces/default/configmaps/web/scale", "/api/v1/nodes/n1/status/extra"}) {
      Reply reply = api.get(path);
      assertThat(reply.code()).as(path).isEqualTo(404);
      assertThat(reply.json()).as(path).isEqualTo(json("""
          {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
           "message":"the server could not find the requested resource","reason":"NotFound",
           "details":{},"code":404}"""));
    }
    // outside kube-apiserver's own API groups, its HTTP mux answers in plain text
    for (String path : new String[] {"/apis/example.com/v1/things", "/nothing"}) {
      Reply reply = api.get(path);
      assertThat(reply.code() + " " + reply.body()).as(path).isEqualTo("404 404 page not found\n");
    }
  }

  @Test
  void deleteCollection_acrossAllNamespaces_isMethodNotAllowed_andDeletesNothing() {
    client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
        .withName("team-a").endMetadata().build()).create();
    client.configMaps().inNamespace("team-a").resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
        .withNewMetadata().withName("x").withNamespace("team-a").endMetadata().build()).create();
    client.configMaps().inNamespace("default").resource(configMap("y", Map.of())).create();

    RawApi.Reply reply = api.delete("/api/v1/configmaps");

    assertThat(reply.code()).isEqualTo(405);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"the server does not allow this method on the requested resource","reason":"MethodNotAllowed",
         "details":{},"code":405}"""));
    assertThat(client.configMaps().inAnyNamespace().list().getItems()).extracting(c -> c.getMetadata().getName())
        .containsExactlyInAnyOrder("x", "y");
    assertThat(api.delete("/api/v1/namespaces/team-a/configmaps").code()).as("per namespace it is served")
        .isEqualTo(200);
  }

  @Test
  void unsupportedHttpMethod_isMethodNotAllowed() throws Exception {
    java.net.http.HttpResponse<String> head = java.net.http.HttpClient.newBuilder()
        .version(java.net.http.HttpClient.Version.HTTP_1_1).build()
        .send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(cluster.url() + "/api/v1/namespaces"))
            .method("OPTIONS", java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(head.statusCode()).isEqualTo(405);
    assertThat(json(head.body()).path("reason").asText()).isEqualTo("MethodNotAllowed");
  }

  @Test
  void clusterScoped_clusterRole_crudAndQualifiedErrors() {
    ClusterRole role = new ClusterRoleBuilder().withNewMetadata().withName("reader").endMetadata()
        .addNewRule().withApiGroups("").withResources("pods").withVerbs("get").endRule().build();
    ClusterRole created = client.rbac().clusterRoles().resource(role).create();
    assertThat(created.getMetadata().getNamespace()).isNull();
    assertThat(client.rbac().clusterRoles().withName("reader").get().getRules()).hasSize(1);

    Reply missing = api.get("/apis/rbac.authorization.k8s.io/v1/clusterroles/nope");
    assertThat(missing.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"clusterroles.rbac.authorization.k8s.io \\"nope\\" not found","reason":"NotFound",
         "details":{"name":"nope","group":"rbac.authorization.k8s.io","kind":"clusterroles"},"code":404}"""));
    Reply namespacedPath = api.get("/apis/rbac.authorization.k8s.io/v1/namespaces/default/clusterroles");
    assertThat(namespacedPath.code()).isEqualTo(404);

    client.rbac().clusterRoles().withName("reader").delete();
    assertThat(client.rbac().clusterRoles().list().getItems()).isEmpty();
  }

  @Test
  void customResource_crudAndErrors() {
    GenericKubernetesResource created = client.genericKubernetesResources(NETWORKS)
        .resource(network("net-a", "10.0.0.0/24")).create();
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(client.genericKubernetesResources(NETWORKS).withName("net-a").get()
        .<String>get("spec", "cidr")).isEqualTo("10.0.0.0/24");

    Reply missing = api.get("/apis/samplecrd.k8s.io/v1/namespaces/default/networks/nope");
    assertThat(missing.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"networks.samplecrd.k8s.io \\"nope\\" not found","reason":"NotFound",
         "details":{"name":"nope","group":"samplecrd.k8s.io","kind":"networks"},"code":404}"""));

    Reply list = api.get("/apis/samplecrd.k8s.io/v1/namespaces/default/networks");
    assertThat(list.json().path("kind").asText()).isEqualTo("NetworkList");
    assertThat(list.json().path("apiVersion").asText()).isEqualTo("samplecrd.k8s.io/v1");
    assertThat(list.json().path("items")).hasSize(1);

    client.genericKubernetesResources(NETWORKS).withName("net-a").delete();
    assertThat(client.genericKubernetesResources(NETWORKS).list().getItems()).isEmpty();
  }

  @Test
  void customResource_updateWithoutResourceVersion_isInvalidAsInKube() {
    api.post("/apis/samplecrd.k8s.io/v1/namespaces/default/networks",
        "{\"apiVersion\":\"samplecrd.k8s.io/v1\",\"kind\":\"Network\",\"metadata\":{\"name\":\"net-a\"}}");

    Reply reply = api.put("/apis/samplecrd.k8s.io/v1/namespaces/default/networks/net-a",
        "{\"apiVersion\":\"samplecrd.k8s.io/v1\",\"kind\":\"Network\",\"metadata\":{\"name\":\"net-a\"},"
            + "\"spec\":{\"cidr\":\"x\"}}");

    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"networks.samplecrd.k8s.io \\"net-a\\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update",
         "reason":"Invalid",
         "details":{"name":"net-a","group":"samplecrd.k8s.io","kind":"networks",
                    "causes":[{"reason":"FieldValueInvalid","message":"Invalid value: 0x0: must be specified for an update","field":"metadata.resourceVersion"}]},
         "code":422}"""));
  }

  @Test
  void builtIn_updateWithoutResourceVersion_isUnconditional() {
    api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"web\"},\"data\":{\"k\":\"v\"}}");

    Reply reply = api.put("/api/v1/namespaces/default/configmaps/web",
        "{\"metadata\":{\"name\":\"web\"},\"data\":{\"k\":\"w\"}}");

    assertThat(reply.code()).isEqualTo(200);
    assertThat(reply.json().path("data").path("k").asText()).isEqualTo("w");
  }

  @Test
  void bodyDisagreeingWithUrl_isBadRequest() {
    Reply wrongNamespace = api.post("/api/v1/namespaces/default/configmaps",
        "{\"metadata\":{\"name\":\"web\",\"namespace\":\"kube-system\"}}");
    assertThat(wrongNamespace.code()).isEqualTo(400);
    assertThat(wrongNamespace.json().path("message").asText())
        .isEqualTo("the namespace of the provided object does not match the namespace sent on the request");

    api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"web\"}}");
    Reply wrongName = api.put("/api/v1/namespaces/default/configmaps/web", "{\"metadata\":{\"name\":\"other\"}}");
    assertThat(wrongName.code()).isEqualTo(400);
    assertThat(wrongName.json().path("message").asText())
        .isEqualTo("the name of the object (other) does not match the name on the URL (web)");

    Reply noName = api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{}}");
    assertThat(noName.code()).isEqualTo(422);
    assertThat(noName.json().path("message").asText())
        .isEqualTo("ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is required");

    Reply withRv = api.post("/api/v1/namespaces/default/configmaps",
        "{\"metadata\":{\"name\":\"other\",\"resourceVersion\":\"3\"}}");
    assertThat(withRv.code()).isEqualTo(500);
    assertThat(withRv.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"resourceVersion should not be set on objects to be created","code":500}"""));

    Reply notJson = api.post("/api/v1/namespaces/default/configmaps", "{not json");
    assertThat(notJson.code()).isEqualTo(400);
    assertThat(notJson.json().path("message").asText()).startsWith("couldn't get version/kind; json parse error: ");
  }

  @Test
  void fabric8Client_seesKubeErrors() {
    client.configMaps().resource(configMap("web", Map.of())).create();
    assertThatThrownBy(() -> client.configMaps().resource(configMap("web", Map.of())).create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> {
          KubernetesClientException k = (KubernetesClientException) e;
          assertThat(k.getCode()).isEqualTo(409);
          assertThat(k.getStatus().getReason()).isEqualTo("AlreadyExists");
        });
  }
}
