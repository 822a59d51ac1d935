package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.fake.values.FakeClusterException;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import org.junit.jupiter.api.Test;

/** Seeded and injected objects go through the same defaulting and validation as API writes. */
class SeedingAdmissionTest {

  @Test
  void seededObjects_areDefaulted_andKeepTheirStatus() {
    try (FakeCluster cluster = FakeCluster.builder().withObjects(new ServiceBuilder().withNewMetadata()
        .withName("web").endMetadata().withNewSpec().addNewPort().withPort(80).endPort().endSpec().build(),
        new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec().addNewContainer()
            .withName("c").withImage("nginx").endContainer().endSpec().withNewStatus().withPhase("Running")
            .endStatus().build()).build()) {
      Service service = cluster.client().services().withName("web").get();
      Pod pod = cluster.client().pods().withName("p").get();

      assertThat(service.getSpec().getClusterIP()).isEqualTo("10.96.0.2");
      assertThat(pod.getSpec().getContainers().get(0).getImagePullPolicy()).isEqualTo("Always");
      assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
    }
  }

  @Test
  void aSeededInvalidObject_failsTheBuild_withKubesMessage() {
    FakeCluster.Builder builder = FakeCluster.builder().withObjects(new PodBuilder().withNewMetadata()
        .withName("p").endMetadata().withNewSpec().endSpec().build());

    assertThatThrownBy(builder::build).isInstanceOf(FakeClusterException.class)
        .hasMessage("Cannot seed the fake cluster: withObjects(..), object 1 (Pod p) was rejected by the API "
            + "server: 422 Invalid: Pod \"p\" is invalid: spec.containers: Required value. Nothing of this batch "
            + "was written. Fix that object and seed the batch again.");
  }

  @Test
  void aRejectedObject_rollsBackTheObjectsWrittenBeforeIt_soNothingIsHalfLoaded() {
    try (FakeCluster cluster = FakeCluster.start()) {
      String rvBefore = cluster.resourceVersion();
      // GIVEN a batch whose Namespace and ConfigMap are valid, and whose Pod (written last) is not
      io.fabric8.kubernetes.api.model.Namespace team = new io.fabric8.kubernetes.api.model.NamespaceBuilder()
          .withNewMetadata().withName("team-a").endMetadata().build();
      io.fabric8.kubernetes.api.model.ConfigMap config = new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
          .withNewMetadata().withName("settings").withNamespace("team-a").endMetadata().addToData("a", "b").build();
      Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("team-a").endMetadata()
          .withNewSpec().endSpec().build();
      java.nio.file.Path yaml;
      try {
        yaml = java.nio.file.Files.createTempFile("seed", ".yaml");
        java.nio.file.Files.writeString(yaml, io.fabric8.kubernetes.client.utils.Serialization.asYaml(config)
            + io.fabric8.kubernetes.client.utils.Serialization.asYaml(pod)
            + io.fabric8.kubernetes.client.utils.Serialization.asYaml(team));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      // WHEN
      assertThatThrownBy(() -> cluster.load(yaml)).isInstanceOf(FakeClusterException.class)
          .hasMessage("Cannot seed the fake cluster: " + yaml.toAbsolutePath() + ", document 2 (Pod team-a/p) "
              + "was rejected by the API server: 422 Invalid: Pod \"p\" is invalid: spec.containers: Required "
              + "value. Nothing of this batch was kept: the 2 objects written before it were removed again (open "
              + "watches saw them come and go). Fix that object and seed the batch again.");
      // THEN neither the Namespace nor the ConfigMap stayed
      assertThat(cluster.client().namespaces().withName("team-a").get()).isNull();
      assertThat(cluster.client().configMaps().inNamespace("team-a").withName("settings").get()).isNull();
      assertThat(Long.parseLong(cluster.resourceVersion())).isGreaterThan(Long.parseLong(rvBefore));
    }
  }

  @Test
  void eventInjectorAdd_ofAnInvalidObject_isAFakeClusterException() {
    try (FakeCluster cluster = FakeCluster.start()) {
      Pod pod = new PodBuilder().withNewMetadata().withName("Bad").endMetadata().withNewSpec().addNewContainer()
          .withName("c").withImage("i").endContainer().endSpec().build();

      assertThatThrownBy(() -> cluster.events().add(pod)).isInstanceOf(FakeClusterException.class)
          .hasMessage("EventInjector.add(Pod Bad) failed: 422 Invalid: Pod \"Bad\" is invalid: "
              + "metadata.name: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case "
              + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
              + "'example.com', regex used for validation is "
              + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*').");
    }
  }
}
