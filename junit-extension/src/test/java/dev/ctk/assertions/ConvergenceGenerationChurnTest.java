package dev.ctk.assertions;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static dev.ctk.assertions.ConvergenceAssertTest.changes;
import static dev.ctk.assertions.ConvergenceAssertTest.lines;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Reconciler;
import dev.ctk.controller.Result;
import dev.ctk.fake.RequestJournal;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Generation churn, on real ctk controllers over a fake cluster: Deployments whose spec is rewritten. */
@ControllerTest
class ConvergenceGenerationChurnTest {

  private static final String ROUND = "ctk.dev/round";
  private static final String OWNER = "ctk.dev/owner";

  @Test
  void should_fail_hasNoGenerationChurn_for_a_pod_template_rewritten_on_every_reconcile(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN a controller that bumps a counter annotation on the pod template on every reconcile, 6 times
    Controller controller = harness.start(deployments(client, "template-bumper",
        bump(client, 6, d -> d.getSpec().getTemplate().getMetadata().getAnnotations(),
            (d, round) -> new DeploymentBuilder(d).editSpec().editTemplate().editMetadata()
                .addToAnnotations(ROUND, round).endMetadata().endTemplate().endSpec().build())));
    RequestJournal journal = harness.requests();
    client.resource(deployment("web")).create();
    assertThat(controller).within(ofSeconds(10)).hasReconcileCount("default/web", 7);
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).hasNoGenerationChurn(journal, 3));
    // THEN every write raised the generation, and the message lists them
    List<ApiRequestRecord> bumps = changes(journal, r -> "patch".equals(r.verb()));
    assertThat(bumps).extracting(ApiRequestRecord::generation)
        .containsExactly(2L, 3L, 4L, 5L, 6L, 7L);
    assertThat(bumps.get(0).summary()).endsWith(" -> 200 changed, generation 2");
    assertThat(client.apps().deployments().inNamespace("default").withName("web").get()
        .getMetadata().getGeneration()).isEqualTo(7L);
    assertThat(error).hasMessage("""

        Expecting controller "template-bumper"
          to have no generation churn (at most 3 writes raising an object's metadata.generation \
        without an outside change)
        but it raised the metadata.generation of deployments default/web 6 times without an \
        outside change:
        %s
        Fix: compare the desired spec with the live object and write only what differs; keep \
        changing values such as timestamps or counters out of the spec and the pod template.""",
        lines(bumps));
  }

  @Test
  void should_pass_hasNoGenerationChurn_for_a_pod_template_set_once(ControllerHarness harness,
      KubernetesClient client) {
    // GIVEN a controller that sets an owner annotation on the pod template when it is missing
    Controller controller = harness.start(deployments(client, "template-owner", key -> {
      Deployment live = client.apps().deployments().inNamespace(key.namespace())
          .withName(key.name()).get();
      Map<String, String> annotations = live == null ? null
          : live.getSpec().getTemplate().getMetadata().getAnnotations();
      if (live != null && (annotations == null || !annotations.containsKey(OWNER))) {
        client.apps().deployments().inNamespace(key.namespace()).withName(key.name())
            .edit(d -> new DeploymentBuilder(d).editSpec().editTemplate().editMetadata()
                .addToAnnotations(OWNER, "ctk").endMetadata().endTemplate().endSpec().build());
      }
      return Result.done();
    }));
    RequestJournal journal = harness.requests();
    client.resource(deployment("web")).create();
    // WHEN
    assertThat(controller).within(ofSeconds(10)).hasReconcileCount("default/web", 2);
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    // THEN one bump, from 1 to 2
    assertThat(changes(journal, r -> "patch".equals(r.verb())))
        .extracting(ApiRequestRecord::generation).containsExactly(2L);
    assertThat(controller).hasNoGenerationChurn(journal, 1).hasNoHotLoop(journal, 2);
  }

  @Test
  void should_pass_hasNoGenerationChurn_for_label_writes_that_leave_the_generation(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN a controller that bumps a counter label of the Deployment (metadata only) 6 times
    Controller controller = harness.start(deployments(client, "label-bumper",
        bump(client, 6, d -> d.getMetadata().getLabels(),
            (d, round) -> new DeploymentBuilder(d).editMetadata().addToLabels(ROUND, round)
                .endMetadata().build())));
    RequestJournal journal = harness.requests();
    client.resource(deployment("web")).create();
    // WHEN
    assertThat(controller).within(ofSeconds(10)).hasReconcileCount("default/web", 7);
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(journal);
    // THEN six changing writes, none of which raised the generation: write churn, no generation churn
    assertThat(changes(journal, r -> "patch".equals(r.verb())))
        .extracting(ApiRequestRecord::generation).containsExactly(1L, 1L, 1L, 1L, 1L, 1L);
    assertThat(controller).hasNoGenerationChurn(journal, 1);
    assertThatThrownBy(() -> assertThat(controller).hasNoWriteChurn(journal, 3))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("but it changed deployments default/web 6 times without an outside "
            + "change:");
  }

  @Test
  void should_refuse_hasNoGenerationChurn_under_within_or_without_a_bump_allowed(
      ControllerHarness harness, KubernetesClient client) {
    // GIVEN
    Controller controller = harness.start(deployments(client, "idle", key -> Result.done()));
    // WHEN, THEN
    assertThatThrownBy(() -> assertThat(controller).within(ofSeconds(5))
        .hasNoGenerationChurn(harness.requests(), 2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("hasNoGenerationChurn(journal, 2) cannot wait within 5s: it checks what "
            + "already happened, and holds at once before anything happened. Fix: first wait for "
            + "the controller, e.g. assertThat(controller).within(ofSeconds(10))"
            + ".reachesFixedPoint(journal), then call hasNoGenerationChurn(journal, 2) without "
            + "within(..).");
    assertThatThrownBy(() -> assertThat(controller).hasNoGenerationChurn(harness.requests(), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hasNoGenerationChurn: maxBumps must be at least 1, was 0.");
  }

  private static Controller deployments(KubernetesClient client, String name,
      Reconciler reconciler) {
    return Controller.builder(name)
        .watch(client.apps().deployments().inNamespace("default").runnableInformer(0),
            EventHandlers.enqueueObject())
        .withReconciler(reconciler)
        .build();
  }

  /** Raises the {@value #ROUND} entry of the map {@code where} reads, up to {@code rounds}. */
  private static Reconciler bump(KubernetesClient client, int rounds,
      java.util.function.Function<Deployment, Map<String, String>> where,
      java.util.function.BiFunction<Deployment, String, Deployment> write) {
    return key -> {
      Deployment live = client.apps().deployments().inNamespace(key.namespace())
          .withName(key.name()).get();
      Map<String, String> values = live == null ? null : where.apply(live);
      int round = values == null ? 0 : Integer.parseInt(values.getOrDefault(ROUND, "0"));
      if (live != null && round < rounds) {
        UnaryOperator<Deployment> next = d -> write.apply(d, Integer.toString(round + 1));
        client.apps().deployments().inNamespace(key.namespace()).withName(key.name()).edit(next);
      }
      return Result.done();
    };
  }

  private static Deployment deployment(String name) {
    return new DeploymentBuilder()
        .withNewMetadata().withName(name).withNamespace("default").addToLabels("app", name)
        .endMetadata()
        .withNewSpec().withReplicas(1)
        .withNewSelector().addToMatchLabels("app", name).endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer()
        .endSpec().endTemplate()
        .endSpec().build();
  }
}
