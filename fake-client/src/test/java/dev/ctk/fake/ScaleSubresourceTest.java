package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.deployment;
import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.ReplicationControllerBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The /scale subresource of Deployment, StatefulSet and custom resources that declare it. */
class ScaleSubresourceTest {

  private static final String WEB = "/apis/apps/v1/namespaces/default/deployments/web";
  private static final String SCALE = WEB + "/scale";
  private static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";
  private static final ResourceDefinitionContext WIDGET = new ResourceDefinitionContext.Builder()
      .withGroup("example.com").withVersion("v1").withPlural("widgets").withKind("Widget").withNamespaced(true)
      .build();

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    Deployment web = deployment("web", "nginx:1");
    web.setStatus(new DeploymentStatusBuilder().withReplicas(1).build());
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withObjects(web).withCrds(widgetCrd()).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void get_returnsTheDeploymentAsScale() {
    Reply reply = api.get(SCALE);
    assertThat(reply.code()).isEqualTo(200);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Scale","apiVersion":"autoscaling/v1",
         "metadata":{"name":"web","namespace":"default","uid":"%s","resourceVersion":"%s",
                     "creationTimestamp":"2025-03-01T12:00:00Z"},
         "spec":{"replicas":1},"status":{"replicas":1,"selector":"app=web"}}""".formatted(uid(), rv())));
  }

  @Test
  void fabric8Scale_changesOnlySpecReplicas_andBumpsGeneration() {
    Deployment before = cluster.client().apps().deployments().withName("web").get();

    Deployment after = cluster.client().apps().deployments().withName("web").scale(3);

    assertThat(after.getSpec().getReplicas()).isEqualTo(3);
    assertThat(after.getMetadata().getGeneration()).isEqualTo(before.getMetadata().getGeneration() + 1);
    assertThat(after.getStatus()).isEqualTo(before.getStatus());
    after.getSpec().setReplicas(1);
    assertThat(after.getSpec()).isEqualTo(before.getSpec());
  }

  @Test
  void put_withCurrentResourceVersion_answersTheNewScale() {
    String rv = rv();
    Reply reply = api.put(SCALE, """
        {"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"web","namespace":"default",
         "resourceVersion":"%s"},"spec":{"replicas":5}}""".formatted(rv));
    assertThat(reply.code()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Scale","apiVersion":"autoscaling/v1",
         "metadata":{"name":"web","namespace":"default","uid":"%s","resourceVersion":"%s",
                     "creationTimestamp":"2025-03-01T12:00:00Z"},
         "spec":{"replicas":5},"status":{"replicas":1,"selector":"app=web"}}""".formatted(uid(), rv())));
    assertThat(rv()).isNotEqualTo(rv);
  }

  @Test
  void put_withStaleResourceVersion_isConflict() {
    String stale = rv();
    cluster.client().apps().deployments().withName("web").edit(d -> {
      d.getMetadata().setLabels(Map.of("app", "web", "touched", "yes"));
      return d;
    });
    Reply reply = api.put(SCALE, """
        {"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"web","resourceVersion":"%s"},
         "spec":{"replicas":5}}""".formatted(stale));
    assertThat(reply.code()).isEqualTo(409);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"Operation cannot be fulfilled on deployments.apps \\"web\\": the object has been modified; please apply your changes to the latest version and try again",
         "reason":"Conflict","details":{"name":"web","group":"apps","kind":"deployments"},"code":409}"""));
    assertThat(cluster.client().apps().deployments().withName("web").get().getSpec().getReplicas()).isEqualTo(1);
  }

  @Test
  void put_negativeReplicas_isInvalid() {
    Reply reply = api.put(SCALE, """
        {"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"web"},"spec":{"replicas":-1}}""");
    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"Scale.autoscaling \\"web\\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0",
         "reason":"Invalid","details":{"name":"web","group":"autoscaling","kind":"Scale","causes":[
           {"reason":"FieldValueInvalid","message":"Invalid value: -1: must be greater than or equal to 0",
            "field":"spec.replicas"}]},"code":422}"""));
  }

  @Test
  void put_dryRun_answersTheScaleButStoresNothing() {
    String rv = rv();
    Reply reply = api.put(SCALE + "?dryRun=All", """
        {"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"web"},"spec":{"replicas":6}}""");
    assertThat(reply.code()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().path("spec")).isEqualTo(json("{\"replicas\":6}"));
    assertThat(rv()).isEqualTo(rv);
    assertThat(cluster.client().apps().deployments().withName("web").get().getSpec().getReplicas()).isEqualTo(1);
  }

  @Test
  void put_withAnotherName_isBadRequest() {
    Reply reply = api.put(SCALE, """
        {"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"api"},"spec":{"replicas":2}}""");
    assertThat(reply.code()).isEqualTo(400);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"the name of the object (api) does not match the name on the URL (web)",
         "reason":"BadRequest","code":400}"""));
  }

  @Test
  void put_withoutAName_isBadRequest() {
    Reply reply = api.put(SCALE, """
        {"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{},"spec":{"replicas":2}}""");
    assertThat(reply.code()).isEqualTo(400);
    assertThat(reply.json().path("message").asText())
        .isEqualTo("the name of the object (web based on URL) was undeterminable: name must be provided");
    assertThat(cluster.client().apps().deployments().withName("web").get().getSpec().getReplicas()).isEqualTo(1);
  }

  @Test
  void delete_onScale_isMethodNotAllowed() {
    Reply reply = api.delete(SCALE);
    assertThat(reply.code()).isEqualTo(405);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"the server does not allow this method on the requested resource",
         "reason":"MethodNotAllowed","details":{},"code":405}"""));
  }

  @Test
  void mergePatch_and_jsonPatch_changeReplicas() {
    Reply merge = api.patch(SCALE, "application/merge-patch+json", "{\"spec\":{\"replicas\":4}}");
    assertThat(merge.code()).as(merge.body()).isEqualTo(200);
    assertThat(merge.json().path("spec")).isEqualTo(json("{\"replicas\":4}"));

    Reply jsonPatch = api.patch(SCALE, "application/json-patch+json", """
        [{"op":"test","path":"/spec/replicas","value":4},{"op":"replace","path":"/spec/replicas","value":2}]""");
    assertThat(jsonPatch.code()).as(jsonPatch.body()).isEqualTo(200);
    assertThat(jsonPatch.json().path("spec")).isEqualTo(json("{\"replicas\":2}"));
    assertThat(cluster.client().apps().deployments().withName("web").get().getSpec().getReplicas()).isEqualTo(2);
  }

  @Test
  void statefulSet_selectorWithExpressions_inKubesStringForm() {
    cluster.client().apps().statefulSets().resource(new StatefulSetBuilder()
        .withNewMetadata().withName("db").withNamespace("default").endMetadata()
        .withNewSpec().withReplicas(2).withServiceName("db")
        .withNewSelector().addToMatchLabels("app", "db")
        .addToMatchExpressions(new LabelSelectorRequirementBuilder().withKey("tier").withOperator("In")
            .withValues("b", "a").build())
        .addToMatchExpressions(new LabelSelectorRequirementBuilder().withKey("legacy").withOperator("DoesNotExist")
            .build())
        .endSelector()
        .withNewTemplate().withNewMetadata().addToLabels(Map.of("app", "db", "tier", "a")).endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage("postgres").endContainer().endSpec()
        .endTemplate().endSpec().build()).create();

    JsonNode scale = api.get("/apis/apps/v1/namespaces/default/statefulsets/db/scale").json();

    assertThat(scale.path("spec")).isEqualTo(json("{\"replicas\":2}"));
    assertThat(scale.path("status")).isEqualTo(json("{\"replicas\":0,\"selector\":\"app=db,!legacy,tier in (a,b)\"}"));
  }

  @Test
  void replicationController_labelMapSelector_andFabric8Scale() {
    cluster.client().replicationControllers().resource(new ReplicationControllerBuilder()
        .withNewMetadata().withName("legacy").withNamespace("default").endMetadata()
        .withNewSpec().withReplicas(1).withSelector(Map.of("tier", "x", "app", "legacy"))
        .withNewTemplate().withNewMetadata().addToLabels(Map.of("app", "legacy", "tier", "x")).endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage("nginx").endContainer().endSpec()
        .endTemplate().endSpec().build()).create();

    cluster.client().replicationControllers().withName("legacy").scale(2);

    JsonNode scale = api.get("/api/v1/namespaces/default/replicationcontrollers/legacy/scale").json();
    assertThat(scale.path("spec")).isEqualTo(json("{\"replicas\":2}"));
    assertThat(scale.path("status")).isEqualTo(json("{\"replicas\":0,\"selector\":\"app=legacy,tier=x\"}"));
  }

  @Test
  void customResource_withDeclaredScale() {
    GenericKubernetesResource created = cluster.client().genericKubernetesResources(WIDGET)
        .resource(new GenericKubernetesResourceBuilder().withApiVersion("example.com/v1").withKind("Widget")
            .withNewMetadata().withName("w").withNamespace("default").endMetadata()
            .addToAdditionalProperties("spec", Map.of("size", 2))
            .build()).create();

    Reply put = api.put(WIDGETS + "/w/scale", """
        {"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"w"},"spec":{"replicas":7}}""");

    assertThat(put.code()).as(put.body()).isEqualTo(200);
    GenericKubernetesResource after = cluster.client().genericKubernetesResources(WIDGET).withName("w").get();
    assertThat(put.json()).isEqualTo(json("""
        {"kind":"Scale","apiVersion":"autoscaling/v1",
         "metadata":{"name":"w","namespace":"default","uid":"%s","resourceVersion":"%s",
                     "creationTimestamp":"2025-03-01T12:00:00Z"},
         "spec":{"replicas":7},"status":{"replicas":0}}""".formatted(created.getMetadata().getUid(),
        after.getMetadata().getResourceVersion())));
    assertThat(after.<Object>get("spec", "size")).isEqualTo(7);
    assertThat(after.getMetadata().getGeneration()).isEqualTo(2L);
  }

  @Test
  void scale_onKindWithoutIt_isNotFound_andDiscoveryListsIt() {
    Reply missing = api.get("/api/v1/namespaces/default/configmaps/x/scale");
    assertThat(missing.code()).isEqualTo(404);
    assertThat(missing.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"the server could not find the requested resource","reason":"NotFound","details":{},
         "code":404}"""));

    JsonNode apps = api.get("/apis/apps/v1").json();
    JsonNode deploymentScale = null;
    for (JsonNode resource : apps.path("resources")) {
      if (resource.path("name").asText().equals("deployments/scale")) {
        deploymentScale = resource;
      }
    }
    assertThat(deploymentScale).isEqualTo(json("""
        {"name":"deployments/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1",
         "kind":"Scale","verbs":["get","patch","update"]}"""));
    assertThat(api.get("/apis/example.com/v1").body()).contains("\"name\":\"widgets/scale\"");
  }

  private String uid() {
    return cluster.client().apps().deployments().withName("web").get().getMetadata().getUid();
  }

  private String rv() {
    return cluster.client().apps().deployments().withName("web").get().getMetadata().getResourceVersion();
  }

  private static CustomResourceDefinition widgetCrd() {
    return new KubernetesSerialization().unmarshal("""
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata:
          name: widgets.example.com
        spec:
          group: example.com
          scope: Namespaced
          names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
          versions:
          - name: v1
            served: true
            storage: true
            subresources:
              status: {}
              scale:
                specReplicasPath: .spec.size
                statusReplicasPath: .status.ready
                labelSelectorPath: .status.selector
            schema:
              openAPIV3Schema:
                type: object
                x-kubernetes-preserve-unknown-fields: true
        """, CustomResourceDefinition.class);
  }
}
