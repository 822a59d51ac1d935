package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** kube's update rules for Pod and PersistentVolumeClaim specs, checked as whole Status bodies. */
class PodAndClaimImmutabilityTest {

  private static final String MERGE = "application/merge-patch+json";
  private static final String POD = "/api/v1/namespaces/default/pods/web";
  private static final String CLAIM = "/api/v1/namespaces/default/persistentvolumeclaims/data";
  private static final String UPDATABLE = "`spec.containers[*].image`,`spec.initContainers[*].image`,"
      + "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),"
      + "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).build();
    api = new RawApi(cluster.url());
    Reply pod = api.post("/api/v1/namespaces/default/pods", """
        {"metadata":{"name":"web"},"spec":{"nodeName":"node-a","activeDeadlineSeconds":60,
         "tolerations":[{"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule"}],
         "containers":[{"name":"main","image":"nginx:1"}]}}""");
    assertThat(pod.code()).as(pod.body()).isEqualTo(201);
    Reply claim = api.post("/api/v1/namespaces/default/persistentvolumeclaims", """
        {"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],
         "resources":{"requests":{"storage":"1Gi"}}}}""");
    assertThat(claim.code()).as(claim.body()).isEqualTo(201);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void podImageToleratonAdditionsAndALowerDeadline_areAllowed() {
    // a merge patch replaces the list: it keeps the two tolerations kube's DefaultTolerationSeconds added at create
    // (removing them is forbidden, as on a real server) and adds two
    Reply reply = api.patch(POD, MERGE, """
        {"spec":{"activeDeadlineSeconds":30,"containers":[{"name":"main","image":"nginx:2"}],
         "tolerations":[
           {"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},
           {"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},
           {"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule"},
           {"key":"gpu","operator":"Exists"}]}}""");

    assertThat(reply.code()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().path("spec").path("containers").get(0).path("image").asText()).isEqualTo("nginx:2");
  }

  @Test
  void podSpecChange_isForbidden_withKubesMessage() {
    Reply reply = api.patch(POD, MERGE, "{\"spec\":{\"nodeName\":\"node-b\"}}");

    String body = "Forbidden: pod updates may not change fields other than " + UPDATABLE + "\n"
        + "  core.PodSpec{\n- \tnodeName: \"node-a\",\n+ \tnodeName: \"node-b\",\n  }";
    assertThat(reply.code()).isEqualTo(422);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%s,"reason":"Invalid",
         "details":{"name":"web","kind":"Pod","causes":[{"reason":"FieldValueForbidden","message":%s,
           "field":"spec"}]},"code":422}""".formatted(quoted("Pod \"web\" is invalid: spec: " + body),
        quoted(body))));
  }

  @Test
  void podContainersCannotBeAddedOrRemoved() {
    Reply reply = api.patch(POD, MERGE, """
        {"spec":{"containers":[{"name":"main","image":"nginx:1"},{"name":"sidecar","image":"envoy:1"}]}}""");

    assertThat(reply.json().path("message").asText()).isEqualTo("Pod \"web\" is invalid: spec.containers: "
        + "Forbidden: pod updates may not add or remove containers");
  }

  @Test
  void podTolerationsAndDeadline_followKubesRules() {
    Reply changedToleration = api.patch(POD, MERGE, """
        {"spec":{"tolerations":[{"key":"dedicated","operator":"Equal","value":"api","effect":"NoSchedule"}]}}""");
    Reply raisedDeadline = api.patch(POD, MERGE, "{\"spec\":{\"activeDeadlineSeconds\":90}}");
    Reply removedDeadline = api.patch(POD, MERGE, "{\"spec\":{\"activeDeadlineSeconds\":null}}");

    assertThat(changedToleration.json().path("message").asText()).isEqualTo("Pod \"web\" is invalid: "
        + "spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds");
    assertThat(raisedDeadline.json().path("message").asText()).isEqualTo("Pod \"web\" is invalid: "
        + "spec.activeDeadlineSeconds: Invalid value: 90: must be less than or equal to previous value");
    assertThat(removedDeadline.json().path("message").asText()).isEqualTo("Pod \"web\" is invalid: "
        + "spec.activeDeadlineSeconds: Invalid value: \"null\": must not update from a positive integer to nil value");
  }

  @Test
  void claim_isDefaulted_andAcceptsAStorageClassWhereThereWasNone() {
    Reply claim = api.get(CLAIM);
    Reply storageClass = api.patch(CLAIM, MERGE, "{\"spec\":{\"storageClassName\":\"fast\"}}");

    assertThat(claim.json().path("spec").path("volumeMode").asText()).isEqualTo("Filesystem");
    assertThat(claim.json().path("status")).isEqualTo(json("{\"phase\":\"Pending\"}"));
    assertThat(storageClass.code()).as(storageClass.body()).isEqualTo(200);
  }

  @Test
  void claimResize_isAllowedOnlyWhenBound() {
    Reply unbound = api.patch(CLAIM, MERGE, "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}");
    api.patch(CLAIM + "/status", MERGE, "{\"status\":{\"phase\":\"Bound\",\"capacity\":{\"storage\":\"1Gi\"}}}");
    Reply bound = api.patch(CLAIM, MERGE, "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}");
    Reply shrunk = api.patch(CLAIM, MERGE, "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"512Mi\"}}}}");

    String body = "Forbidden: spec is immutable after creation except resources.requests and "
        + "volumeAttributesClassName for bound claims\n  core.PersistentVolumeClaimSpec{\n"
        + "- \tresources: {\"requests\":{\"storage\":\"1Gi\"}},\n"
        + "+ \tresources: {\"requests\":{\"storage\":\"2Gi\"}},\n  }";
    assertThat(unbound.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%s,"reason":"Invalid",
         "details":{"name":"data","kind":"PersistentVolumeClaim","causes":[{"reason":"FieldValueForbidden",
           "message":%s,"field":"spec"}]},"code":422}""".formatted(
        quoted("PersistentVolumeClaim \"data\" is invalid: spec: " + body), quoted(body))));
    assertThat(bound.code()).as(bound.body()).isEqualTo(200);
    assertThat(shrunk.json().path("message").asText()).isEqualTo("PersistentVolumeClaim \"data\" is invalid: "
        + "spec.resources.requests.storage: Forbidden: field can not be less than status.capacity");
  }

  @Test
  void claimVolumeMode_isImmutable() {
    Reply reply = api.patch(CLAIM, MERGE, "{\"spec\":{\"volumeMode\":\"Block\"}}");

    assertThat(reply.json().path("message").asText()).isEqualTo("PersistentVolumeClaim \"data\" is invalid: ["
        + "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName "
        + "for bound claims\n  core.PersistentVolumeClaimSpec{\n- \tvolumeMode: \"Filesystem\",\n"
        + "+ \tvolumeMode: \"Block\",\n  }, volumeMode: Invalid value: \"Block\": field is immutable]");
  }

  private static String quoted(String text) {
    return TextNode.valueOf(text).toString();
  }
}
