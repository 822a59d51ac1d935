package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Controllers over real fabric8 informers, listing and watching fabric8's mock API server. */
class ControllerTest {

  private static final String NS = "test";
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
  private final List<Controller> controllers = new ArrayList<>();
  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void startServer() {
    server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(),
        responses, new KubernetesMixedDispatcher(responses), false);
    server.init();
    client = server.createClient();
  }

  @AfterEach
  void stopEverything() {
    controllers.forEach(Controller::close);
    client.close();
    server.destroy();
  }

  @Test
  void reconciles_existing_and_created_objects() {
    createConfigMap("existing", Map.of());
    Controller controller = start(Controller.builder("cm")
        .watch(configMapInformer(), EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done()));

    createConfigMap("created", Map.of());

    awaitReconciled(controller, "test/existing", "test/created");
    assertThat(controller.reconcileLog()).allSatisfy(r -> {
      assertThat(r.outcome()).isEqualTo(ReconcileOutcome.SUCCESS);
      assertThat(r.worker()).isEqualTo("ctk-cm-worker-1");
      assertThat(r.attempt()).isZero();
      assertThat(r.error()).isNull();
      assertThat(r.duration().isNegative()).isFalse();
    });
    assertThat(controller.hasSynced()).isTrue();
  }

  @Test
  void a_deleted_object_is_reconciled_once_more() {
    createConfigMap("doomed", Map.of());
    SharedIndexInformer<ConfigMap> informer = configMapInformer();
    List<Boolean> presentInCache = new CopyOnWriteArrayList<>();
    Controller controller = start(Controller.builder("cm")
        .watch(informer, EventHandlers.enqueueObject())
        .withReconciler(key -> {
          presentInCache.add(informer.getStore().getByKey(key.toString()) != null);
          return Result.done();
        }));
    awaitReconciled(controller, "test/doomed");

    client.configMaps().inNamespace(NS).withName("doomed").delete();

    await("the delete is reconciled").atMost(WAIT).until(() -> presentInCache.size() == 2);
    assertThat(presentInCache).containsExactly(true, false);
  }

  @Test
  void generationChanged_drops_a_status_only_update() {
    client.apps().deployments().inNamespace(NS).resource(deployment(1)).create();
    List<String> passedFilter = new CopyOnWriteArrayList<>();
    List<String> unfiltered = new CopyOnWriteArrayList<>();
    start(Controller.builder("filtered")
        .watch(deploymentInformer(), recording(passedFilter), EventPredicate.generationChanged())
        .withReconciler(key -> Result.done()));
    start(Controller.builder("unfiltered")
        .watch(deploymentInformer(), recording(unfiltered))
        .withReconciler(key -> Result.done()));

    Deployment withStatus = client.apps().deployments().inNamespace(NS).withName("web").get();
    withStatus.setStatus(new DeploymentStatusBuilder().withReadyReplicas(1).build());
    client.apps().deployments().inNamespace(NS).resource(withStatus).updateStatus();
    client.apps().deployments().inNamespace(NS).withName("web")
        .edit(d -> new DeploymentBuilder(d).editSpec().withReplicas(2).endSpec().build());

    // events reach a handler in order, so once the spec change arrived, the status update did too
    await("both handlers see the spec change").atMost(WAIT)
        .until(() -> passedFilter.contains("generation 2, 1 ready")
            && unfiltered.contains("generation 2, 1 ready"));
    assertThat(unfiltered).as("objects of create, status update (old, new), spec change (old, new)")
        .containsExactly("generation 1", "generation 1", "generation 1, 1 ready",
            "generation 1, 1 ready", "generation 2, 1 ready");
    assertThat(passedFilter).as("objects of create and spec change (old, new)")
        .containsExactly("generation 1", "generation 1, 1 ready", "generation 2, 1 ready");
  }

  /** Queues the object and records, per object it maps, its generation and ready replicas. */
  private static EventHandler<Deployment> recording(List<String> seen) {
    return deployment -> {
      Integer ready = deployment.getStatus() == null ? null
          : deployment.getStatus().getReadyReplicas();
      seen.add("generation " + deployment.getMetadata().getGeneration()
          + (ready == null ? "" : ", " + ready + " ready"));
      return List.of(ObjectKey.of(deployment));
    };
  }

  @Test
  void enqueueOwner_reconciles_the_owner_and_on_update_both_old_and_new_owners() {
    Controller controller = start(Controller.builder("owner")
        .watch(configMapInformer(), EventHandlers.enqueueOwner("apps", "Deployment", true))
        .withReconciler(key -> Result.done()));

    client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder()
        .withNewMetadata().withName("web-config")
        .withOwnerReferences(deploymentOwner("web")).endMetadata().build()).create();
    awaitReconciled(controller, "test/web");

    client.configMaps().inNamespace(NS).withName("web-config").edit(cm -> new ConfigMapBuilder(cm)
        .editMetadata().withOwnerReferences(deploymentOwner("api")).endMetadata().build());

    await("both owners are reconciled after the update").atMost(WAIT)
        .until(() -> controller.stats().reconcilesPerKey().keySet().containsAll(
            List.of(ObjectKey.parse("test/web"), ObjectKey.parse("test/api")))
            && controller.stats().reconcilesPerKey().get(ObjectKey.parse("test/web")) == 2);
    assertThat(controller.stats().reconcilesPerKey().keySet())
        .containsExactly(ObjectKey.parse("test/web"), ObjectKey.parse("test/api"));
  }

  @Test
  void enqueueMapped_reconciles_the_keys_of_the_function() {
    Controller controller = start(Controller.builder("mapped")
        .watch(configMapInformer(), EventHandlers.enqueueMapped(cm -> List.of(
            ObjectKey.of(null, cm.getMetadata().getLabels().get("node")))))
        .withReconciler(key -> Result.done()));

    createConfigMap("a", Map.of("node", "node-1"));

    awaitReconciled(controller, "node-1");
  }

  @Test
  void a_failing_event_handler_drops_only_its_event() {
    Controller controller = start(Controller.builder("mapped")
        .watch(configMapInformer(), EventHandlers.enqueueMapped(cm -> {
          if (cm.getMetadata().getName().equals("bad")) {
            throw new IllegalStateException("mapper bug");
          }
          return List.of(ObjectKey.of(cm));
        }))
        .withReconciler(key -> Result.done()));

    createConfigMap("bad", Map.of());
    createConfigMap("good", Map.of());

    awaitReconciled(controller, "test/good");
    assertThat(controller.stats().reconcilesPerKey()).containsOnlyKeys(ObjectKey.parse("test/good"));
  }

  @Test
  void a_failing_reconcile_is_retried_with_backoff_on_the_time_source() {
    ManualTimeSource time = new ManualTimeSource();
    AtomicInteger calls = new AtomicInteger();
    Controller controller = start(Controller.builder("flaky")
        .watch(configMapInformer(), EventHandlers.enqueueObject())
        .withTimeSource(time)
        .withReconciler(key -> {
          if (calls.incrementAndGet() <= 3) {
            throw new IOException("backend down (call " + calls.get() + ")");
          }
          return Result.done();
        }));
    createConfigMap("a", Map.of());

    List<Duration> backoffs = List.of(Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(20));
    for (int i = 0; i < backoffs.size(); i++) {
      // count by the loop, not by calls: the attempt the last advance released may already run
      int reconciles = i + 1;
      Duration backoff = backoffs.get(i);
      await("reconcile " + reconciles).atMost(WAIT).until(() -> controller.reconcileLog().size()
          == reconciles && controller.workQueue().stats().waitingKeys().equals(List.of("test/a")));
      time.advance(backoff.minusNanos(1));
      assertThat(controller.workQueue().stats().waitingKeys())
          .as("still backing off before %s", backoff).containsExactly("test/a");
      time.advance(Duration.ofNanos(1));
    }
    await("the fourth attempt succeeds").atMost(WAIT)
        .until(() -> controller.reconcileLog().size() == 4);

    List<ReconcileRecord> log = controller.reconcileLog();
    assertThat(log).extracting(ReconcileRecord::sequence).containsExactly(1L, 2L, 3L, 4L);
    assertThat(log).extracting(ReconcileRecord::attempt).containsExactly(0, 1, 2, 3);
    assertThat(log).extracting(ReconcileRecord::outcome).containsExactly(ReconcileOutcome.ERROR,
        ReconcileOutcome.ERROR, ReconcileOutcome.ERROR, ReconcileOutcome.SUCCESS);
    assertThat(log).extracting(r -> r.error() == null ? null : r.error().getMessage())
        .containsExactly("backend down (call 1)", "backend down (call 2)", "backend down (call 3)",
            null);
    assertThat(log).extracting(ReconcileRecord::start).containsExactly(ManualTimeSource.EPOCH,
        ManualTimeSource.EPOCH.plusMillis(5), ManualTimeSource.EPOCH.plusMillis(15),
        ManualTimeSource.EPOCH.plusMillis(35));
    assertThat(log.get(2).summary())
        .isEqualTo("#3 test/a ERROR (attempt 2): java.io.IOException: backend down (call 3)");
    assertThat(controller.reconcileLog(ObjectKey.parse("test/a"))).isEqualTo(log);
    assertThat(controller.reconcileLog(ObjectKey.parse("test/b"))).isEmpty();
    assertThat(controller.workQueue().numRequeues(ObjectKey.parse("test/a")))
        .as("success forgets the backoff").isZero();
    ControllerStats stats = controller.stats();
    assertThat(List.of(stats.reconciles(), stats.successes(), stats.errors(), stats.requeues()))
        .containsExactly(4L, 1L, 3L, 0L);
    assertThat(stats.queue().retries()).isEqualTo(3);
  }

  @Test
  void a_failing_reconcile_is_retried_in_real_time_by_default() {
    AtomicInteger calls = new AtomicInteger();
    Controller controller = start(Controller.builder("flaky")
        .watch(configMapInformer(), EventHandlers.enqueueObject())
        .withReconciler(key -> {
          if (calls.incrementAndGet() <= 2) {
            throw new IllegalStateException("not yet");
          }
          return Result.done();
        }));

    createConfigMap("a", Map.of());

    await("the third attempt succeeds").atMost(WAIT)
        .until(() -> controller.reconcileLog().size() == 3);
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::attempt)
        .containsExactly(0, 1, 2);
  }

  @Test
  void requeueAfter_reconciles_again_after_the_delay_without_backoff() {
    ManualTimeSource time = new ManualTimeSource();
    AtomicInteger calls = new AtomicInteger();
    Controller controller = start(Controller.builder("poller")
        .watch(configMapInformer(), EventHandlers.enqueueObject())
        .withTimeSource(time)
        .withReconciler(key -> calls.incrementAndGet() == 1
            ? Result.requeueAfter(Duration.ofHours(1))
            : Result.done()));
    createConfigMap("a", Map.of());
    await("the first reconcile").atMost(WAIT).until(() -> controller.reconcileLog().size() == 1
        && controller.workQueue().stats().inFlightKeys().isEmpty());

    time.advance(Duration.ofHours(1).minusNanos(1));
    assertThat(controller.workQueue().stats().waitingKeys()).containsExactly("test/a");
    time.advance(Duration.ofNanos(1));

    await("the second reconcile, an hour later").atMost(WAIT)
        .until(() -> controller.reconcileLog().size() == 2);
    List<ReconcileRecord> log = controller.reconcileLog();
    assertThat(log.get(0).outcome()).isEqualTo(ReconcileOutcome.REQUEUE_AFTER);
    assertThat(log.get(0).requeueAfter()).isEqualTo(Duration.ofHours(1));
    assertThat(log.get(1).outcome()).isEqualTo(ReconcileOutcome.SUCCESS);
    assertThat(log.get(1).attempt()).as("requeueAfter does not count as a retry").isZero();
    assertThat(log.get(1).start()).isEqualTo(ManualTimeSource.EPOCH.plus(Duration.ofHours(1)));
    assertThat(controller.stats().requeues()).isEqualTo(1);
  }

  @Test
  void requeue_retries_with_the_rate_limiter() {
    AtomicInteger calls = new AtomicInteger();
    Controller controller = start(Controller.builder("requeuer")
        .watch(configMapInformer(), EventHandlers.enqueueObject())
        .withRateLimiter(RateLimiter.exponential(Duration.ofMillis(1), Duration.ofMillis(10)))
        .withReconciler(key -> calls.incrementAndGet() < 3 ? Result.requeue() : Result.done()));

    createConfigMap("a", Map.of());

    await("three reconciles").atMost(WAIT).until(() -> controller.reconcileLog().size() == 3);
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::outcome).containsExactly(
        ReconcileOutcome.REQUEUE, ReconcileOutcome.REQUEUE, ReconcileOutcome.SUCCESS);
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::attempt)
        .containsExactly(0, 1, 2);
  }

  @Test
  void a_reconciler_returning_null_is_an_error() {
    AtomicInteger calls = new AtomicInteger();
    Controller controller = start(Controller.builder("sloppy")
        .watch(configMapInformer(), EventHandlers.enqueueObject())
        .withReconciler(key -> calls.incrementAndGet() == 1 ? null : Result.done()));

    createConfigMap("a", Map.of());

    await("the retry succeeds").atMost(WAIT).until(() -> controller.reconcileLog().size() == 2);
    ReconcileRecord first = controller.reconcileLog().get(0);
    assertThat(first.outcome()).isEqualTo(ReconcileOutcome.ERROR);
    assertThat(first.error()).isInstanceOf(NullPointerException.class)
        .hasMessage("The reconciler of controller \"sloppy\" returned null for test/a. Return "
            + "Result.done(), Result.requeue() or Result.requeueAfter(..).");
  }

  @Test
  void listeners_and_stats_report_every_reconcile_and_the_log_stays_bounded() {
    List<String> events = new CopyOnWriteArrayList<>();
    Controller controller = start(Controller.builder("cm")
        .watch(configMapInformer(), EventHandlers.enqueueObject())
        .withReconcileLogLimit(2)
        .addReconcileListener(new ReconcileListener() {
          @Override
          public void onReconcileStart(ObjectKey key, String worker) {
            events.add("start " + key + " on " + worker);
          }

          @Override
          public void onReconcileEnd(ReconcileRecord record) {
            events.add("end " + record.summary());
          }
        })
        .withReconciler(key -> Result.done()));

    for (String name : List.of("a", "b", "c")) {
      createConfigMap(name, Map.of());
      awaitReconciled(controller, NS + "/" + name);
    }

    // awaitReconciled waits until the key is no longer in flight; listeners run before that
    assertThat(events).containsExactly("start test/a on ctk-cm-worker-1", "end #1 test/a SUCCESS",
        "start test/b on ctk-cm-worker-1", "end #2 test/b SUCCESS",
        "start test/c on ctk-cm-worker-1", "end #3 test/c SUCCESS");
    assertThat(controller.reconcileLog()).extracting(ReconcileRecord::sequence)
        .containsExactly(2L, 3L);
    ControllerStats stats = controller.stats();
    assertThat(stats.name()).isEqualTo("cm");
    assertThat(stats.synced()).isTrue();
    assertThat(stats.droppedLogRecords()).isEqualTo(1);
    assertThat(stats.reconciles()).isEqualTo(3);
    assertThat(stats.reconcilesPerKey()).containsExactly(Map.entry(ObjectKey.parse("test/a"), 1L),
        Map.entry(ObjectKey.parse("test/b"), 1L), Map.entry(ObjectKey.parse("test/c"), 1L));
    assertThat(stats.lastReconcilePerKey().get(ObjectKey.parse("test/a")).sequence()).isEqualTo(1);
    assertThat(stats.queue().name()).isEqualTo("cm");
  }

  @Test
  void start_fails_at_once_when_the_api_server_forbids_the_list() {
    server.expect().get().withPath("/api/v1/namespaces/test/secrets?resourceVersion=0")
        .andReturn(403, new StatusBuilder().withStatus("Failure").withCode(403)
            .withReason("Forbidden").withMessage("secrets is forbidden: User \"system:serviceaccount:"
                + "test:cm\" cannot list resource \"secrets\" in API group \"\" in the namespace "
                + "\"test\"").build())
        .always();
    Controller controller = track(Controller.builder("secrets")
        .watch(client.secrets().inNamespace(NS).runnableInformer(0),
            EventHandlers.<Secret>enqueueObject())
        .withReconciler(key -> Result.done())
        .build());

    assertThatThrownBy(controller::start)
        .isInstanceOf(CacheSyncTimeoutException.class)
        .hasCauseInstanceOf(KubernetesClientException.class)
        .hasMessage("Controller \"secrets\" could not start: informer caches did not sync, because "
            + "an informer failed to start.\n"
            + "  Secret informer: failed to start: 403 Forbidden: secrets is forbidden: User "
            + "\"system:serviceaccount:test:cm\" cannot list resource \"secrets\" in API group \"\" "
            + "in the namespace \"test\"\n"
            + "Fix: check that the API server is reachable and that the controller may list and "
            + "watch these kinds, or raise withCacheSyncTimeout(..).");
  }

  @Test
  void close_leaves_no_ctk_thread_and_keeps_an_informer_it_did_not_start() {
    SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(NS).inform();
    Controller controller = start(Controller.builder("closer")
        .watch(informer, EventHandlers.enqueueObject())
        .withWorkers(3)
        .withReconciler(key -> Result.requeueAfter(Duration.ofHours(1))));
    createConfigMap("a", Map.of());
    await("a key waits on a timer").atMost(WAIT)
        .until(() -> !controller.workQueue().stats().waitingKeys().isEmpty());
    assertThat(ctkThreads()).as("ctk threads while running")
        .contains("ctk-closer-worker-1", "ctk-closer-worker-2", "ctk-closer-worker-3")
        .anyMatch(name -> name.startsWith("ctk-timer-"));

    controller.close();

    assertThat(controller.isRunning()).isFalse();
    assertThat(informer.isRunning()).as("the informer was started by the test").isTrue();
    await("no ctk thread remains after close").atMost(WAIT)
        .untilAsserted(() -> assertThat(ctkThreads()).isEmpty());
    informer.close();
  }

  private static List<String> ctkThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
        .map(Thread::getName).filter(name -> name.startsWith("ctk-")).sorted().toList();
  }

  private SharedIndexInformer<ConfigMap> configMapInformer() {
    return client.configMaps().inNamespace(NS).runnableInformer(0);
  }

  private SharedIndexInformer<Deployment> deploymentInformer() {
    return client.apps().deployments().inNamespace(NS).runnableInformer(0);
  }

  /**
   * Starts the controller, then waits until every informer watches: fabric8 marks an informer synced
   * before its watch is open, and the mock server's watch does not resume from a resourceVersion, so
   * a write made in between would never reach the informer.
   */
  private Controller start(Controller.Builder builder) {
    Controller controller = track(builder.build()).start();
    await("the informers of controller \"" + controller.name() + "\" watch").atMost(WAIT)
        .until(() -> controller.informers().stream().allMatch(SharedIndexInformer::isWatching));
    return controller;
  }

  private Controller track(Controller controller) {
    controllers.add(controller);
    return controller;
  }

  private void createConfigMap(String name, Map<String, String> labels) {
    client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder()
        .withNewMetadata().withName(name).withLabels(labels).endMetadata()
        .addToData("key", "value").build()).create();
  }

  private static Deployment deployment(int replicas) {
    return new DeploymentBuilder()
        .withNewMetadata().withName("web").endMetadata()
        .withNewSpec().withReplicas(replicas)
        .withNewSelector().addToMatchLabels("app", "web").endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
        .withNewSpec().addNewContainer().withName("web").withImage("nginx").endContainer()
        .endSpec().endTemplate().endSpec()
        .build();
  }

  private static OwnerReference deploymentOwner(String name) {
    return new OwnerReferenceBuilder().withApiVersion("apps/v1").withKind("Deployment")
        .withName(name).withUid(name + "-uid").withController(true).build();
  }

  /** Waits until every key was reconciled and is no longer in flight (listeners were told). */
  private static void awaitReconciled(Controller controller, String... keys) {
    List<ObjectKey> expected = Arrays.stream(keys).map(ObjectKey::parse).toList();
    await("controller \"" + controller.name() + "\" reconciles " + expected).atMost(WAIT)
        .until(() -> controller.stats().lastReconcilePerKey().keySet().containsAll(expected)
            && controller.workQueue().stats().inFlightKeys().stream().noneMatch(
                key -> expected.contains(ObjectKey.parse(key))));
  }
}
