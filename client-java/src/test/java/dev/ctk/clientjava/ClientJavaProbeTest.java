package dev.ctk.clientjava;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofHours;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubernetes.client.extended.controller.Controller;
import io.kubernetes.client.extended.controller.builder.ControllerBuilder;
import io.kubernetes.client.extended.controller.reconciler.Reconciler;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.extended.controller.reconciler.Result;
import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;
import io.kubernetes.client.extended.workqueue.RateLimitingQueue;
import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A real client-java {@code DefaultController} (built by {@code ControllerBuilder}, one worker, a
 * {@code V1ConfigMap} informer) against ctk's fake, observed by a {@link ClientJavaProbe} attached in
 * two builder lines and run with {@code probe.start(harness, controller)}. The reconciler's
 * behaviour per ConfigMap is scripted by each test.
 */
@ControllerTest
class ClientJavaProbeTest {

  /** Reconciles per ConfigMap name, counted from 0. */
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void releaseBlockedReconciles() {
    release.countDown();
  }

  @Test
  void records_a_successful_reconcile_and_synced_informers(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN
    ClientJavaProbe probe = start(harness, (name, call) -> new Result(false));
    // WHEN
    client.resource(configMap("web")).create();
    // THEN
    assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
    assertThat(probe).hasSyncedCaches().hasReconcileCount("default/web", 1)
        .within(ofSeconds(5)).isIdle();
    assertThat(probe.caches()).extracting(c -> c.name(), c -> c.synced())
        .containsExactly(tuple("V1ConfigMap informer", true));
    assertThat(probe.reconcileLog().get(0).worker()).isEqualTo("scripted-1");
    assertThat(harness.views()).contains(probe);
  }

  @Test
  void records_a_rate_limited_requeue_and_the_retry(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN a reconciler that asks for a requeue once (client-java retries after 5ms)
    ClientJavaProbe probe = start(harness,
        (name, call) -> call == 0 ? new Result(true) : new Result(false));
    // WHEN
    client.resource(configMap("web")).create();
    // THEN
    assertThat(probe).within(ofSeconds(5)).hasReconcileCount("default/web", 2)
        .hasReconciledSuccessfully("default/web").hasRequeued("default/web");
    assertThat(probe.reconcileLog()).extracting(ReconcileRecord::attempt, ReconcileRecord::outcome)
        .containsExactly(tuple(0, ReconcileOutcome.REQUEUE), tuple(1, ReconcileOutcome.SUCCESS));
    assertThat(probe).workQueue().hasRetried(1);
  }

  @Test
  void records_a_requeue_after_and_shows_the_key_waiting(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN
    ClientJavaProbe probe = start(harness, (name, call) -> new Result(true, ofHours(1)));
    // WHEN
    client.resource(configMap("later")).create();
    // THEN
    assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully("default/later");
    assertThat(probe).workQueue().containsKey("default/later").hasDepth(0);
    ReconcileRecord record = probe.reconcileLog().get(0);
    assertThat(record.outcome()).isEqualTo(ReconcileOutcome.REQUEUE_AFTER);
    assertThat(record.requeueAfter()).isEqualTo(ofHours(1));
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).isIdle());
    assertThat(error).hasMessage("""

        Expecting Kubernetes Java client controller "scripted"
          to be idle (running, caches synced, work queue empty)
        but its work queue held 1 key:
          queued: []
          in flight: []
          waiting (delayed or backing off): [default/later]""");
  }

  @Test
  void records_exceptions_with_their_attempts_until_the_reconcile_succeeds(
      KubernetesClient client, ControllerHarness harness) {
    // GIVEN a reconciler that throws twice (client-java retries after 5ms, then 10ms)
    ClientJavaProbe probe = start(harness, (name, call) -> {
      if (call < 2) {
        throw new IllegalStateException("backend down (call " + call + ")");
      }
      return new Result(false);
    });
    // WHEN
    client.resource(configMap("flaky")).create();
    // THEN
    assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully("default/flaky")
        .hasFailedToReconcile("default/flaky", IllegalStateException.class)
        .hasFailedToReconcileWithMessageContaining("default/flaky", "backend down (call 1)");
    assertThat(probe.reconcileLog()).extracting(ReconcileRecord::attempt, ReconcileRecord::outcome)
        .containsExactly(tuple(0, ReconcileOutcome.ERROR), tuple(1, ReconcileOutcome.ERROR),
            tuple(2, ReconcileOutcome.SUCCESS));
    assertThat(probe).workQueue().hasRetried(2);
    assertThat(probe).within(ofSeconds(5)).isIdle();
    assertThat(probe.workQueue().stats().adds()).as("the create, then each retry once its backoff "
        + "passed").isEqualTo(3);
  }

  @Test
  void shows_events_for_a_key_in_flight_queued_once_and_reconciled_once_more(
      KubernetesClient client, ControllerHarness harness) throws InterruptedException {
    // GIVEN a reconcile of "slow" that blocks until released
    CountDownLatch blocked = new CountDownLatch(1);
    ClientJavaProbe probe = start(harness, (name, call) -> {
      if (call == 0) {
        blocked.countDown();
        block(release);
      }
      return new Result(false);
    });
    client.resource(configMap("slow")).create();
    assertThat(blocked.await(5, TimeUnit.SECONDS)).as("first reconcile of slow started").isTrue();
    // WHEN three updates arrive while it is in flight
    for (int i = 1; i <= 3; i++) {
      int version = i;
      client.configMaps().withName("slow").edit(cm -> new ConfigMapBuilder(cm)
          .addToData("version", String.valueOf(version)).build());
    }
    await("the informer's 3 update events reached the work queue").atMost(ofSeconds(5))
        .until(() -> probe.workQueue().stats().adds() == 4);
    // THEN client-java de-duplicates them into one queued key
    assertThat(probe).workQueue().hasDepth(1).containsKey("default/slow");
    assertThat(probe.workQueue().stats().inFlightKeys()).containsExactly("default/slow");
    release.countDown();
    assertThat(probe).within(ofSeconds(5)).hasReconcileCount("default/slow", 2)
        .hasReconciledSuccessfully("default/slow");
    assertThat(probe).within(ofSeconds(5)).isIdle();
    assertThat(probe).hasReconciledAtMost("default/slow", 2);
  }

  @Test
  void fails_hasSyncedCaches_for_informers_that_never_started(ControllerHarness harness) {
    // GIVEN a probe watching a factory that nobody starts
    SharedInformerFactory informers = new SharedInformerFactory(ApiClients.forHarness(harness));
    configMapInformer(informers, new CoreV1Api(ApiClients.forHarness(harness)), "default");
    ClientJavaProbe probe = ClientJavaProbe.create("idle").watch(informers);
    probe.rateLimitingQueue();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(probe).hasSyncedCaches());
    // THEN
    assertThat(error).hasMessage("""

        Expecting Kubernetes Java client controller "idle"
          to have synced its informer caches
        but 1 of 1 informer has not synced:
          V1ConfigMap informer: not synced (not running)
        the Kubernetes Java client controller is not running: start it with \
        ClientJavaProbe.start(harness, controller), or run() it on a thread after \
        SharedInformerFactory.startAllRegisteredInformers().""");
  }

  @Test
  void refuses_to_start_a_controller_that_does_not_use_the_probe(ControllerHarness harness) {
    // GIVEN
    ApiClient apiClient = ApiClients.forHarness(harness);
    SharedInformerFactory informers = new SharedInformerFactory(apiClient);
    configMapInformer(informers, new CoreV1Api(apiClient), "default");
    ClientJavaProbe probe = ClientJavaProbe.create("scripted").watch(informers);
    probe.rateLimitingQueue();
    RateLimitingQueue<Request> ownQueue = new DefaultRateLimitingQueue<>();
    Controller controller = ControllerBuilder.defaultBuilder(informers).withWorkQueue(ownQueue)
        .withReconciler(request -> new Result(false)).withName("scripted").build();
    harness.closeAfterTest(controller::shutdown);
    // WHEN / THEN
    assertThatThrownBy(() -> probe.start(harness, controller))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Kubernetes Java client controller \"scripted\" (DefaultController) does not "
            + "use the work queue of ClientJavaProbe \"scripted\" (it uses a "
            + "DefaultRateLimitingQueue). Attach it on the ControllerBuilder: "
            + ".withWorkQueue(probe.rateLimitingQueue()) before .watch(..), and "
            + ".withReconciler(probe.reconciler(reconciler)).");
    ClientJavaProbe unattached = ClientJavaProbe.create("unattached");
    assertThatThrownBy(() -> unattached.start(harness, controller))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("ClientJavaProbe \"unattached\" cannot observe Kubernetes Java client "
            + "controller \"scripted\" (DefaultController): the probe made no work queue and "
            + "wrapped no reconciler, so nothing would be recorded. Attach it on the "
            + "ControllerBuilder: .withWorkQueue(probe.rateLimitingQueue()) before .watch(..), and "
            + ".withReconciler(probe.reconciler(reconciler)).");
  }

  @Test
  void fails_fast_when_the_controller_gives_up_before_it_starts(ControllerHarness harness) {
    // GIVEN a controller whose ready function never holds, with a short ready timeout
    ApiClient apiClient = ApiClients.forHarness(harness);
    SharedInformerFactory informers = new SharedInformerFactory(apiClient);
    ClientJavaProbe probe = ClientJavaProbe.create("never-ready").watch(informers);
    Controller controller = ControllerBuilder.defaultBuilder(informers)
        .withWorkQueue(probe.rateLimitingQueue())
        .withReconciler(probe.reconciler(request -> new Result(false)))
        .withReadyFunc(() -> false).withReadyTimeout(ofMillis(200))
        .withName("never-ready").build();
    // WHEN
    IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
        () -> probe.start(harness, controller));
    // THEN
    assertThat(error).hasMessage("Kubernetes Java client controller \"never-ready\" "
        + "(DefaultController) stopped before it started: its run() returned before any worker "
        + "asked the work queue for a key.\n"
        + "  no informers watched\n"
        + "  work queue: no worker asked for a key yet\n"
        + "DefaultController.run() returns at once when its pre-flight check fails (worker count, "
        + "thread pool, or ready functions not true within its readyTimeout); client-java logs "
        + "which. Fix: see that log line.");
    assertThatThrownBy(() -> probe.start(harness, controller))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("ClientJavaProbe \"never-ready\" already started Kubernetes Java client "
            + "controller \"never-ready\" (DefaultController). Start one controller per probe, "
            + "once.");
  }

  /** A one-worker controller over the ConfigMaps of the test's namespace, started for the test. */
  private ClientJavaProbe start(ControllerHarness harness,
      BiFunction<String, Integer, Result> script) {
    ApiClient apiClient = ApiClients.forHarness(harness);
    SharedInformerFactory informers = new SharedInformerFactory(apiClient);
    SharedIndexInformer<V1ConfigMap> informer =
        configMapInformer(informers, new CoreV1Api(apiClient), harness.namespace());
    ClientJavaProbe probe = ClientJavaProbe.create("scripted").watch(informers);
    Reconciler reconciler = request -> script.apply(request.getName(),
        calls.computeIfAbsent(request.getName(), name -> new AtomicInteger()).getAndIncrement());
    Controller controller = configMapController(informers, informer, probe.rateLimitingQueue(
            new ItemExponentialFailureRateLimiter<>(ofMillis(5), ofHours(1))),
        probe.reconciler(reconciler), 1, "scripted");
    probe.start(harness, controller);
    return probe;
  }

  /** A controller of ConfigMaps on {@code queue}, ready once {@code informer} has synced. */
  static Controller configMapController(SharedInformerFactory informers,
      SharedIndexInformer<V1ConfigMap> informer, RateLimitingQueue<Request> queue, Reconciler reconciler,
      int workers, String name) {
    return ControllerBuilder.defaultBuilder(informers)
        .withWorkQueue(queue)
        .watch(q -> ControllerBuilder.controllerWatchBuilder(V1ConfigMap.class, q).build())
        .withReconciler(reconciler)
        .withReadyFunc(informer::hasSynced)
        .withWorkerCount(workers)
        .withName(name)
        .build();
  }

  static SharedIndexInformer<V1ConfigMap> configMapInformer(SharedInformerFactory informers,
      CoreV1Api core, String namespace) {
    return informers.sharedIndexInformerFor(params -> core.listNamespacedConfigMap(namespace)
            .resourceVersion(params.resourceVersion).timeoutSeconds(params.timeoutSeconds)
            .watch(params.watch).buildCall(null),
        V1ConfigMap.class, V1ConfigMapList.class);
  }

  private static io.fabric8.kubernetes.api.model.ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata()
        .addToData("version", "0").build();
  }

  private static void block(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test did not release the reconcile within 30s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
