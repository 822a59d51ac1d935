package dev.ctk.examples.network;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.AcrossModes;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Runs in fake mode and against a real kube-apiserver (envtest), where the CRD is installed once per server and
 * each test gets its own namespace. The lying-watch-stream test needs a synthetic watch event, which only the fake
 * can send: it lives in {@link NetworkControllerWatchStreamTest}.
 */
// region:class-annotations
@ControllerTest(crds = "classpath:crds/networks.samplecrd.k8s.io.yaml")
@AcrossModes
// endregion:class-annotations
class NetworkControllerTest {

  private final InMemoryNetworkBackend backend = new InMemoryNetworkBackend();

  @Test
  void creates_the_network_in_the_backend(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    Controller controller = harness.start(NetworkController.create(client, backend));
    // WHEN
    client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).create();
    // THEN
    String blue = harness.namespace() + "/blue";
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(blue);
    assertThat(backend.networks()).containsExactly(Map.entry(blue, new NetworkSpec("10.0.0.0/16", "10.0.0.1")));
  }

  @Test
  void updates_the_backend_when_the_spec_changes(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    Controller controller = harness.start(NetworkController.create(client, backend));
    String blue = harness.namespace() + "/blue";
    client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).create();
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(blue);
    // WHEN
    client.resources(Network.class).withName("blue").edit(n -> {
      n.getSpec().setGateway("10.0.0.254");
      return n;
    });
    // THEN
    await("backend gateway updated").atMost(ofSeconds(5))
        .until(() -> "10.0.0.254".equals(backend.networks().get(blue).getGateway()));
    assertThat(controller).hasReconcileCount(blue, 2);
  }

  @Test
  void ignores_changes_that_only_move_the_resource_version(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    Controller controller = harness.start(NetworkController.create(client, backend));
    client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).create();
    client.resource(network("green", "10.1.0.0/16", "10.1.0.1")).create();
    String namespace = harness.namespace();
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(namespace + "/blue");
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(namespace + "/green");
    // WHEN blue gets an annotation (new resourceVersion, same generation), then green's spec changes
    client.resources(Network.class).withName("blue").edit(n -> {
      n.getMetadata().setAnnotations(Map.of("owner", "team-a"));
      return n;
    });
    client.resources(Network.class).withName("green").edit(n -> {
      n.getSpec().setGateway("10.1.0.254");
      return n;
    });
    // THEN green's reconcile proves the informer delivered blue's earlier event, which the predicate dropped
    assertThat(controller).within(ofSeconds(5)).hasReconcileCount(namespace + "/green", 2);
    assertThat(controller).hasReconcileCount(namespace + "/blue", 1);
  }

  @Test
  void deletes_the_backend_network_when_the_object_is_gone(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    Controller controller = harness.start(NetworkController.create(client, backend));
    Network blue = client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).create();
    String key = harness.namespace() + "/blue";
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(key);
    // WHEN
    client.resource(blue).delete();
    // THEN
    await("backend network " + key + " deleted").atMost(ofSeconds(5))
        .until(() -> backend.networks().isEmpty());
    assertThat(backend.calls()).containsExactly("upsert " + key + " 10.0.0.0/16 via 10.0.0.1", "delete " + key);
  }

  @Test
  void retries_with_backoff_while_the_backend_fails(KubernetesClient client, ControllerHarness harness) {
    // GIVEN a backend that fails twice
    backend.failNextCalls(2);
    Controller controller = harness.start(NetworkController.create(client, backend));
    // WHEN
    client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).create();
    // THEN two failed attempts, each retried, then success
    String blue = harness.namespace() + "/blue";
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully(blue);
    assertThat(controller.reconcileLog())
        .extracting(ReconcileRecord::outcome, ReconcileRecord::attempt)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(ReconcileOutcome.ERROR, 0),
            org.assertj.core.groups.Tuple.tuple(ReconcileOutcome.ERROR, 1),
            org.assertj.core.groups.Tuple.tuple(ReconcileOutcome.SUCCESS, 2));
    assertThat(controller.reconcileLog().get(0).error())
        .isInstanceOf(NetworkBackendException.class)
        .hasMessage("backend unavailable during upsert " + blue);
    assertThat(backend.networks()).containsKey(blue);
  }

  /** A Network without a namespace: created in the client's namespace. */
  static Network network(String name, String cidr, String gateway) {
    Network network = new Network();
    network.setMetadata(new ObjectMetaBuilder().withName(name).build());
    network.setSpec(new NetworkSpec(cidr, gateway));
    return network;
  }
}
