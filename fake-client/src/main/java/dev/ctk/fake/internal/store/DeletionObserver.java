package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;

/**
 * What a controller-manager sees of deletions, told synchronously by the {@link ObjectStore} under its lock, right
 * after each commit (the garbage collector and namespace controller of {@code dev.ctk.fake.internal.gc}). An
 * observer may call the store again (the lock is re-entrant); those calls report to it again.
 */
public interface DeletionObserver {

  /** No controller-manager: a bare kube-apiserver. */
  DeletionObserver NONE = new DeletionObserver() {
    @Override
    public void markedForDeletion(ResourceType type, ObjectNode object) {}

    @Override
    public void removed(ResourceType type, ObjectNode object) {}
  };

  /** An object got its {@code deletionTimestamp} and stays, held by finalizers. */
  void markedForDeletion(ResourceType type, ObjectNode object);

  /** An object left the store (its DELETED event is already published). */
  void removed(ResourceType type, ObjectNode object);
}
