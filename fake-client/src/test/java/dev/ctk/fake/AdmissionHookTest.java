package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi.Reply;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.values.AdmissionDecision;
import dev.ctk.fake.values.AdmissionHook;
import dev.ctk.fake.values.AdmissionRequest.Operation;
import dev.ctk.fake.values.AdmissionRequest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Admission hooks: order, what they see, mutation, denials answered as kube answers webhook denials. */
class AdmissionHookTest {

  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

  private final List<AdmissionRequest> seen = new CopyOnWriteArrayList<>();
  private FakeCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void validatingDenial_isAnsweredLikeAWebhookDenial() {
    cluster = FakeCluster.builder().withValidatingAdmission("no-blue.example.com", request ->
        request.object() != null && "blue".equals(request.object(ConfigMap.class).getData().get("color"))
            ? AdmissionDecision.deny("blue is not allowed") : AdmissionDecision.allow()).build();
    RawApi api = new RawApi(cluster.url());

    Reply denied = api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"c\"},\"data\":{\"color\":\"blue\"}}");
    Reply allowed = api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"c\"},\"data\":{\"color\":\"red\"}}");

    assertThat(denied.code()).isEqualTo(403);
    assertThat(denied.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"admission webhook \\"no-blue.example.com\\" denied the request: blue is not allowed",
         "reason":"Forbidden","code":403}"""));
    assertThat(allowed.code()).isEqualTo(201);
    KubernetesClientException thrown = (KubernetesClientException) org.assertj.core.api.Assertions.catchThrowable(
        () -> cluster.client().configMaps().inNamespace("default").resource(Fixtures.configMap("c2",
            Map.of("color", "blue"))).create());
    assertThat(thrown.getCode()).isEqualTo(403);
    assertThat(thrown.getStatus().getMessage())
        .isEqualTo("admission webhook \"no-blue.example.com\" denied the request: blue is not allowed");
  }

  @Test
  void denialWithACode_hasNoReason_andAHookThatThrows_isA500() {
    cluster = FakeCluster.builder()
        .withValidatingAdmission("quota.example.com", request -> request.name().equals("big")
            ? AdmissionDecision.deny(422, "too big") : AdmissionDecision.allow())
        .withValidatingAdmission("broken.example.com", request -> {
          if (request.name().equals("boom")) {
            throw new IllegalStateException("boom");
          }
          return AdmissionDecision.allow();
        })
        .build();
    RawApi api = new RawApi(cluster.url());

    Reply coded = api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"big\"}}");
    Reply failed = api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"boom\"}}");

    assertThat(coded.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"admission webhook \\"quota.example.com\\" denied the request: too big","code":422}"""));
    String message = "failed calling webhook \\\"broken.example.com\\\": the hook threw "
        + "java.lang.IllegalStateException: boom";
    assertThat(failed.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"Internal error occurred: %s","reason":"InternalError",
         "details":{"causes":[{"message":"%s"}]},"code":500}""".formatted(message, message)));
  }

  @Test
  void mutatingHooksRunInOrderBeforeNamingAndValidation_validatingOnesSeeTheResult() {
    cluster = FakeCluster.builder()
        .withValidatingAdmission("audit.example.com", record())
        .withMutatingAdmission("first.example.com", request -> {
          seen.add(request);
          GenericKubernetesResource object = request.object(GenericKubernetesResource.class);
          Map<String, String> labels = new HashMap<>();
          labels.put("team", "payments");
          object.getMetadata().setLabels(labels);
          return AdmissionDecision.patch(object);
        })
        .withMutatingAdmission("second.example.com", record())
        .build();

    JsonNode created = new RawApi(cluster.url()).post(CONFIGMAPS,
        "{\"metadata\":{\"generateName\":\"settings-\"},\"data\":{\"a\":\"1\"}}").json();

    assertThat(created.path("metadata").path("labels")).isEqualTo(json("{\"team\":\"payments\"}"));
    assertThat(seen).extracting(r -> r.operation() + " " + r.resource() + " ns=" + r.namespace() + " name="
        + r.name() + " labels=" + labels(r.object()))
        .containsExactly(
            "CREATE configmaps ns=default name= labels={}",
            "CREATE configmaps ns=default name= labels={team=payments}",
            "CREATE configmaps ns=default name=" + created.path("metadata").path("name").asText()
                + " labels={team=payments}");
    assertThat(seen.get(2).object().getMetadata().getUid()).as("validating hooks see the object as stored")
        .isEqualTo(created.path("metadata").path("uid").asText());
  }

  @Test
  void aMutatingHookOnCreate_seesOwnerReferencesDeduplicated_asKubesCreateHandlerDedupsBeforeAdmission() {
    cluster = FakeCluster.builder().withGarbageCollection(false)
        .withMutatingAdmission("first.example.com", record())
        .build();
    String owner = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"o\",\"uid\":\"u-1\"}";

    new RawApi(cluster.url()).post(CONFIGMAPS, "{\"metadata\":{\"name\":\"c\",\"ownerReferences\":[" + owner + ","
        + owner + "]}}");

    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).object().getMetadata().getOwnerReferences()).hasSize(1);
  }

  @Test
  void aPatchedObject_isDefaultedAgain_andACustomResourcePatchIsPruned() {
    cluster = FakeCluster.builder().withCrds(CrdSchemaTest.widgetCrd())
        .withMutatingAdmission("sidecar.example.com", request -> {
          if (request.kind().equals("Pod") && request.operation() == Operation.CREATE) {
            Pod pod = request.object(Pod.class);
            pod.getSpec().getContainers().add(new ContainerBuilder().withName("proxy").withImage("envoy:1").build());
            return AdmissionDecision.patch(pod);
          }
          if (request.kind().equals("Widget")) {
            GenericKubernetesResource widget = request.object();
            @SuppressWarnings("unchecked")
            Map<String, Object> spec = (Map<String, Object>) widget.getAdditionalProperties().get("spec");
            spec.put("injected", true);
            spec.put("color", "green");
            return AdmissionDecision.patch(widget);
          }
          return AdmissionDecision.allow();
        })
        .build();
    RawApi api = new RawApi(cluster.url());

    JsonNode pod = api.post("/api/v1/namespaces/default/pods",
        "{\"metadata\":{\"name\":\"web\"},\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:1\"}]}}")
        .json();
    JsonNode widget = api.post("/apis/ctk.example.com/v1/namespaces/default/widgets", """
        {"apiVersion":"ctk.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"color":"red"}}""")
        .json();

    JsonNode proxy = pod.path("spec").path("containers").get(1);
    assertThat(proxy.path("imagePullPolicy").asText()).isEqualTo("IfNotPresent");
    assertThat(proxy.path("terminationMessagePolicy").asText()).isEqualTo("File");
    assertThat(widget.path("spec")).isEqualTo(json("{\"color\":\"green\",\"size\":3}"));
  }

  @Test
  void updatesStatusWritesAndDeletes_carryTheirOperationObjectsAndSubresource() {
    cluster = FakeCluster.builder().withValidatingAdmission("audit.example.com", record()).build();
    RawApi api = new RawApi(cluster.url());
    api.post("/api/v1/namespaces/default/pods",
        "{\"metadata\":{\"name\":\"web\"},\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:1\"}]}}");
    seen.clear();

    api.patch("/api/v1/namespaces/default/pods/web/status?dryRun=All", "application/merge-patch+json",
        "{\"status\":{\"phase\":\"Running\"}}");
    api.delete("/api/v1/namespaces/default/pods/web");

    assertThat(seen).extracting(r -> r.operation() + " " + r.subresource() + " dryRun=" + r.dryRun() + " new="
        + (r.object() == null ? null : r.object(Pod.class).getStatus().getPhase()) + " old="
        + r.oldObject(Pod.class).getStatus().getPhase())
        .containsExactly("UPDATE status dryRun=true new=Running old=Pending",
            "DELETE  dryRun=false new=null old=Pending");
  }

  @Test
  void aDeniedDelete_keepsTheObject_andSeededObjectsSkipTheHooks() {
    cluster = FakeCluster.builder()
        .withObjects(Fixtures.configMap("seeded", Map.of()))
        .withValidatingAdmission("protect.example.com", request -> {
          seen.add(request);
          return AdmissionDecision.deny("protected");
        })
        .build();

    assertThatThrownBy(() -> cluster.client().configMaps().inNamespace("default").withName("seeded").delete())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("admission webhook \"protect.example.com\" denied the request: protected");
    cluster.create(Fixtures.configMap("injected", Map.of()));

    assertThat(seen).extracting(r -> r.operation() + " " + r.name()).containsExactly("DELETE seeded");
    assertThat(cluster.client().configMaps().inNamespace("default").withName("seeded").get()).isNotNull();
  }

  @Test
  void aValidatingHookCannotPatch_andHookNamesMustNotBeBlank() {
    cluster = FakeCluster.builder().withValidatingAdmission("sneaky.example.com",
        request -> AdmissionDecision.patch(request.object())).build();

    Reply reply = new RawApi(cluster.url()).post(CONFIGMAPS, "{\"metadata\":{\"name\":\"c\"}}");

    assertThat(reply.code()).isEqualTo(500);
    assertThat(reply.json().path("message").asText()).isEqualTo("Internal error occurred: failed calling webhook "
        + "\"sneaky.example.com\": a validating admission hook returned a patched object; only hooks registered with "
        + "withMutatingAdmission(..) may change objects");
    assertThatThrownBy(() -> FakeCluster.builder().withMutatingAdmission(" ", request -> AdmissionDecision.allow()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an admission hook needs a name (kube prints it in denials: admission webhook \"<name>\" denied "
            + "the request), was \" \". Use a webhook-like name such as \"policy.example.com\".");
  }

  @Test
  void requestsCanBeBuiltForUnitTestsOfAHook() {
    AdmissionHook hook = request -> request.operation() == Operation.CREATE && request.namespace().equals("prod")
        ? AdmissionDecision.deny("no creates in prod") : AdmissionDecision.allow();
    AdmissionRequest request = AdmissionRequest.builder()
        .withOperation(Operation.CREATE)
        .withKind("", "v1", "ConfigMap", "configmaps")
        .withNamespace("prod").withName("settings")
        .withObject(Fixtures.configMap("settings", Map.of()))
        .build();

    AdmissionDecision decision = hook.review(request);

    assertThat(decision.allowed()).isFalse();
    assertThat(decision.code()).isEqualTo(403);
    assertThat(decision.reason()).contains("Forbidden");
    assertThat(decision.message()).isEqualTo("no creates in prod");
    assertThat(request.apiVersion()).isEqualTo("v1");
    assertThat(request.toString()).isEqualTo("CREATE configmaps prod/settings");
  }

  private static Map<String, String> labels(GenericKubernetesResource object) {
    Map<String, String> labels = object.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }

  private AdmissionHook record() {
    return request -> {
      seen.add(request);
      return AdmissionDecision.allow();
    };
  }
}
