package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Requeues and resyncs of a controller driven by {@link VirtualTime}, over fabric8's mock server. */
class ControllerResyncTest {

  private static final String NS = "test";
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final ObjectKey WEB = ObjectKey.parse("test/web");
  private static final Instant START = VirtualTime.DEFAULT_START;

  private final Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
  private final List<Controller> controllers = new ArrayList<>();
  private final VirtualTime time = VirtualTime.create();
  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void startServer() {
    server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(),
        responses, new KubernetesMixedDispatcher(responses), false);
    server.init();
    client = server.createClient();
    client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder()
        .withNewMetadata().withName("web").endMetadata().addToData("key", "value").build()).create();
  }

  @AfterEach
  void stopEverything() {
    controllers.forEach(Controller::close);
    client.close();
    server.destroy();
  }

  @Test
  void a_one_hour_requeue_after_runs_on_advance_and_not_before() {
    Controller controller = start(Controller.builder("requeue")
        .watch(configMaps(), EventHandlers.enqueueObject())
        .withTimeSource(time)
        .withReconciler(key -> time.elapsed().isZero()
            ? Result.requeueAfter(Duration.ofHours(1)) : Result.done()));
    await("the first reconcile to requeue test/web after 1h").atMost(WAIT)
        .until(() -> controller.workQueue().stats().waitingKeys().contains("test/web"));

    time.advance(Duration.ofMinutes(59).plusSeconds(59));

    assertThat(controller.reconcileLog(WEB)).hasSize(1);
    assertThat(controller.workQueue().stats().waitingKeys()).containsExactly("test/web");
    assertThat(controller.workQueue().stats().queuedKeys()).isEmpty();

    time.advance(Duration.ofSeconds(1));

    await("the requeued key to be reconciled again").atMost(WAIT)
        .until(() -> controller.reconcileLog(WEB).size() == 2);
    assertThat(controller.reconcileLog(WEB)).extracting(ReconcileRecord::start)
        .containsExactly(START, START.plus(Duration.ofHours(1)));
  }

  @Test
  void a_one_hour_resync_delivers_cached_objects_as_equal_updates_on_advance_and_not_before() {
    List<String> resyncs = new CopyOnWriteArrayList<>();
    EventPredicate<ConfigMap> recordUpdates = new EventPredicate<>() {
      @Override
      public boolean onUpdate(ConfigMap oldObject, ConfigMap newObject) {
        resyncs.add(newObject.getMetadata().getName() + (oldObject == newObject ? " same" : " new"));
        return true;
      }
    };
    Controller controller = start(Controller.builder("resync")
        .watch(configMaps(), EventHandlers.enqueueObject(), recordUpdates)
        .withTimeSource(time)
        .withResyncPeriod(Duration.ofHours(1))
        .withReconciler(key -> Result.done()));
    awaitIdleAfter(controller, 1);
    long adds = controller.workQueue().stats().adds();

    time.advance(Duration.ofMinutes(59));

    assertThat(resyncs).isEmpty();
    assertThat(controller.workQueue().stats().adds()).isEqualTo(adds);

    time.advance(Duration.ofMinutes(1));

    assertThat(resyncs).containsExactly("web same");
    assertThat(controller.workQueue().stats().adds()).isEqualTo(adds + 1);
    awaitIdleAfter(controller, 2);
    assertThat(controller.reconcileLog(WEB)).extracting(ReconcileRecord::start)
        .containsExactly(START, START.plus(Duration.ofHours(1)));

    time.advance(Duration.ofHours(2));

    assertThat(resyncs).containsExactly("web same", "web same", "web same");
  }

  @Test
  void predicates_can_drop_resyncs() {
    Controller controller = start(Controller.builder("no-resync-updates")
        .watch(configMaps(), EventHandlers.enqueueObject(),
            EventPredicate.resourceVersionChanged())
        .withTimeSource(time)
        .withResyncPeriod(Duration.ofMinutes(10))
        .withReconciler(key -> Result.done()));
    awaitIdleAfter(controller, 1);
    long adds = controller.workQueue().stats().adds();

    time.advance(Duration.ofHours(1));

    assertThat(controller.workQueue().stats().adds()).isEqualTo(adds);
    assertThat(controller.reconcileLog(WEB)).hasSize(1);
  }

  @Test
  void no_resync_by_default() {
    Controller controller = start(Controller.builder("default")
        .watch(configMaps(), EventHandlers.enqueueObject())
        .withTimeSource(time)
        .withReconciler(key -> Result.done()));
    awaitIdleAfter(controller, 1);
    long adds = controller.workQueue().stats().adds();

    assertThat(time.pendingTasks()).isZero();
    time.advance(Duration.ofDays(10));

    assertThat(controller.workQueue().stats().adds()).isEqualTo(adds);
  }

  @Test
  void resync_stops_on_close() {
    Controller controller = start(Controller.builder("closing")
        .watch(configMaps(), EventHandlers.enqueueObject())
        .withTimeSource(time)
        .withResyncPeriod(Duration.ofHours(1))
        .withReconciler(key -> Result.done()));
    awaitIdleAfter(controller, 1);
    assertThat(time.pendingTasks()).isEqualTo(1);
    assertThat(time.untilNextTask()).contains(Duration.ofHours(1));

    controller.close();

    assertThat(time.pendingTasks()).isZero();
    time.advance(Duration.ofHours(3));
    assertThat(controller.reconcileLog(WEB)).hasSize(1);
  }

  @Test
  void resync_period_must_be_positive() {
    Controller.Builder builder = Controller.builder("bad");

    assertThatThrownBy(() -> builder.withResyncPeriod(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withResyncPeriod(PT0S): the resync period of controller \"bad\" must be "
            + "positive. Leave it out for no resync.");
  }

  private SharedIndexInformer<ConfigMap> configMaps() {
    return client.configMaps().inNamespace(NS).runnableInformer(0);
  }

  private Controller start(Controller.Builder builder) {
    Controller controller = builder.build();
    controllers.add(controller);
    controller.start();
    await("the informers of controller \"" + controller.name() + "\" watch").atMost(WAIT)
        .until(() -> controller.informers().stream().allMatch(SharedIndexInformer::isWatching));
    return controller;
  }

  private static void awaitIdleAfter(Controller controller, int reconciles) {
    await("controller \"" + controller.name() + "\" to reconcile test/web " + reconciles
        + " time(s) and go idle").atMost(WAIT)
        .until(() -> controller.reconcileLog(WEB).size() == reconciles
            && controller.workQueue().stats().isIdle());
  }
}
