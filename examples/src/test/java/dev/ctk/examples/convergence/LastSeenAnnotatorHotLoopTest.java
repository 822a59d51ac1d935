package dev.ctk.examples.convergence;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Result;
import dev.ctk.fake.values.RequestPattern;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A classic bug, caught: a controller that stamps "last seen" on the object it reconciles triggers itself
 * through its own watch event, for ever. {@code hasNoHotLoop} names the key and lists the writes that kept it
 * busy; the corrected controller, which writes only what changed, converges and is idempotent.
 */
@ControllerTest
class LastSeenAnnotatorHotLoopTest {

  static final String LAST_SEEN = "examples.ctk.dev/last-seen";
  static final String DATA_KEYS = "examples.ctk.dev/data-keys";

  // region:hot-loop
  @Test
  void a_controller_that_writes_on_every_reconcile_is_reported_as_a_hot_loop(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN the buggy controller: a new counter value on every reconcile
    AtomicLong counter = new AtomicLong();
    Controller controller = harness.start(annotator(client, cm -> Long.toString(counter.incrementAndGet()),
        LAST_SEEN));
    // WHEN
    client.resource(configMap("web")).create();
    await("default/web reconciled 10 times").atMost(ofSeconds(10))
        .until(() -> controller.reconcileLog(ObjectKey.of("default", "web")).size() >= 10);
    controller.close();
    // THEN
    assertThatThrownBy(() -> assertThat(controller).hasNoHotLoop(harness.requests(), 5))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("to have no hot loop (at most 5 reconciles of a key without an outside change)")
        .hasMessageContaining("but default/web was reconciled ")
        .hasMessageContaining("its own writes kept it busy:")
        .hasMessageContaining("patch configmaps default/web");
  }
  // endregion:hot-loop

  @Test
  void the_fixed_controller_converges_is_idempotent_and_has_no_hot_loop(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN the fix: the annotation says what the object holds, so a second write changes nothing
    Controller controller = harness.start(annotator(client,
        cm -> String.join(",", new java.util.TreeSet<>(cm.getData().keySet())), DATA_KEYS));
    // WHEN
    client.resource(configMap("web")).create();
    // THEN (first an effect of the write: a fixed point cannot see events not delivered yet)
    await("default/web annotated").atMost(ofSeconds(5)).until(() -> client.configMaps().withName("web").get()
        .getMetadata().getAnnotations() != null);
    assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(harness.requests());
    assertThat(controller).isIdempotent(harness.requests());
    assertThat(controller).hasNoHotLoop(harness.requests(), 3);
    assertThat(harness.requests()).hasExactly(1, RequestPattern.patch("ConfigMap").named("default", "web"));
    assertThat(client.configMaps().withName("web").get().getMetadata().getAnnotations())
        .containsEntry(DATA_KEYS, "a,b");
  }

  /** A controller that sets one annotation of every ConfigMap to what {@code value} computes, when it differs. */
  private static Controller annotator(KubernetesClient client,
      java.util.function.Function<ConfigMap, String> value, String annotation) {
    SharedIndexInformer<ConfigMap> configMaps = client.configMaps().inAnyNamespace().runnableInformer(0);
    return Controller.builder("annotator")
        .watch(configMaps, EventHandlers.enqueueObject())
        .withReconciler(key -> {
          ConfigMap cm = configMaps.getIndexer().getByKey(key.toString());
          if (cm == null) {
            return Result.done();
          }
          String wanted = value.apply(cm);
          Map<String, String> annotations = cm.getMetadata().getAnnotations();
          if (annotations == null || !wanted.equals(annotations.get(annotation))) {
            client.configMaps().inNamespace(key.namespace()).withName(key.name())
                .edit(c -> new ConfigMapBuilder(c).editMetadata().addToAnnotations(annotation, wanted)
                    .endMetadata().build());
          }
          return Result.done();
        })
        .build();
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata()
        .withData(Map.of("a", "1", "b", "2")).build();
  }
}
