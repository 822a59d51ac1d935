package dev.ctk.examples.planted;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Mode;
import dev.ctk.clientjava.ClientJavaProbe;
import dev.ctk.harness.RestartableProcess;
import dev.ctk.junit.ControllerTest;
import dev.ctk.junit.Perturbed;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/**
 * {@link TicketWorkerScenario} for a Kubernetes Java client controller started with {@link
 * ClientJavaProbe#startRestartable}: the campaign crashes the controller at each of its writes and restarts it from
 * the factory. Run by {@code
 * PlantedBugsTest}.
 */
@ControllerTest(mode = Mode.FAKE)
abstract class TicketWorkerClientJavaScenario {

  abstract Variant variant();

  @Test
  @Perturbed
  void gives_a_ticket_a_worker(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    // region:restartable
    RestartableProcess controller = ClientJavaProbe.startRestartable(harness, TicketWorkerClientJava.NAME,
        (apiClient, probe) -> TicketWorkerClientJava.create(apiClient, probe, variant()));
    // endregion:restartable
    // WHEN
    client.resource(new ConfigMapBuilder().withNewMetadata().withName("t1")
        .addToLabels(TicketWorkerController.TICKET_LABEL, "true").endMetadata().build()).create();
    // THEN the ticket names its worker, and that worker exists
    TicketWorkerScenario.assertTicketNamesAnExistingWorker(client);
    assertThat(controller.controller(TicketWorkerClientJava.NAME)).within(ofSeconds(10)).isIdle();
  }

  /** With the planted bug. */
  static class Planted extends TicketWorkerClientJavaScenario {
    @Override
    Variant variant() {
      return Variant.PLANTED_BUG;
    }
  }

  /** The correct version. */
  static class Correct extends TicketWorkerClientJavaScenario {
    @Override
    Variant variant() {
      return Variant.CORRECT;
    }
  }
}
