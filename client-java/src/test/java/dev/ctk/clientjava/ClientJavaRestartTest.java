package dev.ctk.clientjava;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.RestartableProcess;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubernetes.client.extended.controller.ControllerManager;
import io.kubernetes.client.extended.controller.DefaultController;
import io.kubernetes.client.extended.controller.reconciler.Reconciler;
import io.kubernetes.client.extended.controller.reconciler.Result;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ClientJavaProbe#startRestartable}: a client-java controller stopped and built afresh, also when it is
 * stopped before all its workers started (client-java's {@code DefaultController.run()} then waited for them for
 * ever; ctk used to wait out its 10 s stop timeout and interrupt it).
 */
@ControllerTest
class ClientJavaRestartTest {

  @ParameterizedTest(name = "run as {0}")
  @ValueSource(strings = {"DefaultController", "ControllerManager"})
  void restarts_at_once_a_controller_whose_second_worker_had_not_started(String runAs, KubernetesClient client,
      ControllerHarness harness) throws InterruptedException {
    // GIVEN a two-worker controller whose first instance's second worker thread starts only once its pool is shut
    // down, and whose first worker is in a reconcile of "web" until then
    List<ScheduledThreadPoolExecutor> pools = new CopyOnWriteArrayList<>();
    RestartableProcess process = ClientJavaProbe.startRestartable(harness, "late-worker", (apiClient, probe) -> {
      SharedInformerFactory informers = new SharedInformerFactory(apiClient);
      ScheduledThreadPoolExecutor pool = pools.isEmpty() ? secondWorkerStartsAtShutdown()
          : new ScheduledThreadPoolExecutor(2);
      pools.add(pool);
      Reconciler reconciler = request -> {
        if (pools.get(0) == pool && request.getName().equals("web")) {
          awaitShutdown(pool);
        }
        return new Result(false);
      };
      DefaultController controller = twoWorkers(apiClient, informers, probe, reconciler, harness.namespace());
      controller.setWorkerThreadPool(pool);
      return runAs.equals("ControllerManager") ? new ControllerManager(informers, controller) : controller;
    });
    client.resource(configMap("web")).create();
    await("a reconcile of web in flight").atMost(ofSeconds(5))
        .until(() -> !process.controller("late-worker").runningReconciles().isEmpty());
    // WHEN
    assertTimeoutPreemptively(ofSeconds(5), () -> process.restart(),
        "the restart waited for the first instance's run() to return");
    // THEN the first instance's run() returned and its pool's threads ended; the second instance works
    assertThat(pools.get(0).awaitTermination(5, TimeUnit.SECONDS)).as("first instance's pool terminated").isTrue();
    assertThat(process.instance()).isEqualTo(2);
    client.resource(configMap("other")).create();
    assertThat(process.controller("late-worker")).within(ofSeconds(5))
        .hasReconciledSuccessfully(harness.namespace() + "/web")
        .hasReconciledSuccessfully(harness.namespace() + "/other");
  }

  private static DefaultController twoWorkers(ApiClient apiClient, SharedInformerFactory informers,
      ClientJavaProbe probe, Reconciler reconciler, String namespace) {
    SharedIndexInformer<V1ConfigMap> informer =
        ClientJavaProbeTest.configMapInformer(informers, new CoreV1Api(apiClient), namespace);
    probe.watch(informers);
    return (DefaultController) ClientJavaProbeTest.configMapController(informers, informer,
        probe.rateLimitingQueue(), probe.reconciler(reconciler), 2, "late-worker");
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build();
  }

  /** Waits (at most 30 s) until the pool is shut down. */
  private static void awaitShutdown(ScheduledThreadPoolExecutor pool) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!pool.isShutdown() && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  /**
   * A pool for two workers whose second thread runs only once the pool is shut down: the second worker's task is
   * still queued when the controller shuts down, as on a machine too busy to start it in time.
   */
  private static ScheduledThreadPoolExecutor secondWorkerStartsAtShutdown() {
    AtomicReference<ScheduledThreadPoolExecutor> self = new AtomicReference<>();
    AtomicInteger threads = new AtomicInteger();
    ThreadFactory factory = worker -> {
      int number = threads.incrementAndGet();
      Thread thread = new Thread(() -> {
        if (number == 2) {
          awaitShutdown(self.get());
        }
        worker.run();
      }, "late-worker-" + number);
      thread.setDaemon(true);
      return thread;
    };
    ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(2, factory);
    self.set(pool);
    return pool;
  }
}
