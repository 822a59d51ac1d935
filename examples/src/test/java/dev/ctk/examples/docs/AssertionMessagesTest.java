package dev.ctk.examples.docs;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.examples.docs.DocsFixtures.network;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.controller.Controller;
import dev.ctk.controller.WorkQueue;
import dev.ctk.examples.network.InMemoryNetworkBackend;
import dev.ctk.examples.network.Network;
import dev.ctk.examples.network.NetworkController;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The failure messages docs/assertions.md shows, each produced here and compared whole with the file the page
 * quotes ({@code *.txt} beside this test), so that the page shows what the assertions really say.
 */
@ControllerTest(crds = "classpath:crds/networks.samplecrd.k8s.io.yaml")
class AssertionMessagesTest {

  private static final Path HERE = DocsSnippetsTest.repositoryRoot()
      .resolve("examples/src/test/java/dev/ctk/examples/docs");

  @Test
  void a_work_queue_that_keeps_a_key(ControllerHarness harness) throws IOException {
    // GIVEN a queue that holds a key nobody takes
    WorkQueue<String> queue = harness.closeAfterTest(WorkQueue.<String>builder().withName("q").build());
    queue.add("default/web");
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(queue).within(ofMillis(200)).isEmpty());
    // THEN
    assertThat(error.getMessage().strip()).isEqualTo(expected("work-queue-not-empty.txt"));
  }

  @Test
  void a_controller_that_reconciled_once_more_than_expected(KubernetesClient client, ControllerHarness harness)
      throws IOException {
    // GIVEN a network whose spec changed once: two reconciles
    Controller controller = harness.start(NetworkController.create(client, new InMemoryNetworkBackend()));
    client.resource(network("blue", "10.0.0.0/16", "10.0.0.1")).create();
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/blue");
    client.resources(Network.class).withName("blue").edit(n -> {
      n.getSpec().setGateway("10.0.0.254");
      return n;
    });
    assertThat(controller).within(ofSeconds(5)).hasReconcileCount("default/blue", 2).isIdle();
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasReconcileCount("default/blue", 1));
    // THEN
    assertThat(error.getMessage().strip()).isEqualTo(expected("reconcile-count.txt"));
  }

  private static String expected(String file) throws IOException {
    return Files.readString(HERE.resolve(file)).strip();
  }
}
