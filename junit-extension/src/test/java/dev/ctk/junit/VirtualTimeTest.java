package dev.ctk.junit;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Result;
import dev.ctk.controller.TimeSource;
import dev.ctk.controller.VirtualTime;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.TestScope;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import dev.ctk.harness.values.TestCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code @ControllerTest(virtualTime = true)}: the clock, the cluster's timestamps and its namespace controller's grace
 * period, injection.
 */
class VirtualTimeTest {

  @Test
  void should_reconcile_a_one_hour_requeue_only_once_the_virtual_clock_reached_it() {
    // WHEN
    var results = run(RequeuesHourly.class);
    // THEN
    assertAllPassed(results, 1);
  }

  @Test
  void should_stamp_created_objects_with_the_virtual_clock() {
    // WHEN
    var results = run(StampsObjects.class);
    // THEN
    assertAllPassed(results, 1);
  }

  @Test
  void should_hold_a_deleted_namespace_terminating_until_the_virtual_clock_passes_the_grace_period() {
    // WHEN
    var results = run(DeletesANamespace.class);
    // THEN
    assertAllPassed(results, 1);
  }

  @Test
  void should_inject_a_fresh_virtual_time_into_each_test() {
    // WHEN
    var results = run(InjectsVirtualTime.class);
    // THEN
    assertAllPassed(results, 2);
  }

  @Test
  void should_turn_virtual_time_on_from_the_builder_and_for_nested_classes() {
    // WHEN
    var results = run(java.util.List.of(FromBuilder.class, Inherited.class));
    // THEN
    assertAllPassed(results, 2);
  }

  @Test
  void should_run_on_real_time_by_default() {
    // WHEN
    var results = run(RealTime.class);
    // THEN
    assertAllPassed(results, 1);
  }

  @Test
  void should_refuse_to_inject_virtual_time_when_it_is_off() {
    // WHEN
    var results = run(AsksForVirtualTime.class);
    // THEN
    assertThat(onlyFailure(results)).isInstanceOf(ParameterResolutionException.class)
        .hasMessage("Cannot inject VirtualTime into method test(..) of "
            + AsksForVirtualTime.class.getName() + ": @ControllerTest on "
            + AsksForVirtualTime.class.getName() + " runs on real time. Fix: turn virtual time on "
            + "with @ControllerTest(virtualTime = true) (or ControllerTestExtension.builder()"
            + ".withVirtualTime()), or inject TimeSource, which is real time here.");
  }

  @Test
  void should_refuse_the_request_journal_in_a_real_mode() {
    // GIVEN
    ControllerHarness harness = TestScope.owning(new EnvtestStandIn()).harness();
    // WHEN, THEN
    assertThatThrownBy(harness::requests).isInstanceOf(IllegalStateException.class)
        .hasMessage("The request journal needs fake mode: this test runs in envtest mode against "
            + "kube-apiserver 1.33.0 at https://127.0.0.1:6443; run this test in fake mode "
            + "(@ControllerTest(mode = FAKE)) or drop the journal assertion.");
  }

  @Test
  void should_give_real_time_modes_a_virtual_time_for_the_controllers_only() {
    // GIVEN
    VirtualTime time = VirtualTime.create();
    ControllerHarness harness = TestScope.owning(new EnvtestStandIn(time)).harness();
    // THEN
    assertThat(harness.time()).isSameAs(time);
    assertThat(harness.virtualTime()).isSameAs(time);
  }

  static Controller hourly(ControllerHarness harness) {
    return Controller.builder("hourly")
        .watch(harness.client().configMaps().inNamespace("default").runnableInformer(0),
            EventHandlers.enqueueObject())
        .withReconciler(key -> Result.requeueAfter(ofHours(1)))
        .withTimeSource(harness.time())
        .build();
  }

  static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default")
        .endMetadata().build();
  }

  @Fixture
  @ControllerTest(virtualTime = true)
  static class RequeuesHourly {

    @Test
    void test(ControllerHarness harness, KubernetesClient client) {
      Controller controller = harness.start(hourly(harness));
      client.resource(configMap("web")).create();
      assertThat(controller).within(ofSeconds(10)).hasReconciledSuccessfully("default/web");

      harness.virtualTime().advance(ofMinutes(59));

      // advance runs every task that is due before it returns: had the requeue been due, the key
      // would be queued, in flight or reconciled now
      assertThat(controller.workQueue().stats().waitingKeys()).containsExactly("default/web");
      assertThat(controller).hasReconcileCount("default/web", 1);

      harness.virtualTime().advance(ofMinutes(1));

      assertThat(controller).within(ofSeconds(10)).hasReconcileCount("default/web", 2);
    }
  }

  @Fixture
  @ControllerTest(virtualTime = true)
  static class StampsObjects {

    @Test
    void test(KubernetesClient client, VirtualTime time) {
      ConfigMap first = client.resource(configMap("first")).create();
      time.advance(ofHours(1));
      ConfigMap second = client.resource(configMap("second")).create();

      assertThat(first.getMetadata().getCreationTimestamp()).isEqualTo("2030-01-01T00:00:00Z");
      assertThat(second.getMetadata().getCreationTimestamp())
          .isEqualTo(time.now().toString()).isEqualTo("2030-01-01T01:00:00Z");
    }
  }

  @Fixture
  @ControllerTest(virtualTime = true)
  static class DeletesANamespace {

    @Test
    void test(KubernetesClient client, VirtualTime time, FakeCluster cluster) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata()
          .build()).create();
      client.namespaces().withName("team").delete();
      cluster.awaitGarbageCollection(ofSeconds(5));
      assertThat(client.namespaces().withName("team").get().getStatus().getPhase()).isEqualTo("Terminating");

      time.advance(ofSeconds(5));
      cluster.awaitGarbageCollection(ofSeconds(5));

      assertThat(client.namespaces().withName("team").get()).isNull();
    }
  }

  @Fixture
  @ControllerTest(virtualTime = true)
  static class InjectsVirtualTime {

    @Test
    void first(VirtualTime time, TimeSource source, ControllerHarness harness) {
      check(time, source, harness);
    }

    @Test
    void second(VirtualTime time, TimeSource source, ControllerHarness harness) {
      check(time, source, harness);
    }

    /** Each test starts at zero: a time shared with the other test would show two hours. */
    private static void check(VirtualTime time, TimeSource source, ControllerHarness harness) {
      assertThat(source).isSameAs(time);
      assertThat(harness.time()).isSameAs(time);
      assertThat(harness.virtualTime()).isSameAs(time);
      assertThat(time.elapsed()).isZero();
      time.advance(ofHours(1));
      assertThat(time.elapsed()).isEqualTo(ofHours(1));
    }
  }

  @Fixture
  static class FromBuilder {

    @RegisterExtension
    static ControllerTestExtension ctk = ControllerTestExtension.builder().withVirtualTime().build();

    @Test
    void test(VirtualTime time, ControllerHarness harness) {
      assertThat(harness.time()).isSameAs(time);
      assertThat(time.now()).isEqualTo(VirtualTime.DEFAULT_START);
    }
  }

  @Fixture
  @ControllerTest(virtualTime = true)
  static class Inherited {

    @Nested
    @ControllerTest(isolation = Isolation.PER_METHOD)
    class Inner {

      @Test
      void test(VirtualTime time, FakeCluster cluster) {
        time.advance(ofHours(2));
        ConfigMap created = cluster.create(configMap("inner"));
        assertThat(created.getMetadata().getCreationTimestamp())
            .isEqualTo("2030-01-01T02:00:00Z");
      }
    }
  }

  @Fixture
  @ControllerTest
  static class RealTime {

    @Test
    void test(TimeSource time, ControllerHarness harness) {
      assertThat(time).isSameAs(TimeSource.system());
      assertThat(harness.time()).isSameAs(TimeSource.system());
      assertThatThrownBy(harness::virtualTime).isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("ControllerHarness.virtualTime() has no VirtualTime to return: "
              + "this test runs on real time (in fake mode, against ctk fake API server at http://")
          .hasMessageEndingWith("). Fix: turn virtual time on with "
              + "@ControllerTest(virtualTime = true) or ControllerTestExtension.builder()"
              + ".withVirtualTime(), or use time(), which works on either.");
    }
  }

  @Fixture
  @ControllerTest
  static class AsksForVirtualTime {

    @Test
    void test(VirtualTime time) {
      assertThat(time).isNotNull();
    }
  }

  /** A real mode's test cluster without a server: only what the harness reads. */
  private static final class EnvtestStandIn implements TestCluster {

    private final VirtualTime time;

    EnvtestStandIn() {
      this(null);
    }

    EnvtestStandIn(VirtualTime time) {
      this.time = time;
    }

    @Override
    public Mode mode() {
      return Mode.ENVTEST;
    }

    @Override
    public KubernetesClient client() {
      throw new UnsupportedOperationException("no client in this stand-in");
    }

    @Override
    public String namespace() {
      return "ctk-test-1";
    }

    @Override
    public String description() {
      return "kube-apiserver 1.33.0 at https://127.0.0.1:6443";
    }

    @Override
    public dev.ctk.fake.EventInjector events() {
      throw new UnsupportedOperationException("no events in this stand-in");
    }

    @Override
    public java.util.Optional<FakeCluster> fakeCluster() {
      return java.util.Optional.empty();
    }

    @Override
    public java.util.Optional<dev.ctk.envtest.ApiServer> apiServer() {
      return java.util.Optional.empty();
    }

    @Override
    public TimeSource time() {
      return time == null ? TimeSource.system() : time;
    }

    @Override
    public java.util.Optional<VirtualTime> virtualTime() {
      return java.util.Optional.ofNullable(time);
    }

    @Override
    public void close() {}
  }
}
