package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An update's {@code metadata.uid}: a PUT naming another uid fails kube's storage precondition (409, the etcd key in
 * the message), a patch that changes it fails validation (422, reported twice as kube 1.32 does); a missing uid is
 * filled in, and a test's own injection keeps the stored one.
 */
class UidPreconditionTest {

  private static final String OTHER = "6a1e5c3e-0000-4000-8000-000000000000";

  private FakeCluster cluster;
  private RawApi api;
  private String uid;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).build();
    api = new RawApi(cluster.url());
    uid = api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"web\"},\"data\":{\"k\":\"v\"}}")
        .json().at("/metadata/uid").asText();
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void putWithAnotherUid_answers409WithKubesStorageErrorText_evenWithAStaleResourceVersion() {
    RawApi.Reply reply = api.put("/api/v1/namespaces/default/configmaps/web",
        "{\"metadata\":{\"name\":\"web\",\"uid\":\"" + OTHER + "\",\"resourceVersion\":\"1\"},\"data\":{\"k\":\"w\"}}");

    assertThat(reply.code()).isEqualTo(409);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"Operation cannot be fulfilled on configmaps \\"web\\": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/web, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: %s, UID in object meta: %s",
         "reason":"Conflict","details":{"name":"web","kind":"configmaps"},"code":409}""".formatted(OTHER, uid)));
  }

  @Test
  void putWithAnotherUid_namesKubesEtcdKey_forServicesCustomResourcesAndClusterScopedKinds() {
    api.post("/api/v1/namespaces/default/services", "{\"metadata\":{\"name\":\"s\"},"
        + "\"spec\":{\"ports\":[{\"port\":80}]}}");
    assertThat(api.put("/api/v1/namespaces/default/services/s", "{\"metadata\":{\"name\":\"s\",\"uid\":\"" + OTHER
        + "\"},\"spec\":{\"ports\":[{\"port\":80}]}}").json().path("message").asText())
        .contains("Key: /registry/services/specs/default/s,");
    assertThat(api.put("/api/v1/namespaces/default", "{\"metadata\":{\"name\":\"default\",\"uid\":\"" + OTHER
        + "\"}}").json().path("message").asText()).contains("Key: /registry/namespaces/default,");
  }

  @Test
  void patchChangingTheUid_answers422_withTheCauseTwice() {
    RawApi.Reply reply = api.patch("/api/v1/namespaces/default/configmaps/web", "application/merge-patch+json",
        "{\"metadata\":{\"uid\":\"" + OTHER + "\"}}");

    assertThat(reply.code()).isEqualTo(422);
    String cause = "{\"reason\":\"FieldValueInvalid\",\"message\":\"Invalid value: \\\"" + OTHER + "\\\": field is "
        + "immutable\",\"field\":\"metadata.uid\"}";
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"ConfigMap \\"web\\" is invalid: metadata.uid: Invalid value: \\"%s\\": field is immutable",
         "reason":"Invalid","details":{"name":"web","kind":"ConfigMap","causes":[%s,%s]},"code":422}"""
        .formatted(OTHER, cause, cause)));
  }

  @Test
  void theStoredUid_orNone_updates_andAnInjectedUpdateKeepsTheStoredUid() {
    assertThat(api.put("/api/v1/namespaces/default/configmaps/web", "{\"metadata\":{\"name\":\"web\",\"uid\":\"" + uid
        + "\"},\"data\":{\"k\":\"w\"}}").code()).isEqualTo(200);
    assertThat(api.put("/api/v1/namespaces/default/configmaps/web", "{\"metadata\":{\"name\":\"web\"},"
        + "\"data\":{\"k\":\"x\"}}").json().at("/metadata/uid").asText()).isEqualTo(uid);

    io.fabric8.kubernetes.api.model.ConfigMap injected = Fixtures.configMap("web", Map.of("k", "y"));
    injected.getMetadata().setNamespace("default");
    injected.getMetadata().setUid(OTHER);
    cluster.events().update(injected);

    ObjectNode stored = (ObjectNode) api.get("/api/v1/namespaces/default/configmaps/web").json();
    assertThat(stored.at("/metadata/uid").asText() + " " + stored.at("/data/k").asText()).isEqualTo(uid + " y");
  }
}
