package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Autoscaling;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Request bodies in kube's protobuf encoding over HTTP: creates with the bodies kubectl 1.32 sends, an update, a
 * Scale, DeleteOptions, and the 415 answers for custom resources and CBOR, checked as whole Status bodies.
 */
class ProtobufRequestTest {

  private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
  private static final String FAILURE = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
      + "\"status\":\"Failure\",";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withCrds(Fixtures.networkCrd()).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void kubectlCreateBodies_createTheObjects() throws IOException {
    Reply namespace = api.send("POST", "/api/v1/namespaces", PROTOBUF, kubectlBody("namespace"));
    assertThat(namespace.code()).as(namespace.body()).isEqualTo(201);
    assertThat(namespace.json().path("status").path("phase").asText()).isEqualTo("Active");

    Reply configMap = api.send("POST", "/api/v1/namespaces/demo2/configmaps", PROTOBUF, kubectlBody("configmap"));
    assertThat(configMap.code()).as(configMap.body()).isEqualTo(201);
    assertThat(configMap.json().path("data").toString()).isEqualTo("{\"empty\":\"\",\"mode\":\"dev\"}");

    Reply deployment = api.send("POST", "/apis/apps/v1/namespaces/demo2/deployments", PROTOBUF,
        kubectlBody("deployment-replicas-0"));
    assertThat(deployment.code()).as(deployment.body()).isEqualTo(201);
    assertThat(deployment.json().path("spec").path("replicas").asInt(-1)).isZero();

    assertThat(FakeClusterInternals.journal(cluster).entries()).filteredOn(e -> e.method().equals("POST"))
        .extracting(e -> e.path() + " " + e.code())
        .containsExactly("/api/v1/namespaces 201", "/api/v1/namespaces/demo2/configmaps 201",
            "/apis/apps/v1/namespaces/demo2/deployments 201");
  }

  @Test
  void update_withAProtobufBody() {
    Reply created = api.post("/api/v1/namespaces/default/configmaps",
        "{\"metadata\":{\"name\":\"app\"},\"data\":{\"mode\":\"dev\"}}");
    String resourceVersion = created.json().path("metadata").path("resourceVersion").asText();
    V1.ConfigMap changed = V1.ConfigMap.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("app").setNamespace("default")
            .setResourceVersion(resourceVersion))
        .putData("mode", "prod").build();

    Reply updated = api.send("PUT", "/api/v1/namespaces/default/configmaps/app", PROTOBUF,
        envelope("v1", "ConfigMap", changed));

    assertThat(updated.code()).as(updated.body()).isEqualTo(200);
    assertThat(updated.json().path("data").toString()).isEqualTo("{\"mode\":\"prod\"}");
  }

  @Test
  void scale_withAProtobufScale() throws IOException {
    api.send("POST", "/api/v1/namespaces", PROTOBUF, kubectlBody("namespace"));
    api.send("POST", "/apis/apps/v1/namespaces/demo2/deployments", PROTOBUF, kubectlBody("deployment-two-images"));
    V1Autoscaling.Scale scale = V1Autoscaling.Scale.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("multi").setNamespace("demo2"))
        .setSpec(V1Autoscaling.ScaleSpec.newBuilder().setReplicas(4)).build();

    Reply reply = api.send("PUT", "/apis/apps/v1/namespaces/demo2/deployments/multi/scale", PROTOBUF,
        envelope("autoscaling/v1", "Scale", scale));

    assertThat(reply.code()).as(reply.body()).isEqualTo(200);
    assertThat(api.get("/apis/apps/v1/namespaces/demo2/deployments/multi").json().path("spec").path("replicas")
        .asInt()).isEqualTo(4);
  }

  @Test
  void delete_withProtobufDeleteOptions_checksTheirPreconditions() {
    String resourceVersion = api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"app\"}}")
        .json().path("metadata").path("resourceVersion").asText();
    Meta.DeleteOptions stale = Meta.DeleteOptions.newBuilder()
        .setPreconditions(Meta.Preconditions.newBuilder().setResourceVersion("1")).build();

    Reply reply = api.send("DELETE", "/api/v1/namespaces/default/configmaps/app", PROTOBUF,
        envelope("v1", "DeleteOptions", stale));

    assertThat(reply.code()).isEqualTo(409);
    assertThat(reply.body()).isEqualTo(FAILURE
        + "\"message\":\"Operation cannot be fulfilled on ConfigMap \\\"app\\\": the ResourceVersion in the "
        + "precondition (1) does not match the ResourceVersion in record (" + resourceVersion + "). The object might "
        + "have been modified\",\"reason\":\"Conflict\",\"details\":{\"name\":\"app\",\"kind\":\"ConfigMap\"},"
        + "\"code\":409}");
  }

  @Test
  void customResource_inProtobuf_isRefusedWithKubes415() {
    Reply reply = api.send("POST", "/apis/samplecrd.k8s.io/v1/namespaces/default/networks", PROTOBUF,
        envelope("samplecrd.k8s.io/v1", "Network", V1.ConfigMap.getDefaultInstance()));

    assertThat(reply.code()).isEqualTo(415);
    assertThat(reply.body()).isEqualTo(FAILURE
        + "\"message\":\"the body of the request was in an unknown format - accepted media types include: "
        + "application/json, application/yaml (networks.samplecrd.k8s.io is a custom resource: kube-apiserver "
        + "decodes custom resources from JSON or YAML only; send it as application/json)\","
        + "\"reason\":\"UnsupportedMediaType\",\"code\":415}");
  }

  @Test
  void cbor_isRefusedWith415() {
    Reply reply = api.send("POST", "/api/v1/namespaces/default/configmaps", "application/cbor", new byte[] {1});

    assertThat(reply.code()).isEqualTo(415);
    assertThat(reply.body()).isEqualTo(FAILURE
        + "\"message\":\"the body of the request was in an unknown format - accepted media types include: "
        + "application/json, application/yaml, application/vnd.kubernetes.protobuf (ctk's fake API server does not "
        + "decode application/cbor; send the body as application/json)\",\"reason\":\"UnsupportedMediaType\","
        + "\"code\":415}");
  }

  /** What kubectl 1.32 sent for one {@code kubectl create} (see {@code ProtobufBodyTest}). */
  private static byte[] kubectlBody(String name) throws IOException {
    try (InputStream in = ProtobufRequestTest.class.getResourceAsStream("/protobuf/kubectl-1.32/" + name + ".hex")) {
      assertThat(in).as("test resource protobuf/kubectl-1.32/%s.hex", name).isNotNull();
      return HexFormat.of().parseHex(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
    }
  }

  private static byte[] envelope(String apiVersion, String kind, Message message) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {'k', '8', 's', 0});
    out.writeBytes(Runtime.Unknown.newBuilder()
        .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
        .setRaw(message.toByteString()).build().toByteArray());
    return out.toByteArray();
  }
}
