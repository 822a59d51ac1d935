package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.deployment;
import static dev.ctk.fake.testing.Fixtures.networkCrd;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The status subresource splits writes: /status changes only status, the main resource never changes status. */
class StatusSubresourceTest {

  private static final String NETWORK = "/apis/samplecrd.k8s.io/v1/namespaces/default/networks/net-a";
  private static final String PLAIN = "/apis/plain.example.com/v1/namespaces/default/plains/p";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    CustomResourceDefinition withoutStatus = new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName("plains.plain.example.com").endMetadata()
        .withNewSpec().withGroup("plain.example.com").withScope("Namespaced")
        .withNewNames().withKind("Plain").withPlural("plains").withSingular("plain").endNames()
        .addNewVersion().withName("v1").withServed(true).withStorage(true).endVersion()
        .endSpec().build();
    cluster = FakeCluster.builder().withCrds(networkCrd(), withoutStatus).build();
    api = new RawApi(cluster.url());
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void deployment_mainResourceIgnoresStatus_statusSubresourceIgnoresSpec() {
    Deployment d = cluster.client().apps().deployments().resource(deployment("web", "nginx:1")).create();
    assertThat(d.getStatus()).isNull();

    d.getSpec().setReplicas(5);
    d.setStatus(new DeploymentStatusBuilder().withReplicas(9).build());
    Deployment afterMain = cluster.client().apps().deployments().resource(d).update();
    assertThat(afterMain.getSpec().getReplicas()).isEqualTo(5);
    assertThat(afterMain.getStatus()).isNull();

    afterMain.getSpec().setReplicas(1);
    afterMain.setStatus(new DeploymentStatusBuilder().withReplicas(4).build());
    Deployment afterStatus = cluster.client().apps().deployments().resource(afterMain).updateStatus();
    assertThat(afterStatus.getStatus().getReplicas()).isEqualTo(4);
    assertThat(afterStatus.getSpec().getReplicas()).isEqualTo(5);
    assertThat(afterStatus.getMetadata().getGeneration()).isEqualTo(2L);
  }

  @Test
  void crdWithStatusSubresource_splitsBothDirections_forPutAndPatch() {
    api.post("/apis/samplecrd.k8s.io/v1/namespaces/default/networks", "{\"apiVersion\":\"samplecrd.k8s.io/v1\","
        + "\"kind\":\"Network\",\"metadata\":{\"name\":\"net-a\"},\"spec\":{\"cidr\":\"a\"},"
        + "\"status\":{\"phase\":\"Ignored\"}}");
    assertThat(api.get(NETWORK).json().has("status")).isFalse();

    Reply mainPatch = api.patch(NETWORK, "application/merge-patch+json",
        "{\"spec\":{\"cidr\":\"b\"},\"status\":{\"phase\":\"Ignored\"}}");
    assertThat(mainPatch.json().path("spec").path("cidr").asText()).isEqualTo("b");
    assertThat(mainPatch.json().has("status")).isFalse();

    Reply statusPatch = api.patch(NETWORK + "/status", "application/merge-patch+json",
        "{\"spec\":{\"cidr\":\"ignored\"},\"status\":{\"phase\":\"Ready\"}}");
    assertThat(statusPatch.code()).isEqualTo(200);
    assertThat(statusPatch.json().path("status").path("phase").asText()).isEqualTo("Ready");
    assertThat(statusPatch.json().path("spec").path("cidr").asText()).isEqualTo("b");
    assertThat(statusPatch.json().path("metadata").path("generation").asLong()).isEqualTo(2);

    String rv = statusPatch.json().path("metadata").path("resourceVersion").asText();
    Reply statusPut = api.put(NETWORK + "/status", "{\"apiVersion\":\"samplecrd.k8s.io/v1\",\"kind\":\"Network\","
        + "\"metadata\":{\"name\":\"net-a\",\"resourceVersion\":\"" + rv + "\",\"labels\":{\"ignored\":\"yes\"}},"
        + "\"spec\":{\"cidr\":\"ignored\"},\"status\":{\"phase\":\"Done\"}}");
    assertThat(statusPut.json().path("status").path("phase").asText()).isEqualTo("Done");
    assertThat(statusPut.json().path("spec").path("cidr").asText()).isEqualTo("b");
    assertThat(statusPut.json().path("metadata").has("labels")).isFalse();

    assertThat(api.get(NETWORK + "/status").json().path("status").path("phase").asText()).isEqualTo("Done");
  }

  @Test
  void crdWithoutStatusSubresource_statusIsAnOrdinaryField() {
    Reply created = api.post("/apis/plain.example.com/v1/namespaces/default/plains", "{\"apiVersion\":"
        + "\"plain.example.com/v1\",\"kind\":\"Plain\",\"metadata\":{\"name\":\"p\"},\"status\":{\"x\":1}}");
    assertThat(created.json().path("status").path("x").asInt()).isEqualTo(1);

    Reply patched = api.patch(PLAIN, "application/merge-patch+json", "{\"status\":{\"x\":2}}");
    assertThat(patched.json().path("status").path("x").asInt()).isEqualTo(2);
    assertThat(patched.json().path("metadata").path("generation").asLong()).isEqualTo(2);

    assertThat(api.get(PLAIN + "/status").code()).isEqualTo(404);
  }
}
