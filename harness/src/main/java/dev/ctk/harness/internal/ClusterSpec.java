package dev.ctk.harness.internal;

import dev.ctk.controller.VirtualTime;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.internal.realserver.RealServers;
import dev.ctk.harness.internal.realserver.ResourceLocation;
import dev.ctk.harness.internal.realserver.ServerConfig;
import dev.ctk.harness.values.HarnessConfigurationException;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import dev.ctk.harness.values.TestCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * Everything needed to start the clusters of one test scope (a test class and its {@code @Nested}
 * classes, in one mode): the resolved mode and isolation, the real server's settings, and what to
 * seed. Immutable; starts a new fake cluster, or a new namespace on the shared real server, per call.
 *
 * @param mode the mode and where it came from
 * @param server the real server's settings; {@code null} in fake mode
 * @param isolation the isolation and where it came from
 * @param crds CRD files, installed first
 * @param resources object files
 * @param crdObjects CRDs given as objects (builder only)
 * @param objects objects given as objects (builder only); copied for every cluster
 * @param customizer applied to the fake cluster builder last (builder only; fake mode only)
 * @param virtualTime whether each new cluster gets a fresh {@link VirtualTime}
 * @param origin who configured this scope, for messages: {@code @ControllerTest on ...}
 */
public record ClusterSpec(Resolved<Mode> mode, ServerConfig server, Resolved<Isolation> isolation,
    List<ResourceLocation> crds, List<ResourceLocation> resources,
    List<CustomResourceDefinition> crdObjects, List<HasMetadata> objects,
    UnaryOperator<FakeCluster.Builder> customizer, boolean virtualTime, String origin) {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  public ClusterSpec {
    crds = List.copyOf(crds);
    resources = List.copyOf(resources);
    crdObjects = List.copyOf(crdObjects);
    objects = List.copyOf(objects);
  }

  /** Whether one cluster (or namespace) serves the whole class. */
  public boolean perClass() {
    return isolation.value() == Isolation.PER_CLASS;
  }

  /**
   * Starts what a new scope runs against: a fake cluster, or a fresh namespace on the real server,
   * seeded with this spec's CRDs and objects. With virtual time it gets a fresh {@link VirtualTime};
   * a fake cluster stamps its objects with that clock and times its namespace controller on it.
   *
   * @param scopeName the test or class the scope is for, used in a real namespace's name
   * @param holdRun called first in a real mode: makes sure a {@link RealServers#openRun() run} is open that holds
   *     the real server's admin client until the scope's tests end
   * @return the cluster
   */
  public TestCluster start(String scopeName, Runnable holdRun) {
    VirtualTime time = virtualTime ? VirtualTime.create() : null;
    if (mode.value().isReal()) {
      holdRun.run();
      return RealTestCluster.start(this, scopeName, time);
    }
    return new FakeTestCluster(startFakeCluster(time), time);
  }

  /**
   * Starts a new fake cluster seeded with this spec's CRDs and objects, on {@code time}: its timestamps and its
   * namespace controller's grace period follow that virtual clock.
   */
  private FakeCluster startFakeCluster(VirtualTime time) {
    FakeCluster.Builder builder = FakeCluster.builder();
    if (time != null) {
      builder.withTimeSource(time);
    }
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
      throw new HarnessConfigurationException("The cluster customizer of " + origin
          + " returned null. Fix: return the FakeCluster.Builder it was given (b -> b.withX(..)).");
    }
    return customized.build();
  }

  /** A deep copy, through fabric8's serialization. */
  public static <T> T copy(T object) {
    return SERIALIZATION.clone(object);
  }

  /** Deep copies, see {@link #copy}. */
  public static <T> List<T> copies(List<T> objects) {
    List<T> copies = new ArrayList<>(objects.size());
    for (T object : objects) {
      copies.add(copy(object));
    }
    return copies;
  }
}
