package dev.ctk.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The usual {@link EventHandler}s: queue the object itself, its owner, or keys computed by a function.
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
   * Queues the key of the object's owners of one kind: for each matching entry of
   * {@code metadata.ownerReferences}, the key (object's namespace, owner's name). An object with no
   * matching owner queues nothing. Owners in other namespaces cannot be expressed by owner references,
   * so the object's namespace is always used (or none for a cluster-scoped object).
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
    Objects.requireNonNull(ownerApiGroup, "ownerApiGroup (use \"\" for the core group)");
    Objects.requireNonNull(ownerKind, "ownerKind");
    return object -> {
      if (object.getMetadata() == null || object.getMetadata().getOwnerReferences() == null) {
        return List.of();
      }
      List<ObjectKey> keys = new ArrayList<>(1);
      for (OwnerReference owner : object.getMetadata().getOwnerReferences()) {
        if (ownerKind.equals(owner.getKind())
            && ownerApiGroup.equals(groupOf(owner.getApiVersion()))
            && (!onlyController || Boolean.TRUE.equals(owner.getController()))
            && owner.getName() != null && !owner.getName().isEmpty()) {
          keys.add(ObjectKey.of(object.getMetadata().getNamespace(), owner.getName()));
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
    Objects.requireNonNull(mapper, "mapper");
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
