package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.values.Isolation;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Per-method vs per-class clusters, when they close, the configuration precedence (annotation >
 * configuration parameter > environment > default; every run gets an environment of its own, see
 * EngineRuns) and @Nested classes.
 */
class IsolationTest {

  /** What the fixtures saw, by fixture and test: whether the first test's object was there. */
  static final Map<String, Boolean> SAW_FIRST_TESTS_OBJECT = new ConcurrentHashMap<>();
  /** The cluster each fixture test ran against (kept, so distinct clusters stay distinct objects). */
  static final Map<String, FakeCluster> CLUSTER = new ConcurrentHashMap<>();

  @BeforeEach
  void forget() {
    SAW_FIRST_TESTS_OBJECT.clear();
    CLUSTER.clear();
  }

  @Test
  void should_give_each_test_method_a_fresh_cluster_by_default() {
    // WHEN
    var results = run(NoIsolationSet.class);
    // THEN
    assertAllPassed(results, 2);
    assertThat(SAW_FIRST_TESTS_OBJECT).containsExactly(Map.entry("NoIsolationSet", false));
  }

  @Test
  void should_share_one_cluster_across_the_class_when_the_configuration_parameter_says_so() {
    // WHEN
    var results = run(NoIsolationSet.class, "ctk.isolation", "per_class");
    // THEN
    assertAllPassed(results, 2);
    assertThat(SAW_FIRST_TESTS_OBJECT).containsExactly(Map.entry("NoIsolationSet", true));
  }

  @Test
  void should_share_one_cluster_across_the_class_when_the_environment_says_so() {
    // WHEN
    var results = run(List.of(NoIsolationSet.class), environment("CTK_ISOLATION", "per_class"));
    // THEN
    assertAllPassed(results, 2);
    assertThat(SAW_FIRST_TESTS_OBJECT).containsExactly(Map.entry("NoIsolationSet", true));
  }

  @Test
  void should_let_the_configuration_parameter_win_over_the_environment() {
    // WHEN
    var results = run(List.of(NoIsolationSet.class), environment("CTK_ISOLATION", "per_class"),
        "ctk.isolation", "per_method");
    // THEN
    assertAllPassed(results, 2);
    assertThat(SAW_FIRST_TESTS_OBJECT).containsExactly(Map.entry("NoIsolationSet", false));
  }

  @Test
  void should_resolve_the_settings_once_per_annotated_class() {
    // GIVEN an environment that records what is read
    List<String> reads = new CopyOnWriteArrayList<>();
    // WHEN two test methods and a @Nested class run under one @ControllerTest
    var results = run(List.of(PerMethodWithNested.class), name -> {
      reads.add(name);
      return null;
    });
    // THEN
    assertAllPassed(results, 3);
    assertThat(reads).containsExactly("CTK_MODE", "CTK_ISOLATION", "CTK_FAKE_KUBERNETES_VERSION");
  }

  @Test
  void should_let_the_annotation_win_over_the_configuration_parameter() {
    // WHEN
    var results = run(AnnotatedPerMethod.class, "ctk.isolation", "per_class");
    // THEN
    assertAllPassed(results, 2);
    assertThat(SAW_FIRST_TESTS_OBJECT).containsExactly(Map.entry("AnnotatedPerMethod", false));
  }

  @Test
  void should_share_one_cluster_and_allow_before_all_injection_with_per_class_isolation() {
    // WHEN
    var results = run(AnnotatedPerClass.class, "ctk.isolation", "per_method");
    // THEN
    assertAllPassed(results, 2);
    assertThat(SAW_FIRST_TESTS_OBJECT).containsExactly(Map.entry("AnnotatedPerClass", true));
  }

  @Test
  void should_fail_the_class_with_a_clear_message_for_an_invalid_isolation_value() {
    // WHEN
    var results = run(NoIsolationSet.class, "ctk.isolation", "per_test");
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("Invalid value \"per_test\" from the JUnit configuration parameter "
            + "ctk.isolation (junit-platform.properties, -D or the launcher). Expected one of: "
            + "per_method, per_class. Fix the value, or remove it to get the default "
            + "(per_method).");
    assertThat(results.testEvents().started().count()).isZero();
  }

  @Test
  void should_fail_the_class_naming_the_environment_variable_for_an_invalid_value() {
    // WHEN
    var results = run(List.of(NoIsolationSet.class), environment("CTK_ISOLATION", "shared"));
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("Invalid value \"shared\" from the environment variable CTK_ISOLATION. "
            + "Expected one of: per_method, per_class. Fix the value, or remove it to get the "
            + "default (per_method).");
  }

  @Test
  void should_close_each_per_method_cluster_when_its_test_ends() {
    // WHEN
    var results = run(RecordsPerMethodClusters.class);
    // THEN the second test saw the first one's cluster closed, and the second is closed now
    assertAllPassed(results, 2);
    assertThat(CLUSTER).containsOnlyKeys("first", "second");
    assertClosed(CLUSTER.get("second"));
  }

  @Test
  void should_close_a_per_class_cluster_when_its_class_ends_and_not_before() {
    // WHEN
    var results = run(RecordsPerClassCluster.class);
    // THEN the cluster stayed open across both tests and the nested class, and is closed now
    assertAllPassed(results, 3);
    assertThat(CLUSTER).containsOnlyKeys("outer");
    assertClosed(CLUSTER.get("outer"));
  }

  @Test
  void should_share_the_enclosing_per_class_cluster_with_nested_classes() {
    // WHEN
    var results = run(PerClassWithNested.class);
    // THEN Inner shares the outer cluster; OwnScope has its own, per class (inherited isolation)
    assertAllPassed(results, 4);
    FakeCluster outer = CLUSTER.get("outer");
    assertThat(CLUSTER.get("inner")).isSameAs(outer);
    assertThat(CLUSTER.get("ownScopeA")).isNotNull().isNotSameAs(outer)
        .isSameAs(CLUSTER.get("ownScopeB"));
  }

  @Test
  void should_let_a_nested_annotation_that_sets_the_isolation_win_over_the_enclosing_one() {
    // WHEN
    var results = run(NestedSetsPerMethod.class, "ctk.isolation", "per_class");
    // THEN
    assertAllPassed(results, 2);
    assertThat(SAW_FIRST_TESTS_OBJECT).containsExactly(Map.entry("PerMethodInside", false));
  }

  @Test
  void should_give_each_nested_test_its_own_cluster_with_per_method_isolation() {
    // WHEN
    var results = run(PerMethodWithNested.class);
    // THEN
    assertAllPassed(results, 3);
    assertThat(CLUSTER.values()).hasSize(3)
        .allSatisfy(c -> assertThat(CLUSTER.values()).filteredOn(o -> o == c).hasSize(1));
  }

  static Function<String, String> environment(String name, String value) {
    return Map.of(name, value)::get;
  }

  static void assertClosed(FakeCluster cluster) {
    assertThat(cluster).isNotNull();
    assertThatThrownBy(cluster::client).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is closed");
  }

  /** First test creates an object; the second records whether it sees it. */
  @Fixture
  abstract static class SeesFirstTestsObject {

    @Test
    @Order(1)
    void first(KubernetesClient client) {
      client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
          .withNewMetadata().withName("from-first-test").endMetadata().build()).create();
    }

    @Test
    @Order(2)
    void second(KubernetesClient client) {
      SAW_FIRST_TESTS_OBJECT.put(getClass().getSimpleName(),
          client.configMaps().inNamespace("default").withName("from-first-test").get() != null);
    }
  }

  @Fixture
  @ControllerTest
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class NoIsolationSet extends SeesFirstTestsObject {}

  @Fixture
  @ControllerTest(isolation = Isolation.PER_METHOD)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class AnnotatedPerMethod extends SeesFirstTestsObject {}

  @Fixture
  @ControllerTest(isolation = Isolation.PER_CLASS)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class AnnotatedPerClass extends SeesFirstTestsObject {

    private static FakeCluster fromBeforeAll;

    @BeforeAll
    static void remember(FakeCluster cluster) {
      fromBeforeAll = cluster;
    }

    @BeforeEach
    void sameCluster(FakeCluster cluster) {
      assertThat(cluster).isSameAs(fromBeforeAll);
    }
  }

  @Fixture
  @ControllerTest(isolation = Isolation.PER_CLASS)
  static class PerClassWithNested {

    @Test
    void outer(FakeCluster cluster) {
      CLUSTER.put("outer", cluster);
    }

    @Nested
    class Inner {

      @Test
      void inner(FakeCluster cluster) {
        CLUSTER.put("inner", cluster);
      }
    }

    @Nested
    @ControllerTest
    class OwnScope {

      @Test
      void ownScopeA(FakeCluster cluster) {
        CLUSTER.put("ownScopeA", cluster);
      }

      @Test
      void ownScopeB(FakeCluster cluster) {
        CLUSTER.put("ownScopeB", cluster);
      }
    }
  }

  @Fixture
  @ControllerTest
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class RecordsPerMethodClusters {

    @Test
    @Order(1)
    void first(FakeCluster cluster) {
      CLUSTER.put("first", cluster);
    }

    @Test
    @Order(2)
    void second(FakeCluster cluster) {
      CLUSTER.put("second", cluster);
      assertClosed(CLUSTER.get("first"));
    }
  }

  @Fixture
  @ControllerTest(isolation = Isolation.PER_CLASS)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class RecordsPerClassCluster {

    @Test
    @Order(1)
    void first(FakeCluster cluster) {
      CLUSTER.put("outer", cluster);
    }

    @Test
    @Order(2)
    void second(FakeCluster cluster) {
      assertThat(cluster).isSameAs(CLUSTER.get("outer"));
      assertThat(cluster.client().namespaces().withName("default").get()).isNotNull();
    }

    @Nested
    class Inner {

      @Test
      void stillOpen(FakeCluster cluster) {
        assertThat(cluster).isSameAs(CLUSTER.get("outer"));
        assertThat(cluster.client().namespaces().withName("default").get()).isNotNull();
      }
    }
  }

  /** The outer annotation leaves the isolation to configuration; the nested one sets it. */
  @Fixture
  @ControllerTest
  static class NestedSetsPerMethod {

    @Nested
    @ControllerTest(isolation = Isolation.PER_METHOD)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class PerMethodInside extends SeesFirstTestsObject {}
  }

  @Fixture
  @ControllerTest
  static class PerMethodWithNested {

    @Test
    void outer(FakeCluster cluster) {
      CLUSTER.put("outer", cluster);
    }

    @Nested
    class Inner {

      @Test
      void a(FakeCluster cluster) {
        CLUSTER.put("a", cluster);
      }

      @Test
      void b(FakeCluster cluster) {
        CLUSTER.put("b", cluster);
      }
    }
  }
}
