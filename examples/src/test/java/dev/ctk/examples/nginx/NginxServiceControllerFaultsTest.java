package dev.ctk.examples.nginx;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.examples.nginx.NginxServiceControllerTest.awaitService;
import static dev.ctk.examples.nginx.NginxServiceControllerTest.nginxDeployment;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.fake.ApiFault;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.HeldDelivery;
import dev.ctk.fake.WatchPattern;
import dev.ctk.fake.values.RequestPattern;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hard cases, provoked on purpose on the fake (fake mode only: a real kube-apiserver cannot be told to fail):
 * API faults answered by the server, a stale informer cache, a watch that expires, and the checks that the
 * controller converges, is idempotent and does not loop.
 */
@ControllerTest
class NginxServiceControllerFaultsTest {

  // region:a-503
  @Test
  void a_503_on_create_fails_the_reconcile_and_its_retry_creates_the_service(KubernetesClient client,
      ControllerHarness harness, FakeCluster cluster) {
    // GIVEN the API server refuses the first Service create (the harness's client does not retry by itself:
    // the fault reaches the reconcile, whose rate-limited retry must cope)
    cluster.faults().when(RequestPattern.create("Service")).once().answer(ApiFault.serviceUnavailable());
    Controller controller = harness.start(NginxServiceController.create(client));
    // WHEN
    client.resource(nginxDeployment("web", 80)).create();
    // THEN one refused create, one that worked
    awaitService(client, "web");
    assertThat(cluster.faults().firings()).hasSize(1);
    assertThat(harness.requests())
        .hasExactly(1, RequestPattern.create("Service").where("answered 503", r -> r.code() == 503))
        .hasExactly(1, RequestPattern.create("Service").where("answered 201", r -> r.code() == 201));
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
    assertThat(controller.reconcileLog(ObjectKey.of("default", "web")))
        .first().satisfies(r -> {
          assertThat(r.outcome()).isEqualTo(ReconcileOutcome.ERROR);
          assertThat(r.error()).hasMessageContaining("ServiceUnavailable");
        });
  }
  // endregion:a-503

  @Test
  void a_conflict_fails_the_reconcile_and_the_rate_limited_retry_fixes_the_ports(KubernetesClient client,
      ControllerHarness harness, FakeCluster cluster) {
    // GIVEN a Service in line with its Deployment
    Controller controller = harness.start(NginxServiceController.create(client));
    client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    assertThat(controller).within(ofSeconds(5)).isIdle();
    // and a writer that beats the controller to the Service once: 409 Conflict, which fabric8 does not retry
    cluster.faults().when(RequestPattern.verbs("update", "patch").kind("Service").named("default", "web"))
        .once().answer(ApiFault.conflict());
    // WHEN the container port changes
    client.apps().deployments().withName("web").edit(d -> {
      d.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().get(0).setContainerPort(8080);
      return d;
    });
    // THEN the reconcile failed with the 409, and its retry put the port right
    await("Service web to expose 8080").atMost(ofSeconds(10))
        .untilAsserted(() -> assertThat(awaitService(client, "web").getSpec().getPorts())
            .extracting(ServicePort::getPort).containsExactly(8080));
    assertThat(controller.reconcileLog(ObjectKey.of("default", "web")))
        .filteredOn(r -> r.outcome() == ReconcileOutcome.ERROR)
        .singleElement()
        .satisfies(r -> assertThat(r.error()).hasMessageContaining("Conflict"));
    assertThat(cluster.faults().firings()).singleElement()
        .satisfies(f -> assertThat(f.request()).contains("patch services default/web"));
  }

  // region:stale-cache
  @Test
  void a_stale_service_cache_hides_a_deleted_service_until_the_held_events_arrive(KubernetesClient client,
      ControllerHarness harness, FakeCluster cluster) {
    // GIVEN
    Controller controller = harness.start(NginxServiceController.create(client));
    client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    assertThat(controller).within(ofSeconds(5)).isIdle();
    // WHEN the controller's Service informer falls behind, and someone deletes the Service
    HeldDelivery stale = cluster.watchFaults().hold(WatchPattern.kind("Service"));
    client.services().withName("web").delete();
    assertThat(client.services().withName("web").get()).as("GET reads the store: the Service is gone").isNull();
    ObjectKey web = ObjectKey.of("default", "web");
    int reconciles = controller.reconcileLog(web).size();
    client.apps().deployments().withName("web")
        .edit(d -> { d.getMetadata().setAnnotations(Map.of("touched", "1")); return d; });
    // THEN the controller reconciles web again but still sees the Service in its cache: it does not create it
    await("a reconcile of default/web after the Deployment changed").atMost(ofSeconds(5))
        .until(() -> controller.reconcileLog(web).size() > reconciles);
    assertThat(controller).within(ofSeconds(5)).isIdle();
    assertThat(client.services().withName("web").get()).isNull();
    // WHEN the informer catches up
    assertThat(stale.release()).isGreaterThanOrEqualTo(1);
    // THEN the DELETED event enqueues the owner and the Service comes back
    awaitService(client, "web");
  }
  // endregion:stale-cache

  // region:expired-watch
  @Test
  void an_expired_watch_makes_the_informer_relist_and_the_controller_keeps_working(KubernetesClient client,
      ControllerHarness harness, FakeCluster cluster) {
    // GIVEN
    harness.start(NginxServiceController.create(client));
    client.resource(nginxDeployment("web", 80)).create();
    awaitService(client, "web");
    long before = harness.requests().lastSequence();
    // WHEN the Deployment watch is answered 410 Gone, as after an etcd compaction
    assertThat(cluster.watchFaults().expire(WatchPattern.kind("Deployment"))).isEqualTo(1);
    client.resource(nginxDeployment("api", 8080)).create();
    // THEN the informer listed again, and the new Deployment still gets its Service
    awaitService(client, "api");
    assertThat(harness.requests()).since(before).hasAtLeast(1, RequestPattern.list("Deployment"));
  }
  // endregion:expired-watch

  // region:fixed-point
  @Test
  void converges_to_a_fixed_point_is_idempotent_and_writes_each_service_once(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN
    Controller controller = harness.start(NginxServiceController.create(client));
    // WHEN
    for (String name : new String[] {"web", "api", "admin"}) {
      client.resource(nginxDeployment(name, 80)).create();
    }
    // THEN (first an effect of the last write: a fixed point cannot see events not delivered yet)
    awaitService(client, "admin");
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(harness.requests());
    assertThat(controller).isIdempotent(harness.requests());
    assertThat(controller).hasNoHotLoop(harness.requests(), 3);
    assertThat(harness.requests())
        .hasExactly(3, RequestPattern.create("Service"))
        .hasNone(RequestPattern.delete("Service"))
        .hasNoUpdateWithoutResourceVersion();
  }
  // endregion:fixed-point
}
