package dev.ctk.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;

/**
 * Maps the object of an informer event to the keys a controller queues. For an update it is applied to
 * the old and the new object, and the union of the keys is queued (so a Pod that moves from one owner to
 * another reconciles both). See {@link EventHandlers} for the usual ones.
 *
 * <pre>{@code
 * EventHandler<Pod> byNode = pod -> pod.getSpec().getNodeName() == null
 *     ? List.of()
 *     : List.of(ObjectKey.of(null, pod.getSpec().getNodeName()));
 * }</pre>
 *
 * @param <T> the informer's object type
 * @since 0.1.0
 */
@FunctionalInterface
public interface EventHandler<T extends HasMetadata> {

  /**
   * The keys to queue for an event about {@code object}.
   *
   * @param object the object of the event (for a delete, its last known state)
   * @return the keys, possibly empty, never {@code null}
   */
  Collection<ObjectKey> keysFor(T object);
}
