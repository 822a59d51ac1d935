package dev.ctk.fake.internal.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PatchSchemaTest {

  /** group, kind, path to the list's parent (fields separated by '.'), list field, merges?, merge key, retainKeys? */
  static Stream<Arguments> lists() {
    return Stream.of(
        arguments("", "Pod", "spec", "containers", true, "name", false),
        arguments("", "Pod", "spec", "initContainers", true, "name", false),
        arguments("", "Pod", "spec", "ephemeralContainers", true, "name", false),
        arguments("", "Pod", "spec", "volumes", true, "name", true),
        arguments("", "Pod", "spec", "imagePullSecrets", true, "name", false),
        arguments("", "Pod", "spec", "hostAliases", true, "ip", false),
        arguments("", "Pod", "spec", "topologySpreadConstraints", true, "topologyKey", false),
        arguments("", "Pod", "spec", "schedulingGates", true, "name", false),
        arguments("", "Pod", "spec", "resourceClaims", true, "name", true),
        arguments("", "Pod", "spec", "tolerations", false, null, false),
        arguments("", "Pod", "spec", "readinessGates", false, null, false),
        arguments("", "Pod", "spec.containers", "ports", true, "containerPort", false),
        arguments("", "Pod", "spec.containers", "env", true, "name", false),
        arguments("", "Pod", "spec.containers", "envFrom", false, null, false),
        arguments("", "Pod", "spec.containers", "volumeMounts", true, "mountPath", false),
        arguments("", "Pod", "spec.containers", "volumeDevices", true, "devicePath", false),
        arguments("", "Pod", "spec.containers", "args", false, null, false),
        arguments("", "Pod", "spec.initContainers", "env", true, "name", false),
        arguments("", "Pod", "spec.ephemeralContainers", "ports", true, "containerPort", false),
        arguments("", "Pod", "status", "conditions", true, "type", false),
        arguments("", "Pod", "status", "podIPs", true, "ip", false),
        arguments("", "Pod", "status", "hostIPs", true, "ip", false),
        arguments("", "Pod", "status", "containerStatuses", false, null, false),
        arguments("", "Pod", "metadata", "finalizers", true, null, false),
        arguments("", "Pod", "metadata", "ownerReferences", true, "uid", false),
        arguments("", "Pod", "metadata", "managedFields", false, null, false),
        arguments("", "Service", "spec", "ports", true, "port", false),
        arguments("", "Service", "spec", "clusterIPs", false, null, false),
        arguments("", "Service", "status", "conditions", true, "type", false),
        arguments("", "Node", "spec", "podCIDRs", true, null, false),
        arguments("", "Node", "spec", "taints", false, null, false),
        arguments("", "Node", "status", "addresses", true, "type", false),
        arguments("", "ServiceAccount", "", "secrets", true, "name", false),
        arguments("", "ServiceAccount", "", "imagePullSecrets", false, null, false),
        arguments("", "PersistentVolumeClaim", "status", "conditions", true, "type", false),
        arguments("", "ReplicationController", "spec.template.spec", "containers", true, "name", false),
        arguments("", "ReplicationController", "spec.template.spec.containers", "env", true, "name", false),
        arguments("", "ConfigMap", "metadata", "finalizers", true, null, false),
        arguments("apps", "Deployment", "spec.template.spec", "containers", true, "name", false),
        arguments("apps", "Deployment", "spec.template.metadata", "ownerReferences", true, "uid", false),
        arguments("apps", "Deployment", "status", "conditions", true, "type", false),
        arguments("apps", "StatefulSet", "spec", "volumeClaimTemplates", false, null, false),
        arguments("apps", "DaemonSet", "spec.template.spec.containers", "volumeMounts", true, "mountPath", false),
        arguments("batch", "Job", "spec.template.spec", "volumes", true, "name", true),
        arguments("batch", "CronJob", "spec.jobTemplate.spec.template.spec", "containers", true, "name", false),
        arguments("batch", "CronJob", "spec.jobTemplate.metadata", "finalizers", true, null, false),
        arguments("networking.k8s.io", "Ingress", "metadata", "finalizers", true, null, false),
        arguments("networking.k8s.io", "Ingress", "spec", "rules", false, null, false));
  }

  @ParameterizedTest(name = "{1} {2}.{3}")
  @MethodSource("lists")
  void knows_how_lists_merge(String group, String kind, String parent, String field, boolean merges, String mergeKey,
      boolean retainKeys) {
    // GIVEN
    PatchSchema schema = PatchSchema.forType(kind);
    for (String step : parent.isEmpty() ? new String[0] : parent.split("\\.")) {
      schema = schema.child(step);
    }
    // THEN
    assertThat(schema.mergesList(field)).as("merges").isEqualTo(merges);
    assertThat(schema.mergeKey(field)).as("merge key").isEqualTo(mergeKey);
    assertThat(schema.retainsKeys(field)).as("retainKeys").isEqualTo(retainKeys);
    assertThat(schema.replacesMap(field)).as("replaces map").isFalse();
  }

  @Test
  void follows_fields_to_their_types() {
    PatchSchema deployment = PatchSchema.forType("Deployment");
    assertThat(deployment.typeName()).isEqualTo("Deployment");
    assertThat(deployment.child("spec").typeName()).isEqualTo("DeploymentSpec");
    assertThat(deployment.child("spec").child("template").child("spec").child("containers").typeName()).isEqualTo("Container");
    assertThat(deployment.child("spec").retainsKeys("strategy")).isTrue();
    assertThat(deployment.child("spec").child("selector").typeName()).isEmpty();
    assertThat(deployment.child("nope").child("deeper").mergesList("containers")).isFalse();
  }

  @Test
  void gives_every_root_type_metadata_and_nothing_else_to_an_undescribed_one() {
    assertThat(PatchSchema.forType("Deployment").fields()).containsExactly("metadata", "spec", "status");
    assertThat(PatchSchema.forType("Secret").fields()).containsExactly("metadata");
    assertThat(PatchSchema.forType("Secret").child("metadata").mergeKey("ownerReferences")).isEqualTo("uid");
    assertThat(PatchSchema.forType("Secret").child("metadata").mergesList("finalizers")).isTrue();
    assertThat(PatchSchema.forType("Deployment").child("spec").fields()).containsExactly("template", "strategy");
    assertThat(PatchSchema.describedTypes()).contains("PodSpec", "Container", "ObjectMeta").doesNotContain("Secret");
    assertThat(PatchSchema.empty().mergesList("finalizers")).isFalse();
    assertThat(PatchSchema.empty().child("metadata").mergesList("finalizers")).isFalse();
    assertThat(PatchSchema.empty().fields()).isEmpty();
  }
}
