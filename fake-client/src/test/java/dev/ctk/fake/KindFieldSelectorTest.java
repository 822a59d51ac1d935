package dev.ctk.fake;

import static dev.ctk.fake.testing.RawApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import dev.ctk.fake.testing.WatchLines;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Kind-specific field selectors (Pod status.phase, spec.nodeName, Secret type, ...) on list and watch. */
class KindFieldSelectorTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String PODS = "/api/v1/namespaces/default/pods";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withObjects(
        pod("running-a", "node-a", "Running"),
        pod("running-b", "node-b", "Running"),
        pod("pending", null, "Pending"),
        new SecretBuilder().withNewMetadata().withName("token").withNamespace("default").endMetadata()
            .withType("kubernetes.io/service-account-token").build(),
        new SecretBuilder().withNewMetadata().withName("plain").withNamespace("default").endMetadata()
            .withType("Opaque").build()).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void podStatusPhase_throughFabric8() {
    assertThat(cluster.client().pods().withField("status.phase", "Running").list().getItems())
        .extracting(p -> p.getMetadata().getName()).containsExactly("running-a", "running-b");
    assertThat(cluster.client().pods().withoutField("status.phase", "Running").list().getItems())
        .extracting(p -> p.getMetadata().getName()).containsExactly("pending");
  }

  @Test
  void podSpecNodeName_andAlias_overRawHttp() {
    assertThat(names(api.get(PODS + "?fieldSelector=spec.nodeName%3Dnode-b"))).containsExactly("running-b");
    assertThat(names(api.get(PODS + "?fieldSelector=spec.host%3Dnode-a"))).containsExactly("running-a");
    assertThat(names(api.get(PODS + "?fieldSelector=spec.nodeName%3D"))).containsExactly("pending");
    assertThat(names(api.get("/api/v1/pods?fieldSelector=status.phase%3DRunning,spec.nodeName!%3Dnode-a")))
        .containsExactly("running-b");
  }

  @Test
  void secretType() {
    assertThat(names(api.get("/api/v1/namespaces/default/secrets?fieldSelector=type%3DOpaque")))
        .containsExactly("plain");
    assertThat(cluster.client().secrets().withField("type", "kubernetes.io/service-account-token").list()
        .getItems()).extracting(s -> s.getMetadata().getName()).containsExactly("token");
  }

  @Test
  void unsupportedField_onPod_isBadRequest_inKubesWording() {
    Reply reply = api.get(PODS + "?fieldSelector=spec.foo%3Dx");
    assertThat(reply.code()).isEqualTo(400);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"field label not supported: spec.foo","reason":"BadRequest","code":400}"""));
  }

  @Test
  void unsupportedField_onDeployment_namesTheSupportedOnes() {
    Reply reply = api.get("/apis/apps/v1/namespaces/default/deployments?fieldSelector=status.replicas%3D1");
    assertThat(reply.code()).isEqualTo(400);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"\\"status.replicas\\" is not a known field selector: only \\"metadata.name\\", \\"metadata.namespace\\"",
         "reason":"BadRequest","code":400}"""));
    KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class,
        () -> cluster.client().apps().deployments().withField("status.replicas", "1").list());
    assertThat(e).as("fabric8 list with an unsupported field selector").isNotNull();
    assertThat(e.getCode()).isEqualTo(400);
    assertThat(e.getStatus().getMessage()).isEqualTo(
        "\"status.replicas\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
  }

  @Test
  void watchByStatusPhase_seesPodsEnterAndLeaveTheSelection() {
    try (WatchLines watch = api.watch(PODS + "?watch=true&fieldSelector=status.phase%3DRunning")) {
      await().atMost(WAIT).until(() -> watch.summary().size() == 2);
      setPhase("pending", "Running");
      setPhase("running-a", "Succeeded");

      await().atMost(WAIT).untilAsserted(() -> assertThat(watch.summary()).containsExactly(
          "ADDED running-a", "ADDED running-b", "ADDED pending", "DELETED running-a"));
    }
  }

  @Test
  void watchWithUnsupportedField_isBadRequest() {
    Reply reply = api.get(PODS + "?watch=true&fieldSelector=status.hostIP%3D10.0.0.1");
    assertThat(reply.code()).isEqualTo(400);
    assertThat(reply.json()).isEqualTo(json("""
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"field label not supported: status.hostIP","reason":"BadRequest","code":400}"""));
  }

  private void setPhase(String name, String phase) {
    cluster.client().pods().withName(name).editStatus(p -> {
      p.getStatus().setPhase(phase);
      return p;
    });
  }

  private static HasMetadata pod(String name, String node, String phase) {
    Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withNewSpec().withNodeName(node).addNewContainer().withName("main").withImage("nginx").endContainer()
        .endSpec()
        .withNewStatus().withPhase(phase).endStatus()
        .build();
    return pod;
  }

  private static List<String> names(Reply reply) {
    assertThat(reply.code()).as(reply.body()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    for (JsonNode item : reply.json().path("items")) {
      names.add(item.path("metadata").path("name").asText());
    }
    return names;
  }
}
