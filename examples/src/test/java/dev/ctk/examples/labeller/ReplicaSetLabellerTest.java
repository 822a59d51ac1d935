package dev.ctk.examples.labeller;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ObjectKey;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.AcrossModes;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Runs in fake mode and against a real kube-apiserver (envtest), in the client's namespace. */
@ControllerTest
@AcrossModes
class ReplicaSetLabellerTest {

  @Test
  void labels_a_replicaset_hello_world(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    Controller controller = harness.start(ReplicaSetLabeller.create(client));
    // WHEN
    client.resource(replicaSet("web")).create();
    // THEN
    await("ReplicaSet web labelled hello=world").atMost(ofSeconds(5)).untilAsserted(() ->
        assertThat(labels(client, "web"))
            .containsEntry("hello", "world")
            .containsEntry("app", "web"));
    assertThat(controller).within(ofSeconds(5)).isIdle();
    // its own label patch comes back as an update event, which the predicate drops: one reconcile only
    assertThat(controller).hasReconcileCount(harness.namespace() + "/web", 1);
  }

  @Test
  void puts_the_label_back_when_someone_removes_it(KubernetesClient client, ControllerHarness harness) {
    // GIVEN
    harness.start(ReplicaSetLabeller.create(client));
    client.resource(replicaSet("web")).create();
    await().atMost(ofSeconds(5)).until(() -> labels(client, "web").containsKey("hello"));
    // WHEN
    client.apps().replicaSets().withName("web").edit(rs -> {
      rs.getMetadata().getLabels().remove("hello");
      return rs;
    });
    // THEN
    await("label hello=world restored").atMost(ofSeconds(5))
        .untilAsserted(() -> assertThat(labels(client, "web")).containsEntry("hello", "world"));
  }

  @Test
  void many_pod_events_for_one_replicaset_reconcile_it_once(KubernetesClient client, ControllerHarness harness)
      throws Exception {
    // GIVEN a reconcile of <namespace>/web that the test holds open
    String web = harness.namespace() + "/web";
    CountDownLatch release = new CountDownLatch(1);
    Controller controller = harness.start(ReplicaSetLabeller.create(client, reconciler -> key -> {
      if (!release.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("test never released the reconcile of " + key);
      }
      return reconciler.reconcile(key);
    }));
    ReplicaSet replicaSet = client.resource(replicaSet("web")).create();
    await(web + " in flight").atMost(ofSeconds(5))
        .until(() -> controller.workQueue().stats().inFlightKeys().contains(web));
    long addsBefore = controller.workQueue().stats().adds();

    // WHEN 20 Pods of that ReplicaSet appear while it is being reconciled
    for (int i = 0; i < 20; i++) {
      client.resource(podOwnedBy(replicaSet, "web-" + i)).create();
    }
    await("20 Pod events enqueued " + web).atMost(ofSeconds(5))
        .until(() -> controller.workQueue().stats().adds() - addsBefore >= 20);
    // while web is in flight, the 20 adds only mark it dirty: nothing is queued behind it
    assertThat(controller.workQueue()).hasDepth(0);
    release.countDown();

    // THEN: 20 events, one more reconcile (the first one was already running when they came)
    assertThat(controller).within(ofSeconds(5)).isIdle();
    assertThat(controller).hasReconcileCount(web, 2);
    assertThat(controller.stats().reconcilesPerKey()).containsOnlyKeys(ObjectKey.parse(web));
    assertThat(labels(client, "web")).containsEntry("hello", "world");
  }

  private static Map<String, String> labels(KubernetesClient client, String name) {
    return client.apps().replicaSets().withName(name).get().getMetadata().getLabels();
  }

  private static ReplicaSet replicaSet(String name) {
    return new ReplicaSetBuilder()
        .withNewMetadata().withName(name).withLabels(Map.of("app", name)).endMetadata()
        .withNewSpec()
          .withReplicas(20)
          .withNewSelector().withMatchLabels(Map.of("app", name)).endSelector()
          .withNewTemplate()
            .withNewMetadata().withLabels(Map.of("app", name)).endMetadata()
            .withNewSpec().addNewContainer().withName("app").withImage("busybox:1.36").endContainer().endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }

  private static Pod podOwnedBy(ReplicaSet owner, String name) {
    return new PodBuilder()
        .withNewMetadata()
          .withName(name).withLabels(Map.of("app", owner.getMetadata().getName()))
          .addNewOwnerReference()
            .withApiVersion("apps/v1").withKind("ReplicaSet")
            .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid())
            .withController(true)
          .endOwnerReference()
        .endMetadata()
        .withNewSpec().addNewContainer().withName("app").withImage("busybox:1.36").endContainer().endSpec()
        .build();
  }
}
