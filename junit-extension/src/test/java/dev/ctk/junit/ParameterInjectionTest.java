package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.EventInjector;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.ControllerHarness;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ParameterResolutionException;

class ParameterInjectionTest {

  @Test
  void should_inject_the_four_types_into_constructor_lifecycle_and_test_methods() {
    // WHEN
    var results = run(InjectsEverything.class);
    // THEN
    assertAllPassed(results, 1);
  }

  @Test
  void should_leave_other_parameter_types_to_other_resolvers() {
    // WHEN
    var results = run(AsksForAString.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ParameterResolutionException.class)
        .hasMessageStartingWith("No ParameterResolver registered for parameter [java.lang.String");
  }

  @Test
  void should_refuse_injection_outside_a_test_method_with_per_method_isolation() {
    // WHEN
    var results = run(InjectsIntoBeforeAll.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ParameterResolutionException.class)
        .hasMessage("Cannot inject FakeCluster into method seed(..) of "
            + InjectsIntoBeforeAll.class.getName() + ": with per-method isolation (from default) "
            + "each test method gets its own cluster, and this runs outside any test method. Fix: "
            + "inject it into a @Test, @BeforeEach or @AfterEach method, or share one cluster "
            + "across the class with @ControllerTest(isolation = Isolation.PER_CLASS).");
  }

  @Fixture
  @ControllerTest
  static class InjectsEverything {

    private final FakeCluster fromConstructor;
    private FakeCluster fromBeforeEach;

    InjectsEverything(FakeCluster cluster) {
      this.fromConstructor = cluster;
    }

    @BeforeEach
    void setUp(FakeCluster cluster) {
      this.fromBeforeEach = cluster;
    }

    @Test
    void injects(KubernetesClient client, FakeCluster cluster, EventInjector events,
        ControllerHarness harness) {
      assertThat(fromConstructor).isSameAs(cluster);
      assertThat(fromBeforeEach).isSameAs(cluster);
      assertThat(client).isSameAs(cluster.client());
      assertThat(harness.cluster()).isSameAs(cluster);
      assertThat(harness.client()).isSameAs(client);
      assertThat(harness.controllers()).isEmpty();
      events.add(new ConfigMapBuilder().withNewMetadata().withName("injected")
          .withNamespace("default").endMetadata().build());
      assertThat(client.configMaps().inNamespace("default").withName("injected").get())
          .isNotNull();
    }
  }

  @Fixture
  @ControllerTest
  static class AsksForAString {

    @Test
    void needs(String text) {
      assertThat(text).isNotNull();
    }
  }

  @Fixture
  @ControllerTest
  static class InjectsIntoBeforeAll {

    @BeforeAll
    static void seed(FakeCluster cluster) {
      assertThat(cluster).isNotNull();
    }

    @Test
    void test() {
      assertThat(true).isTrue();
    }
  }
}
