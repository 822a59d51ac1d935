package dev.ctk.examples.planted;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.RestartableController;
import dev.ctk.harness.values.Mode;
import dev.ctk.junit.ControllerTest;
import dev.ctk.junit.Perturbed;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/**
 * An ordinary test of {@link TicketWorkerController}, perturbed: it passes as a plain test in both variants, and its
 * assertions are as loose as most tests' (the recorded worker exists). Run by {@code PlantedBugsTest}.
 */
@ControllerTest(mode = Mode.FAKE)
abstract class TicketWorkerScenario {

  abstract Variant variant();

  @Test
  @Perturbed
  void gives_a_ticket_a_worker(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    RestartableController controller = harness.start(() -> TicketWorkerController.create(client, variant()));
    // WHEN
    client.resource(new ConfigMapBuilder().withNewMetadata().withName("t1")
        .addToLabels(TicketWorkerController.TICKET_LABEL, "true").endMetadata().build()).create();
    // THEN the ticket names its worker, and that worker exists
    assertTicketNamesAnExistingWorker(client);
    assertThat(controller).within(ofSeconds(5)).isIdle();
  }

  /** Waits until ticket t1 names its worker (at most 10 s), and checks that the worker exists. */
  static void assertTicketNamesAnExistingWorker(KubernetesClient client) {
    String worker = await("ticket t1 to name its worker").atMost(ofSeconds(10))
        .until(() -> workerOf(client.configMaps().withName("t1").get()), name -> name != null);
    assertThat(client.configMaps().withName(worker).get()).isNotNull();
  }

  private static String workerOf(ConfigMap ticket) {
    return ticket == null || ticket.getMetadata().getAnnotations() == null ? null
        : ticket.getMetadata().getAnnotations().get(TicketWorkerController.WORKER_ANNOTATION);
  }

  /** With the planted bug. */
  static class Planted extends TicketWorkerScenario {
    @Override
    Variant variant() {
      return Variant.PLANTED_BUG;
    }
  }

  /** The correct version. */
  static class Correct extends TicketWorkerScenario {
    @Override
    Variant variant() {
      return Variant.CORRECT;
    }
  }
}
