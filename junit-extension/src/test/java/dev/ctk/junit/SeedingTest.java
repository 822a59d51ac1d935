package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.values.FakeClusterException;
import dev.ctk.harness.values.Isolation;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestClassOrder;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.RegisterExtension;

/** CRDs and objects seeded from the annotation and from the builder, and their error messages. */
class SeedingTest {

  static final CustomResourceDefinition NETWORK_CRD = readCrd();
  static final AtomicInteger CUSTOMIZER_CALLS = new AtomicInteger();
  static final Map<String, FakeCluster> CLUSTERS = new ConcurrentHashMap<>();

  @BeforeEach
  void forget() {
    CLUSTERS.clear();
  }

  @Test
  void should_install_crds_and_seed_resources_before_every_test() {
    // WHEN
    var results = run(SeededByAnnotation.class);
    // THEN
    assertAllPassed(results, 2);
  }

  @Test
  void should_seed_objects_and_crds_given_to_the_builder_and_apply_its_customizer() {
    // GIVEN
    CUSTOMIZER_CALLS.set(0);
    // WHEN
    var results = run(SeededByBuilder.class);
    // THEN one cluster for the class: customized once, and the second test saw the first's object
    assertAllPassed(results, 2);
    assertThat(CUSTOMIZER_CALLS.get()).isEqualTo(1);
  }

  @Test
  void should_give_each_nested_class_with_its_own_builder_extension_its_own_cluster() {
    // WHEN
    var results = run(BuilderPerNestedClass.class);
    // THEN
    assertAllPassed(results, 2);
    assertThat(CLUSTERS).containsOnlyKeys("blue", "green");
    assertThat(CLUSTERS.get("blue")).isNotSameAs(CLUSTERS.get("green"));
  }

  @Test
  void should_refuse_two_builder_extensions_in_one_chain_of_classes() {
    // WHEN
    var results = run(BuilderOnOuterAndNested.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("ControllerTestExtension is registered twice for "
            + BuilderOnOuterAndNested.Inner.class.getName() + ": by the @RegisterExtension fields "
            + BuilderOnOuterAndNested.class.getName() + ".CTK and "
            + BuilderOnOuterAndNested.Inner.class.getName() + ".INNER_CTK. Fix: keep one of them; "
            + "to give @Nested classes settings of their own, register one extension on each "
            + "@Nested class and none on the class that encloses them.");
  }

  @Test
  void should_let_a_nested_annotation_inherit_the_attributes_it_leaves_unset() {
    // WHEN
    var results = run(NestedInheritsCrds.class);
    // THEN
    assertAllPassed(results, 3);
    assertThat(CLUSTERS).containsOnlyKeys("outer", "nestedFirst", "nestedSecond");
    assertThat(CLUSTERS.get("nestedFirst")).isSameAs(CLUSTERS.get("nestedSecond"))
        .isNotSameAs(CLUSTERS.get("outer"));
  }

  @Test
  void should_fail_the_class_when_a_crd_resource_does_not_exist() {
    // WHEN
    var results = run(MissingCrd.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("@ControllerTest(crds) on " + MissingCrd.class.getName() + " lists "
            + "\"classpath:crds/missing.yaml\", but there is no such classpath resource. Fix: put "
            + "the file at src/test/resources/crds/missing.yaml, or correct the name.");
  }

  @Test
  void should_fail_the_class_when_a_resource_file_does_not_exist() {
    // WHEN
    var results = run(MissingResourceFile.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("@ControllerTest(resources) on " + MissingResourceFile.class.getName()
            + " lists \"build/none.yaml\", but there is no such file: "
            + Path.of("build/none.yaml").toAbsolutePath() + ". Fix: use a path relative to the "
            + "working directory (" + Path.of("").toAbsolutePath() + "), or \"classpath:...\" for "
            + "a file in src/test/resources.");
  }

  @Test
  void should_fail_each_test_with_the_fake_clusters_message_for_a_malformed_file() {
    // WHEN
    var results = run(MalformedResource.class);
    // THEN the fake's own message (tested in fake-client) reaches the test unchanged
    assertThat(onlyFailure(results)).isInstanceOf(FakeClusterException.class)
        .hasMessageContaining("seed/malformed.yaml");
    assertThat(results.testEvents().failed().count()).isEqualTo(1);
  }

  @Test
  void should_fail_at_once_when_the_builder_is_given_a_missing_file() {
    // WHEN
    IllegalArgumentException error = catchThrowableOfType(IllegalArgumentException.class,
        () -> ControllerTestExtension.builder().withCrds("classpath:crds/nope.yaml"));
    // THEN
    assertThat(error).hasMessage("ControllerTestExtension.builder().withCrds(..) lists "
        + "\"classpath:crds/nope.yaml\", but there is no such classpath resource. Fix: put the "
        + "file at src/test/resources/crds/nope.yaml, or correct the name.");
  }

  @Test
  void should_fail_at_once_when_the_builder_is_built_twice() {
    // GIVEN
    ControllerTestExtension.Builder builder = ControllerTestExtension.builder();
    builder.build();
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        builder::build);
    // THEN
    assertThat(error).hasMessage("This ControllerTestExtension.Builder was already built. Fix: "
        + "start a new one with ControllerTestExtension.builder() for each extension.");
  }

  @Test
  void should_fail_the_test_when_the_cluster_customizer_returns_null() {
    // WHEN
    var results = run(CustomizerReturnsNull.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("The cluster customizer of ControllerTestExtension.builder() registered for "
            + CustomizerReturnsNull.class.getName() + " returned null. Fix: return the "
            + "FakeCluster.Builder it was given (b -> b.withX(..)).");
  }

  @Test
  void should_refuse_to_run_when_registered_by_annotation_and_by_builder() {
    // WHEN
    var results = run(RegisteredTwice.class);
    // THEN
    assertThat(EngineRuns.failures(results)).isNotEmpty();
    assertThat(results.allEvents().failed().stream().map(EngineRuns::throwable))
        .anySatisfy(t -> assertThat(t).hasMessage("ControllerTestExtension is registered twice "
            + "for " + RegisteredTwice.class.getName() + ": by @ControllerTest on "
            + RegisteredTwice.class.getName() + " and by a @RegisterExtension field made with "
            + "ControllerTestExtension.builder(). Fix: keep one of them; the builder can do "
            + "everything the annotation does."));
  }

  static GenericKubernetesResource network(KubernetesClient client, String name) {
    return client.genericKubernetesResources("samplecrd.k8s.io/v1", "Network")
        .inNamespace("default").withName(name).get();
  }

  @ControllerTest(crds = "classpath:crds/network.yaml",
      resources = {"classpath:seed/networks.yaml", "src/test/resources/seed/configmaps.yaml"})
  @Fixture
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class SeededByAnnotation {

    @Test
    @Order(1)
    void seesAndDeletes(KubernetesClient client) {
      assertThat(network(client, "blue").get("spec").toString()).contains("10.0.0.0/24");
      assertThat(client.configMaps().inNamespace("default").withName("seeded").get()).isNotNull();
      client.configMaps().inNamespace("default").withName("seeded").delete();
    }

    @Test
    @Order(2)
    void seesItAgainInItsOwnCluster(KubernetesClient client) {
      assertThat(client.configMaps().inNamespace("default").withName("seeded").get()).isNotNull();
      assertThat(client.configMaps().inNamespace("default").withName("seeded-too").get())
          .isNotNull();
    }
  }

  @Fixture
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class SeededByBuilder {

    @RegisterExtension
    static final ControllerTestExtension CTK = ControllerTestExtension.builder()
        .withCrds(NETWORK_CRD)
        .withObjects(new ConfigMapBuilder().withNewMetadata().withName("from-builder")
            .withNamespace("default").endMetadata().withData(Map.of("k", "v")).build())
        .withResources("classpath:seed/networks.yaml")
        .withIsolation(Isolation.PER_CLASS)
        .withClusterCustomizer(cluster -> {
          CUSTOMIZER_CALLS.incrementAndGet();
          return cluster.withWatchHistoryLimit(100);
        })
        .build();

    @Test
    @Order(1)
    void seesTheObjectsAndLeavesOne(KubernetesClient client) {
      assertThat(client.configMaps().inNamespace("default").withName("from-builder").get()
          .getData()).containsEntry("k", "v");
      assertThat(network(client, "blue")).isNotNull();
      client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
          .withNewMetadata().withName("from-first-test").endMetadata().build()).create();
    }

    @Test
    @Order(2)
    void sharesTheClusterOfTheClass(FakeCluster cluster, KubernetesClient client) {
      assertThat(cluster.client()).isSameAs(client);
      assertThat(client.configMaps().inNamespace("default").withName("from-first-test").get())
          .as("the object the first test created").isNotNull();
    }
  }

  /**
   * Two sibling @Nested classes, each with a per-class builder extension of its own: each cluster
   * belongs to its class, and closes when that class ends.
   */
  @Fixture
  @TestClassOrder(ClassOrderer.OrderAnnotation.class)
  static class BuilderPerNestedClass {

    @Nested
    @Order(1)
    class Blue {

      @RegisterExtension
      static final ControllerTestExtension CTK = ControllerTestExtension.builder()
          .withIsolation(Isolation.PER_CLASS).withObjects(configMap("blue")).build();

      @Test
      void seesOnlyBlue(FakeCluster cluster, KubernetesClient client) {
        CLUSTERS.put("blue", cluster);
        assertThat(configMapNames(client)).containsExactly("blue");
      }
    }

    @Nested
    @Order(2)
    class Green {

      @RegisterExtension
      static final ControllerTestExtension CTK = ControllerTestExtension.builder()
          .withIsolation(Isolation.PER_CLASS).withObjects(configMap("green")).build();

      @Test
      void seesOnlyGreen(FakeCluster cluster, KubernetesClient client) {
        CLUSTERS.put("green", cluster);
        assertThat(configMapNames(client)).containsExactly("green");
        IsolationTest.assertClosed(CLUSTERS.get("blue"));
      }
    }
  }

  @Fixture
  static class BuilderOnOuterAndNested {

    @RegisterExtension
    static final ControllerTestExtension CTK = ControllerTestExtension.builder().build();

    @Nested
    class Inner {

      @RegisterExtension
      static final ControllerTestExtension INNER_CTK = ControllerTestExtension.builder().build();

      @Test
      void neverRuns() {
        assertThat(true).isTrue();
      }
    }
  }

  /** The nested annotation sets only resources: it takes the CRD and PER_CLASS from the outer one. */
  @Fixture
  @ControllerTest(crds = "classpath:crds/network.yaml", isolation = Isolation.PER_CLASS)
  static class NestedInheritsCrds {

    @Test
    void outer(FakeCluster cluster, KubernetesClient client) {
      CLUSTERS.put("outer", cluster);
      assertThat(network(client, "blue")).as("not seeded here").isNull();
    }

    @Nested
    @ControllerTest(resources = "classpath:seed/networks.yaml")
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class Seeded {

      @Test
      @Order(1)
      void first(FakeCluster cluster, KubernetesClient client) {
        CLUSTERS.put("nestedFirst", cluster);
        assertThat(network(client, "blue")).isNotNull();
      }

      @Test
      @Order(2)
      void second(FakeCluster cluster) {
        CLUSTERS.put("nestedSecond", cluster);
      }
    }
  }

  static HasMetadata configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default")
        .endMetadata().build();
  }

  static List<String> configMapNames(KubernetesClient client) {
    return client.configMaps().inNamespace("default").list().getItems().stream()
        .map(cm -> cm.getMetadata().getName()).collect(Collectors.toList());
  }

  static CustomResourceDefinition readCrd() {
    try (InputStream in = SeedingTest.class.getResourceAsStream("/crds/network.yaml")) {
      return new KubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Fixture
  @ControllerTest(crds = "classpath:crds/missing.yaml")
  static class MissingCrd {

    @Test
    void neverRuns() {
      assertThat(true).isTrue();
    }
  }

  @Fixture
  @ControllerTest(resources = "build/none.yaml")
  static class MissingResourceFile {

    @Test
    void neverRuns() {
      assertThat(true).isTrue();
    }
  }

  @Fixture
  @ControllerTest(resources = "classpath:seed/malformed.yaml")
  static class MalformedResource {

    @Test
    void neverRuns() {
      assertThat(true).isTrue();
    }
  }

  @Fixture
  static class CustomizerReturnsNull {

    @RegisterExtension
    static final ControllerTestExtension CTK = ControllerTestExtension.builder()
        .withClusterCustomizer(cluster -> null)
        .build();

    @Test
    void neverRuns() {
      assertThat(true).isTrue();
    }
  }

  @Fixture
  @ControllerTest
  static class RegisteredTwice {

    @RegisterExtension
    static final ControllerTestExtension CTK = ControllerTestExtension.builder().build();

    @Test
    void neverRuns() {
      assertThat(true).isTrue();
    }
  }
}
