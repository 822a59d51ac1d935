package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.values.Isolation;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * JUnit's parallel execution: methods and classes run at the same time. Each fixture waits on a
 * latch that only opens when its siblings run concurrently (bounded, so a sequential run fails
 * instead of hanging).
 */
class ParallelExecutionTest {

  private static final String[] PARALLEL = {
      "junit.jupiter.execution.parallel.enabled", "true",
      "junit.jupiter.execution.parallel.mode.default", "concurrent",
      "junit.jupiter.execution.parallel.mode.classes.default", "concurrent",
      "junit.jupiter.execution.parallel.config.strategy", "fixed",
      "junit.jupiter.execution.parallel.config.fixed.parallelism", "8",
      "junit.jupiter.execution.parallel.config.fixed.max-pool-size", "8"};

  static volatile CountDownLatch classesStarted;
  static volatile CountDownLatch perMethodTestsStarted;
  static volatile CountDownLatch perClassTestsCreated;
  static volatile CountDownLatch nestedClassesStarted;
  static final AtomicInteger CLUSTERS_STARTED = new AtomicInteger();
  static final Map<String, FakeCluster> NESTED_CLUSTERS = new ConcurrentHashMap<>();

  @Test
  void should_run_concurrent_methods_and_classes_each_with_the_right_cluster() {
    // GIVEN
    classesStarted = new CountDownLatch(2);
    perMethodTestsStarted = new CountDownLatch(3);
    perClassTestsCreated = new CountDownLatch(3);
    // WHEN
    var results = run(List.of(ConcurrentPerMethod.class, ConcurrentPerClass.class), PARALLEL);
    // THEN
    assertAllPassed(results, 6);
  }

  @Test
  void should_share_one_lazily_started_cluster_among_parallel_nested_classes_of_a_per_class_class() {
    // GIVEN
    nestedClassesStarted = new CountDownLatch(3);
    CLUSTERS_STARTED.set(0);
    NESTED_CLUSTERS.clear();
    // WHEN
    var results = run(List.of(ConcurrentNestedClasses.class), PARALLEL);
    // THEN one cluster was started, and every nested test got it
    assertAllPassed(results, 3);
    assertThat(CLUSTERS_STARTED.get()).isEqualTo(1);
    assertThat(NESTED_CLUSTERS).hasSize(3);
    assertThat(Set.copyOf(NESTED_CLUSTERS.values())).hasSize(1);
  }

  static void await(CountDownLatch latch, String what) throws InterruptedException {
    assertThat(latch.await(30, TimeUnit.SECONDS)).as(what).isTrue();
  }

  /** Each test creates the same name: in a shared cluster the second create would get 409. */
  @Fixture
  @ControllerTest
  static class ConcurrentPerMethod {

    @BeforeAll
    static void bothClassesRunAtOnce() throws InterruptedException {
      classesStarted.countDown();
      await(classesStarted, "both fixture classes started at the same time");
    }

    @Test
    void one(KubernetesClient client) throws InterruptedException {
      createAlone(client);
    }

    @Test
    void two(KubernetesClient client) throws InterruptedException {
      createAlone(client);
    }

    @Test
    void three(KubernetesClient client) throws InterruptedException {
      createAlone(client);
    }

    private static void createAlone(KubernetesClient client) throws InterruptedException {
      perMethodTestsStarted.countDown();
      await(perMethodTestsStarted, "the three per-method tests ran at the same time");
      client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
          .withNewMetadata().withName("same-name").endMetadata().build()).create();
      assertThat(client.configMaps().inNamespace("default").list().getItems()).hasSize(1);
    }
  }

  /** Each test creates its own name in the shared cluster, then sees all three. */
  @Fixture
  @ControllerTest(isolation = Isolation.PER_CLASS)
  static class ConcurrentPerClass {

    @BeforeAll
    static void bothClassesRunAtOnce() throws InterruptedException {
      classesStarted.countDown();
      await(classesStarted, "both fixture classes started at the same time");
    }

    @Test
    void one(KubernetesClient client) throws InterruptedException {
      createAndSeeAll(client, "one");
    }

    @Test
    void two(KubernetesClient client) throws InterruptedException {
      createAndSeeAll(client, "two");
    }

    @Test
    void three(KubernetesClient client) throws InterruptedException {
      createAndSeeAll(client, "three");
    }

    private static void createAndSeeAll(KubernetesClient client, String name)
        throws InterruptedException {
      client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
          .withNewMetadata().withName(name).endMetadata().build()).create();
      perClassTestsCreated.countDown();
      await(perClassTestsCreated, "the three per-class tests ran at the same time");
      assertThat(client.configMaps().inNamespace("default").list().getItems()).hasSize(3);
    }
  }

  /**
   * Three @Nested classes run at the same time under a per-class outer class that has no test of its
   * own; they all ask for the cluster at once (each waits until its siblings have started).
   */
  @Fixture
  static class ConcurrentNestedClasses {

    @RegisterExtension
    static final ControllerTestExtension CTK = ControllerTestExtension.builder()
        .withIsolation(Isolation.PER_CLASS)
        .withClusterCustomizer(cluster -> {
          CLUSTERS_STARTED.incrementAndGet();
          return cluster;
        })
        .build();

    static void record(String test, FakeCluster cluster) throws InterruptedException {
      nestedClassesStarted.countDown();
      await(nestedClassesStarted, "the three nested classes ran at the same time");
      NESTED_CLUSTERS.put(test, cluster);
    }

    @Nested
    class A {

      @Test
      void a(FakeCluster cluster) throws InterruptedException {
        record("a", cluster);
      }
    }

    @Nested
    class B {

      @Test
      void b(FakeCluster cluster) throws InterruptedException {
        record("b", cluster);
      }
    }

    @Nested
    class C {

      @Test
      void c(FakeCluster cluster) throws InterruptedException {
        record("c", cluster);
      }
    }
  }
}
