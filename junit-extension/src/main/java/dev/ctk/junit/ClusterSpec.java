package dev.ctk.junit;

import dev.ctk.fake.FakeCluster;
import dev.ctk.junit.ControllerTest.Isolation;
import dev.ctk.junit.ControllerTestConfig.Resolved;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Everything needed to start the fake clusters of one test scope (a test class and its {@code @Nested}
 * classes): the resolved isolation and what to seed. Immutable; starts a new cluster per call.
 *
 * @param isolation the isolation and where it came from
 * @param crds CRD files, installed first
 * @param resources object files
 * @param crdObjects CRDs given as objects (builder only)
 * @param objects objects given as objects (builder only); copied for every cluster
 * @param customizer applied to the cluster builder last (builder only)
 * @param origin who configured this scope, for messages: {@code @ControllerTest on ...}
 */
record ClusterSpec(Resolved<Isolation> isolation, List<ResourceLocation> crds,
    List<ResourceLocation> resources, List<CustomResourceDefinition> crdObjects,
    List<HasMetadata> objects, UnaryOperator<FakeCluster.Builder> customizer, String origin) {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  ClusterSpec {
    crds = List.copyOf(crds);
    resources = List.copyOf(resources);
    crdObjects = List.copyOf(crdObjects);
    objects = List.copyOf(objects);
  }

  boolean perClass() {
    return isolation.value() == Isolation.PER_CLASS;
  }

  /** Starts a new cluster seeded with this spec's CRDs and objects. */
  FakeCluster startCluster() {
    FakeCluster.Builder builder = FakeCluster.builder();
    if (!crdObjects.isEmpty()) {
      builder.withCrds(crdObjects.stream().map(ClusterSpec::copy)
          .toArray(CustomResourceDefinition[]::new));
    }
    Path[] files = Stream.concat(crds.stream(), resources.stream())
        .map(ResourceLocation::file).filter(Objects::nonNull).toArray(Path[]::new);
    if (files.length > 0) {
      builder.withYaml(files);
    }
    String[] classpath = Stream.concat(crds.stream(), resources.stream())
        .map(ResourceLocation::classpathResource).filter(Objects::nonNull).toArray(String[]::new);
    if (classpath.length > 0) {
      builder.withClasspathResources(classpath);
    }
    if (!objects.isEmpty()) {
      builder.withObjects(objects.stream().map(ClusterSpec::copy).toArray(HasMetadata[]::new));
    }
    FakeCluster.Builder customized = customizer.apply(builder);
    if (customized == null) {
      throw new ExtensionConfigurationException("The cluster customizer of " + origin
          + " returned null. Fix: return the FakeCluster.Builder it was given (b -> b.withX(..)).");
    }
    return customized.build();
  }

  static <T> T copy(T object) {
    return SERIALIZATION.clone(object);
  }

  static <T> List<T> copies(List<T> objects) {
    List<T> copies = new ArrayList<>(objects.size());
    for (T object : objects) {
      copies.add(copy(object));
    }
    return copies;
  }
}
