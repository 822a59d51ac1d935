package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.deployment;
import static dev.ctk.fake.testing.Fixtures.network;
import static dev.ctk.fake.testing.Fixtures.networkCrd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.fake.testing.Fixtures;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** fabric8 7.8's {@code serverSideApply()} end to end, as Java Operator SDK's dependent resources use it. */
class ServerSideApplyFabric8Test {

  private FakeCluster cluster;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).withCrds(networkCrd()).build();
    client = cluster.client();
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  private static Deployment withReplicas(Deployment d, int replicas) {
    return new DeploymentBuilder(d).editSpec().withReplicas(replicas).endSpec().build();
  }

  @Test
  void forcedApply_createsThenUpdates_andRecordsTheFieldManager() {
    Deployment created = client.resource(deployment("web", "nginx:1")).fieldManager("operator").forceConflicts()
        .serverSideApply();
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);

    Deployment updated = client.resource(withReplicas(deployment("web", "nginx:2"), 3)).fieldManager("operator")
        .forceConflicts().serverSideApply();

    assertThat(updated.getSpec().getReplicas()).isEqualTo(3);
    assertThat(updated.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("nginx:2");
    assertThat(updated.getMetadata().getGeneration()).isEqualTo(2L);
    List<ManagedFieldsEntry> entries = client.apps().deployments().inNamespace("default").withName("web").get()
        .getMetadata().getManagedFields();
    assertThat(entries).singleElement().satisfies(e -> {
      assertThat(e.getManager()).isEqualTo("operator");
      assertThat(e.getOperation()).isEqualTo("Apply");
      assertThat(e.getApiVersion()).isEqualTo("apps/v1");
      assertThat(e.getTime()).isEqualTo("2025-03-01T12:00:00Z");
      assertThat(e.getFieldsType()).isEqualTo("FieldsV1");
      assertThat(e.getFieldsV1().getAdditionalProperties()).containsKeys("f:metadata", "f:spec");
    });
  }

  @Test
  void reapplyingTheSameDesiredState_isANoOp_soInformersSeeNoEvent() {
    Deployment first = client.resource(deployment("web", "nginx:1")).fieldManager("operator").forceConflicts()
        .serverSideApply();

    Deployment again = client.resource(deployment("web", "nginx:1")).fieldManager("operator").forceConflicts()
        .serverSideApply();

    assertThat(again.getMetadata().getResourceVersion()).isEqualTo(first.getMetadata().getResourceVersion());
    assertThat(again.getMetadata().getGeneration()).isEqualTo(1L);
  }

  @Test
  void conflictWithoutForce_isA409KubernetesClientException_withFieldManagerCauses() {
    client.resource(deployment("web", "nginx:1")).fieldManager("operator").serverSideApply();
    client.apps().deployments().inNamespace("default").withName("web").scale(4);

    KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class,
        () -> client.resource(withReplicas(deployment("web", "nginx:1"), 2)).fieldManager("operator")
            .serverSideApply());

    assertThat(e.getCode()).isEqualTo(409);
    assertThat(e.getStatus().getMessage()).isEqualTo("Apply failed with 1 conflict: conflict with "
        + "\"fabric8-kubernetes-client\" with subresource \"scale\" using apps/v1: .spec.replicas");
    assertThat(e.getStatus().getDetails().getCauses()).extracting(StatusCause::getReason, StatusCause::getField)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("FieldManagerConflict", ".spec.replicas"));

    Deployment forced = client.resource(withReplicas(deployment("web", "nginx:1"), 2)).fieldManager("operator")
        .forceConflicts().serverSideApply();
    assertThat(forced.getSpec().getReplicas()).isEqualTo(2);
  }

  @Test
  void applyNamingAResourceVersion_createsWhenAbsent_andIsAConflictWhenTheObjectChanged() {
    // Java Operator SDK's dependents apply with resourceVersion "1" to mean "create only if absent"
    Deployment desired = new DeploymentBuilder(deployment("web", "nginx:1")).editMetadata()
        .withResourceVersion("1").endMetadata().build();

    Deployment created = client.resource(desired).fieldManager("operator").forceConflicts().serverSideApply();

    assertThat(created.getMetadata().getUid()).isNotEmpty();
    assertThat(created.getMetadata().getResourceVersion()).isNotEqualTo("1")
        .isEqualTo(client.apps().deployments().inNamespace("default").withName("web").get().getMetadata()
            .getResourceVersion());
    KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class,
        () -> client.resource(desired).fieldManager("operator").forceConflicts().serverSideApply());
    assertThat(e.getCode()).isEqualTo(409);
    assertThat(e.getStatus().getMessage()).isEqualTo("Operation cannot be fulfilled on deployments.apps \"web\": "
        + "the object has been modified; please apply your changes to the latest version and try again");
  }

  @Test
  void applyWithoutFieldManager_usesFabric8sDefault() {
    Deployment created = client.resource(deployment("web", "nginx:1")).serverSideApply();

    assertThat(created.getMetadata().getManagedFields()).extracting(ManagedFieldsEntry::getManager)
        .containsExactly("fabric8");
  }

  @Test
  void customResource_applyAndStatusApply() {
    GenericKubernetesResource applied = client.resource(network("net-a", "10.0.0.0/24")).fieldManager("operator")
        .serverSideApply();
    assertThat(applied.get("spec", "cidr").toString()).isEqualTo("10.0.0.0/24");

    GenericKubernetesResource withStatus = network("net-a", "10.0.0.0/24");
    withStatus.setAdditionalProperty("status", Map.of("phase", "Ready"));
    PatchContext statusApply = new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
        .withFieldManager("operator").withForce(true).build();
    GenericKubernetesResource status = client.genericKubernetesResources("samplecrd.k8s.io/v1", "Network")
        .inNamespace("default").withName("net-a").subresource("status").patch(statusApply, withStatus);

    assertThat(status.get("status", "phase").toString()).isEqualTo("Ready");
    assertThat(status.getMetadata().getManagedFields()).extracting(ManagedFieldsEntry::getManager,
        ManagedFieldsEntry::getOperation, ManagedFieldsEntry::getSubresource).containsExactly(
            org.assertj.core.groups.Tuple.tuple("operator", "Apply", null),
            org.assertj.core.groups.Tuple.tuple("operator", "Apply", "status"));
  }

  @Test
  void ordinaryWrites_recordUpdateEntriesNamedAfterTheClient() {
    client.resource(Fixtures.configMap("cm", Map.of("a", "1"))).create();

    assertThat(client.configMaps().inNamespace("default").withName("cm").get().getMetadata().getManagedFields())
        .extracting(ManagedFieldsEntry::getManager, ManagedFieldsEntry::getOperation)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("fabric8-kubernetes-client", "Update"));
  }
}
