package dev.ctk.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The usual {@link EventHandler}s: queue the object itself, its owner (namespaced or cluster-scoped),
 * or keys computed by a function.
 *
 * <pre>{@code
 * Controller.builder("replicaset-labeller")
 *     .watch(replicaSets, EventHandlers.enqueueObject())
 *     .watch(pods, EventHandlers.enqueueOwner("apps", "ReplicaSet", true))
 *     ...
 * }</pre>
 *
 * @since 0.1.0
 */
public final class EventHandlers {

  private EventHandlers() {}

  /**
   * Queues the object's own key.
   *
   * @param <T> the object type
   * @return the handler
   */
  public static <T extends HasMetadata> EventHandler<T> enqueueObject() {
    return object -> List.of(ObjectKey.of(object));
  }

  /**
   * Queues the key of the object's owners of one namespaced kind: for each matching entry of
   * {@code metadata.ownerReferences}, the key (object's namespace, owner's name). An object with no
   * matching owner queues nothing. An owner reference names no namespace: a namespaced owner lives in
   * its dependent's namespace, so the object's namespace is used (none for a cluster-scoped object).
   *
   * <p>For a cluster-scoped owner of a namespaced object (a Pod owned by a Node, anything owned by a
   * Namespace or a cluster-scoped custom resource) this key would wrongly carry the object's
   * namespace: use {@link #enqueueClusterScopedOwner} instead.
   *
   * <pre>{@code
   * .watch(pods, EventHandlers.enqueueOwner("apps", "ReplicaSet", true))   // default/web-7d4f
   * }</pre>
   *
   * @param ownerApiGroup the owner's API group: {@code ""} for the core group, {@code "apps"}, ...
   * @param ownerKind the owner's kind, e.g. {@code "ReplicaSet"}
   * @param onlyController {@code true} to follow only the owner reference marked
   *     {@code controller: true}
   * @param <T> the object type
   * @return the handler
   */
  public static <T extends HasMetadata> EventHandler<T> enqueueOwner(String ownerApiGroup,
      String ownerKind, boolean onlyController) {
    Objects.requireNonNull(ownerApiGroup,
        "EventHandlers.enqueueOwner: ownerApiGroup is null (use \"\" for the core group)");
    Objects.requireNonNull(ownerKind, "EventHandlers.enqueueOwner: ownerKind is null");
    return owners(ownerApiGroup, ownerKind, onlyController, true);
  }

  /**
   * Queues the key of the object's owners of one cluster-scoped kind: for each matching entry of
   * {@code metadata.ownerReferences}, the key with no namespace and the owner's name, whatever the
   * object's namespace. Use it when the owner is cluster-scoped: a Node, a Namespace, a ClusterRole,
   * a cluster-scoped custom resource.
   *
   * <pre>{@code
   * .watch(pods, EventHandlers.enqueueClusterScopedOwner("", "Node", false))   // node-1
   * }</pre>
   *
   * @param ownerApiGroup the owner's API group: {@code ""} for the core group, ...
   * @param ownerKind the owner's kind, e.g. {@code "Node"}
   * @param onlyController {@code true} to follow only the owner reference marked
   *     {@code controller: true}
   * @param <T> the object type
   * @return the handler
   */
  public static <T extends HasMetadata> EventHandler<T> enqueueClusterScopedOwner(
      String ownerApiGroup, String ownerKind, boolean onlyController) {
    Objects.requireNonNull(ownerApiGroup, "EventHandlers.enqueueClusterScopedOwner: ownerApiGroup "
        + "is null (use \"\" for the core group)");
    Objects.requireNonNull(ownerKind, "EventHandlers.enqueueClusterScopedOwner: ownerKind is null");
    return owners(ownerApiGroup, ownerKind, onlyController, false);
  }

  private static <T extends HasMetadata> EventHandler<T> owners(String ownerApiGroup,
      String ownerKind, boolean onlyController, boolean inObjectNamespace) {
    return object -> {
      if (object.getMetadata() == null || object.getMetadata().getOwnerReferences() == null) {
        return List.of();
      }
      String namespace = inObjectNamespace ? object.getMetadata().getNamespace() : null;
      List<ObjectKey> keys = new ArrayList<>(1);
      for (OwnerReference owner : object.getMetadata().getOwnerReferences()) {
        if (ownerKind.equals(owner.getKind())
            && ownerApiGroup.equals(groupOf(owner.getApiVersion()))
            && (!onlyController || Boolean.TRUE.equals(owner.getController()))
            && owner.getName() != null && !owner.getName().isEmpty()) {
          keys.add(ObjectKey.of(namespace, owner.getName()));
        }
      }
      return keys;
    };
  }

  /**
   * Queues the keys a function computes from the object.
   *
   * @param mapper maps an object to keys; {@code null} is taken as no keys
   * @param <T> the object type
   * @return the handler
   */
  public static <T extends HasMetadata> EventHandler<T> enqueueMapped(
      Function<T, Collection<ObjectKey>> mapper) {
    Objects.requireNonNull(mapper, "EventHandlers.enqueueMapped: mapper is null");
    return object -> {
      Collection<ObjectKey> keys = mapper.apply(object);
      return keys == null ? List.of() : keys;
    };
  }

  /** The group of an apiVersion: "apps/v1" is "apps", "v1" is "" (core). */
  static String groupOf(String apiVersion) {
    if (apiVersion == null) {
      return "";
    }
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }
}
