package dev.ctk.examples.planted;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Mode;
import dev.ctk.josdk.RestartableOperator;
import dev.ctk.junit.ControllerTest;
import dev.ctk.junit.Perturbed;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import org.junit.jupiter.api.Test;

/**
 * {@link TicketWorkerScenario} for a Java Operator SDK operator started as a {@link RestartableOperator}: the
 * campaign crashes the operator at each of its writes and restarts it from the factory. Run by {@code
 * PlantedBugsTest}.
 */
@ControllerTest(mode = Mode.FAKE)
abstract class TicketWorkerOperatorScenario {

  abstract Variant variant();

  @Test
  @Perturbed
  void gives_a_ticket_a_worker(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    // region:restartable
    RestartableOperator operator = RestartableOperator.start(harness, "ticket-operator", (own, probe) -> {
      Operator built = new Operator(o -> o.withKubernetesClient(own).withMetrics(probe));
      built.register(new TicketWorkerReconciler(variant()));
      return built;
    });
    // endregion:restartable
    // WHEN
    client.resource(new ConfigMapBuilder().withNewMetadata().withName("t1")
        .addToLabels(TicketWorkerController.TICKET_LABEL, "true").endMetadata().build()).create();
    // THEN the ticket names its worker, and that worker exists
    TicketWorkerScenario.assertTicketNamesAnExistingWorker(client);
    assertThat(operator.controller(TicketWorkerReconciler.NAME)).within(ofSeconds(10)).isIdle();
  }

  /** With the planted bug. */
  static class Planted extends TicketWorkerOperatorScenario {
    @Override
    Variant variant() {
      return Variant.PLANTED_BUG;
    }
  }

  /** The correct version. */
  static class Correct extends TicketWorkerOperatorScenario {
    @Override
    Variant variant() {
      return Variant.CORRECT;
    }
  }
}
