package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.deployment;
import static dev.ctk.fake.testing.Fixtures.networkCrd;
import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PATCH by content type, and DELETE with finalizers, preconditions and deletecollection. */
class PatchAndDeleteTest {

  private static final String DEPLOYMENT = "/apis/apps/v1/namespaces/default/deployments/web";
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
  private static final String NETWORK = "/apis/samplecrd.k8s.io/v1/namespaces/default/networks/net-a";

  /** What kube's defaulting adds to a container with a tagged image. */
  private static final String DEFAULTED = "\"imagePullPolicy\":\"IfNotPresent\",\"resources\":{},"
      + "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\"";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withCrds(networkCrd())
        .withObjects(new DeploymentBuilder(deployment("web", "nginx:1")).editSpec().editTemplate().editSpec()
            .addNewContainer().withName("sidecar").withImage("envoy:1").endContainer().endSpec().endTemplate()
            .endSpec().build())
        .build();
    api = new RawApi(cluster.url());
    api.post("/apis/samplecrd.k8s.io/v1/namespaces/default/networks", "{\"apiVersion\":\"samplecrd.k8s.io/v1\","
        + "\"kind\":\"Network\",\"metadata\":{\"name\":\"net-a\"},\"spec\":{\"cidr\":\"a\",\"gateway\":\"g\"}}");
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void strategicMergePatch_onDeployment_mergesContainersByName() {
    Reply reply = api.patch(DEPLOYMENT, "application/strategic-merge-patch+json",
        "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:2\"}]}}}}");
    assertThat(reply.code()).isEqualTo(200);
    assertThat(reply.json().path("spec").path("template").path("spec").path("containers")).isEqualTo(json(
        "[{\"name\":\"main\",\"image\":\"nginx:2\"," + DEFAULTED + "},"
            + "{\"name\":\"sidecar\",\"image\":\"envoy:1\"," + DEFAULTED + "}]"));
    assertThat(reply.json().path("metadata").path("generation").asLong()).isEqualTo(2);
  }

  @Test
  void mergePatch_replacesLists_andNullRemoves() {
    Reply reply = api.patch(DEPLOYMENT, "application/merge-patch+json",
        "{\"metadata\":{\"labels\":{\"app\":null,\"x\":\"y\"}},\"spec\":{\"template\":{\"spec\":{\"containers\":"
            + "[{\"name\":\"only\",\"image\":\"busybox\"}]}}}}");
    assertThat(reply.json().path("metadata").path("labels")).isEqualTo(json("{\"x\":\"y\"}"));
    assertThat(reply.json().path("spec").path("template").path("spec").path("containers")).hasSize(1);
  }

  @Test
  void jsonPatch_appliesOps_failedTestIsUnprocessable() {
    Reply ok = api.patch(NETWORK, "application/json-patch+json",
        "[{\"op\":\"test\",\"path\":\"/spec/cidr\",\"value\":\"a\"},"
            + "{\"op\":\"replace\",\"path\":\"/spec/cidr\",\"value\":\"b\"}]");
    assertThat(ok.json().path("spec").path("cidr").asText()).isEqualTo("b");

    Reply failed = api.patch(NETWORK, "application/json-patch+json",
        "[{\"op\":\"test\",\"path\":\"/spec/cidr\",\"value\":\"zzz\"}]");
    assertThat(failed.code()).isEqualTo(422);
    assertThat(failed.json().path("reason").asText()).isEqualTo("Invalid");
    assertThat(failed.json().path("message").asText())
        .isEqualTo("the server rejected our request due to an error in our request");
    assertThat(failed.json().path("details")).as("kube's generic answer carries no cause").isEqualTo(json("{}"));
  }

  @Test
  void writeThatLeavesNoName_isBadRequest_beforeAnyPrecondition() {
    String undeterminable = "the name of the object (net-a based on URL) was undeterminable: name must be provided";
    Reply patched = api.patch(NETWORK, "application/merge-patch+json", "{\"metadata\":{\"name\":null}}");
    Reply put = api.put(NETWORK, "{\"apiVersion\":\"samplecrd.k8s.io/v1\",\"kind\":\"Network\",\"metadata\":{},"
        + "\"spec\":{\"cidr\":\"b\"}}");

    Reply renamedStale = api.put(NETWORK, "{\"apiVersion\":\"samplecrd.k8s.io/v1\",\"kind\":\"Network\","
        + "\"metadata\":{\"name\":\"other\",\"resourceVersion\":\"1\"},\"spec\":{\"cidr\":\"b\"}}");

    for (Reply reply : List.of(patched, put)) {
      assertThat(reply.code()).as(reply.body()).isEqualTo(400);
      assertThat(reply.json().path("message").asText()).isEqualTo(undeterminable);
    }
    assertThat(renamedStale.code()).as("another name is refused before the stale resourceVersion")
        .isEqualTo(400);
    assertThat(renamedStale.json().path("message").asText())
        .isEqualTo("the name of the object (other) does not match the name on the URL (net-a)");
    assertThat(api.get(NETWORK).json().path("spec").path("cidr").asText()).as("nothing changed").isEqualTo("a");
  }

  @Test
  void patchThatRemovesTheResourceVersion_ofACustomResource_isInvalid() {
    for (String patch : new String[] {"{\"metadata\":{\"resourceVersion\":null},\"spec\":{\"cidr\":\"z\"}}",
        "{\"metadata\":{\"resourceVersion\":\"\"},\"spec\":{\"cidr\":\"z\"}}"}) {
      Reply reply = api.patch(NETWORK, "application/merge-patch+json", patch);
      assertThat(reply.code()).as(patch + " -> " + reply.body()).isEqualTo(422);
      assertThat(reply.json().path("details").path("causes")).as(patch).isEqualTo(json(
          "[{\"reason\":\"FieldValueInvalid\",\"message\":\"Invalid value: 0x0: must be specified for an update\","
              + "\"field\":\"metadata.resourceVersion\"}]"));
    }
    Reply removed = api.patch(NETWORK, "application/json-patch+json",
        "[{\"op\":\"remove\",\"path\":\"/metadata/resourceVersion\"}]");
    assertThat(removed.code()).as(removed.body()).isEqualTo(422);
    assertThat(api.get(NETWORK).json().path("spec").path("cidr").asText()).as("nothing changed").isEqualTo("a");
  }

  @Test
  void patchWithStaleResourceVersion_isConflict() {
    Reply reply = api.patch(NETWORK, "application/merge-patch+json",
        "{\"metadata\":{\"resourceVersion\":\"1\"},\"spec\":{\"cidr\":\"z\"}}");
    assertThat(reply.code()).isEqualTo(409);
    assertThat(reply.json().path("reason").asText()).isEqualTo("Conflict");
  }

  @Test
  void strategicMergePatch_onCustomResource_isUnsupportedMediaType() {
    Reply reply = api.patch(NETWORK, "application/strategic-merge-patch+json", "{\"spec\":{\"cidr\":\"b\"}}");
    assertThat(reply.code()).isEqualTo(415);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
         "reason":"UnsupportedMediaType","code":415}"""));
  }

  @Test
  void serverSideApply_withoutApiVersionAndKind_isBadRequest() {
    // server-side apply itself is covered by ServerSideApply*Test; a configuration must name its kind, as in kube
    Reply reply = api.patch(DEPLOYMENT + "?fieldManager=test", "application/apply-patch+yaml",
        "spec:\n  replicas: 2\n");
    assertThat(reply.code()).isEqualTo(400);
    assertThat(reply.json().path("message").asText()).isEqualTo("invalid object type: /, Kind=");
  }

  @Test
  void delete_withFinalizers_setsDeletionTimestamp_lastFinalizerRemovalDeletes() {
    api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"held\",\"finalizers\":[\"a/x\",\"b/y\"]}}");

    Reply deleted = api.delete(CONFIGMAPS + "/held");
    assertThat(deleted.code()).isEqualTo(200);
    assertThat(deleted.json().path("metadata").path("deletionTimestamp").asText()).isEqualTo("2025-03-01T12:00:00Z");
    assertThat(deleted.json().path("metadata").path("deletionGracePeriodSeconds").asLong()).isZero();
    assertThat(api.get(CONFIGMAPS + "/held").code()).isEqualTo(200);

    Reply addFinalizer = api.patch(CONFIGMAPS + "/held", "application/merge-patch+json",
        "{\"metadata\":{\"finalizers\":[\"a/x\",\"b/y\",\"c/z\"]}}");
    assertThat(addFinalizer.code()).isEqualTo(422);
    assertThat(addFinalizer.json().path("message").asText()).isEqualTo("ConfigMap \"held\" is invalid: "
        + "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new "
        + "finalizers []string{\"c/z\"}");

    api.patch(CONFIGMAPS + "/held", "application/merge-patch+json", "{\"metadata\":{\"finalizers\":[\"b/y\"]}}");
    assertThat(api.get(CONFIGMAPS + "/held").code()).isEqualTo(200);
    api.patch(CONFIGMAPS + "/held", "application/json-patch+json",
        "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]");
    assertThat(api.get(CONFIGMAPS + "/held").code()).isEqualTo(404);
  }

  @Test
  void delete_withoutFinalizers_answersASuccessStatusNamingTheObject() {
    String uid = api.get(DEPLOYMENT).json().path("metadata").path("uid").asText();

    Reply deleted = api.delete(DEPLOYMENT);

    assertThat(deleted.code()).isEqualTo(200);
    assertThat(deleted.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success",
         "details":{"name":"web","group":"apps","kind":"deployments","uid":"%s"}}""".formatted(uid)));
    assertThat(api.get(DEPLOYMENT).code()).isEqualTo(404);
  }

  @Test
  void delete_preconditions_conflictWithKubeMessages() {
    Reply created = api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"c\"}}");
    String uid = created.json().path("metadata").path("uid").asText();
    String rv = created.json().path("metadata").path("resourceVersion").asText();

    Reply wrongUid = api.delete(CONFIGMAPS + "/c", "{\"preconditions\":{\"uid\":\"other\"}}");
    assertThat(wrongUid.code()).isEqualTo(409);
    assertThat(wrongUid.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"Operation cannot be fulfilled on ConfigMap \\"c\\": the UID in the precondition (other) does not \
        match the UID in record (%s). The object might have been deleted and then recreated",
         "reason":"Conflict","details":{"name":"c","kind":"ConfigMap"},"code":409}""".formatted(uid)));

    Reply wrongRv = api.delete(CONFIGMAPS + "/c", "{\"preconditions\":{\"resourceVersion\":\"1\"}}");
    assertThat(wrongRv.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"Operation cannot be fulfilled on ConfigMap \\"c\\": the ResourceVersion in the precondition (1) \
        does not match the ResourceVersion in record (%s). The object might have been modified",
         "reason":"Conflict","details":{"name":"c","kind":"ConfigMap"},"code":409}""".formatted(rv)));

    String deploymentUid = api.get(DEPLOYMENT).json().path("metadata").path("uid").asText();
    Reply wrongDeploymentUid = api.delete(DEPLOYMENT, "{\"preconditions\":{\"uid\":\"other\"}}");
    assertThat(wrongDeploymentUid.json().path("message").asText()).as("the kind is qualified by its group")
        .isEqualTo("Operation cannot be fulfilled on Deployment.apps \"web\": the UID in the precondition (other) "
            + "does not match the UID in record (" + deploymentUid + "). The object might have been deleted and "
            + "then recreated");
    assertThat(wrongDeploymentUid.json().path("details")).isEqualTo(json(
        "{\"name\":\"web\",\"group\":\"apps\",\"kind\":\"Deployment\"}"));

    assertThat(api.delete(CONFIGMAPS + "/c", "{\"preconditions\":{\"uid\":\"" + uid + "\",\"resourceVersion\":\""
        + rv + "\"}}").code()).isEqualTo(200);
  }

  @Test
  void deleteCollection_withLabelSelector_deletesOnlySelected() {
    api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"a\",\"labels\":{\"app\":\"x\"}}}");
    api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"b\",\"labels\":{\"app\":\"x\"}}}");
    api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"c\",\"labels\":{\"app\":\"y\"}}}");

    Reply reply = api.delete(CONFIGMAPS + "?labelSelector=app%3Dx");
    assertThat(reply.code()).isEqualTo(200);
    assertThat(reply.json().path("kind").asText()).isEqualTo("ConfigMapList");
    List<String> deleted = new ArrayList<>();
    reply.json().path("items").forEach(i -> deleted.add(i.path("metadata").path("name").asText()));
    assertThat(deleted).containsExactly("a", "b");
    List<String> left = new ArrayList<>();
    api.get(CONFIGMAPS).json().path("items").forEach(i -> left.add(i.path("metadata").path("name").asText()));
    assertThat(left).containsExactly("c");
  }

  @Test
  void fabric8_deleteWithLabel_usesTheApi() {
    cluster.client().apps().deployments().withLabel("app", "web").delete();
    assertThat(cluster.client().apps().deployments().list().getItems()).isEmpty();
  }

  @Test
  void dryRun_validatesButStoresNothing() {
    String rv = cluster.resourceVersion();
    Reply reply = api.post(CONFIGMAPS + "?dryRun=All", "{\"metadata\":{\"name\":\"dry\"}}");
    assertThat(reply.code()).isEqualTo(201);
    assertThat(reply.json().path("metadata").path("uid").asText()).isNotEmpty();
    assertThat(api.get(CONFIGMAPS + "/dry").code()).isEqualTo(404);
    assertThat(cluster.resourceVersion()).isEqualTo(rv);
  }
}
