package dev.ctk.examples.network;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.examples.network.NetworkControllerTest.network;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.fake.EventInjector;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Mode;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/**
 * Fake mode only: a synthetic watch event ({@code EventInjector.emitDeleted}) is something only the fake can send.
 * A real kube-apiserver cannot send a watch event for an object it still stores, so in a real mode {@code emit*}
 * fails and says so.
 */
@ControllerTest(crds = "classpath:crds/networks.samplecrd.k8s.io.yaml", mode = Mode.FAKE)
class NetworkControllerWatchStreamTest {

  private final InMemoryNetworkBackend backend = new InMemoryNetworkBackend();

  @Test
  void a_watch_stream_that_lies_makes_the_controller_act_on_a_stale_cache(
      KubernetesClient client, EventInjector events, ControllerHarness harness) {
    // GIVEN a network the backend knows
    Controller controller = harness.start(NetworkController.create(client, backend));
    Network blue = client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).create();
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/blue");
    // WHEN the watch stream claims it was deleted, though the API server still has it
    events.emitDeleted(blue);
    // THEN the controller trusts its informer cache and deletes the backend network
    await("backend network deleted on a synthetic DELETED event").atMost(ofSeconds(5))
        .until(() -> backend.networks().isEmpty());
    assertThat(client.resources(Network.class).withName("blue").get()).isNotNull();
  }
}
