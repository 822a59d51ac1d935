package dev.ctk.assertions;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Result;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.HeldDelivery;
import dev.ctk.fake.WatchPattern;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Waiting for the reconcile of a change to a key that was reconciled before: {@code hasReconciled} passes on the
 * earlier reconcile, {@code hasReconciledAtLeast} waits for the new one. The change's watch event is held back, so
 * "not delivered yet" lasts as long as the test needs.
 */
class ControllerReconcileCountAssertTest {

  private final FakeCluster cluster = FakeCluster.start();
  private final KubernetesClient client = cluster.client();
  private final Controller controller = Controller.builder("cm")
      .watch(client.configMaps().inNamespace("default").runnableInformer(0), EventHandlers.enqueueObject())
      .withReconciler(key -> Result.done())
      .build();

  @AfterEach
  void close() {
    controller.close();
    cluster.close();
  }

  @Test
  void should_fail_hasReconciledAtLeast_until_the_change_of_a_key_reconciled_before_is_reconciled() {
    // GIVEN web reconciled once, then changed while its watch event is held back
    controller.start();
    client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("web")
        .endMetadata().withData(Map.of("v", "1")).build()).create();
    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
    long before = controller.stats().reconcilesPerKey().getOrDefault(ObjectKey.parse("default/web"), 0L);
    HeldDelivery held = cluster.watchFaults().hold(WatchPattern.kind("ConfigMap"));
    client.configMaps().inNamespace("default").withName("web")
        .edit(cm -> new ConfigMapBuilder(cm).addToData("v", "2").build());
    // WHEN
    AssertionError error = catchThrowableOfType(AssertionError.class,
        () -> assertThat(controller).within(ofMillis(300)).hasReconciledAtLeast("default/web", before + 1));
    // THEN the earlier reconcile does not count for the change; hasReconciled does pass on it
    assertThat(before).isEqualTo(1);
    assertThat(error).hasMessage("""

        Expecting controller "cm"
          to have reconciled default/web at least 2 times within 300ms
        but it reconciled it 1 time.
        reconciles of default/web: 1 (oldest first)
          1. SUCCESS
        work queue: queued [], in flight [], waiting []""");
    assertThat(controller).within(ofMillis(300)).hasReconciled("default/web");
    // AND WHEN the change is delivered
    held.release();
    // THEN
    assertThat(controller).within(ofSeconds(5)).hasReconciledAtLeast("default/web", before + 1)
        .hasReconciledAtLeast(ObjectKey.of("default", "web"), 2).hasReconcileCount("default/web", 2);
  }
}
