package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventHandlersTest {

  @Test
  void enqueueObject_queues_the_object_itself() {
    assertThat(EventHandlers.<Pod>enqueueObject().keysFor(pod()))
        .containsExactly(ObjectKey.of("default", "web-1"));
  }

  @Test
  void enqueueOwner_queues_owners_of_the_kind_and_group_in_the_object_namespace() {
    Pod pod = pod(owner("apps/v1", "ReplicaSet", "web-rs", true),
        owner("v1", "ReplicaSet", "core-rs", false),
        owner("apps/v1", "Deployment", "web", false),
        owner("apps/v1", "ReplicaSet", "other-rs", false));

    assertThat(EventHandlers.<Pod>enqueueOwner("apps", "ReplicaSet", false).keysFor(pod))
        .containsExactly(ObjectKey.of("default", "web-rs"), ObjectKey.of("default", "other-rs"));
    assertThat(EventHandlers.<Pod>enqueueOwner("apps", "ReplicaSet", true).keysFor(pod))
        .containsExactly(ObjectKey.of("default", "web-rs"));
    assertThat(EventHandlers.<Pod>enqueueOwner("", "ReplicaSet", false).keysFor(pod))
        .containsExactly(ObjectKey.of("default", "core-rs"));
  }

  @Test
  void enqueueOwner_queues_nothing_for_an_object_without_owners() {
    assertThat(EventHandlers.<Pod>enqueueOwner("apps", "ReplicaSet", false).keysFor(pod()))
        .isEmpty();
  }

  @Test
  void enqueueClusterScopedOwner_queues_owners_without_a_namespace() {
    Pod pod = pod(owner("v1", "Node", "node-1", false),
        owner("apps/v1", "ReplicaSet", "web-rs", true));

    assertThat(EventHandlers.<Pod>enqueueClusterScopedOwner("", "Node", false).keysFor(pod))
        .containsExactly(ObjectKey.of(null, "node-1"));
    assertThat(EventHandlers.<Pod>enqueueClusterScopedOwner("", "Node", true).keysFor(pod))
        .as("the Node is not the controller").isEmpty();
    assertThat(EventHandlers.<Pod>enqueueOwner("", "Node", false).keysFor(pod))
        .as("enqueueOwner puts the owner in the object's namespace")
        .containsExactly(ObjectKey.of("default", "node-1"));
  }

  @Test
  void enqueueMapped_queues_what_the_function_returns() {
    EventHandler<Pod> byNode = EventHandlers.enqueueMapped(
        pod -> List.of(ObjectKey.of(null, pod.getSpec().getNodeName())));
    EventHandler<Pod> nothing = EventHandlers.enqueueMapped(pod -> null);

    assertThat(byNode.keysFor(pod())).containsExactly(ObjectKey.of(null, "node-1"));
    assertThat(nothing.keysFor(pod())).isEmpty();
  }

  private static Pod pod(OwnerReference... owners) {
    return new PodBuilder()
        .withNewMetadata().withNamespace("default").withName("web-1")
        .withOwnerReferences(owners).endMetadata()
        .withNewSpec().withNodeName("node-1").endSpec()
        .build();
  }

  private static OwnerReference owner(String apiVersion, String kind, String name,
      boolean controller) {
    return new OwnerReferenceBuilder().withApiVersion(apiVersion).withKind(kind).withName(name)
        .withUid(name + "-uid").withController(controller).build();
  }
}
