package dev.ctk.fake.testing;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

/** Objects the tests share. */
public final class Fixtures {

  /** The instant every fixed-clock cluster in these tests reports. */
  public static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
  public static final Clock FIXED_CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  /** How the fabric8 client addresses the Network custom resource. */
  public static final ResourceDefinitionContext NETWORKS = new ResourceDefinitionContext.Builder()
      .withGroup("samplecrd.k8s.io").withVersion("v1").withPlural("networks").withKind("Network")
      .withNamespaced(true).build();

  private Fixtures() {}

  /** The Network CRD from src/test/resources/crds/network-crd.yaml. */
  public static CustomResourceDefinition networkCrd() {
    try (InputStream in = Fixtures.class.getResourceAsStream("/crds/network-crd.yaml")) {
      return new KubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static ConfigMap configMap(String name, Map<String, String> data) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withData(data).build();
  }

  public static ConfigMap configMap(String name, Map<String, String> labels, Map<String, String> data) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").withLabels(labels)
        .endMetadata().withData(data).build();
  }

  public static GenericKubernetesResource network(String name, String cidr) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("samplecrd.k8s.io/v1").withKind("Network")
        .withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .addToAdditionalProperties("spec", Map.of("cidr", cidr, "gateway", "10.0.0.1"))
        .build();
  }

  public static Deployment deployment(String name, String image) {
    return new DeploymentBuilder()
        .withNewMetadata().withName(name).withNamespace("default").addToLabels("app", name).endMetadata()
        .withNewSpec()
        .withReplicas(1)
        .withNewSelector().addToMatchLabels("app", name).endSelector()
        .withNewTemplate()
        .withNewMetadata().addToLabels("app", name).endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage(image).endContainer().endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }
}
