package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import java.util.List;

/**
 * What a controller-manager sees of the store: deletions, and objects that gained owner references. Told by the
 * {@link ObjectStore} under its lock, right after each commit (its watch event is already published), on the thread
 * that wrote: the garbage collector and namespace controller of {@code dev.ctk.fake.internal.gc} queue work from here.
 * An observer may call the store again (the lock is re-entrant); those calls report to it again.
 */
public interface ChangeObserver {

  /** No controller-manager: a bare kube-apiserver. */
  ChangeObserver NONE = new ChangeObserver() {
    @Override
    public void markedForDeletion(ResourceType type, ObjectNode object) {}

    @Override
    public void removed(ResourceType type, ObjectNode object) {}

    @Override
    public void ownerReferencesAdded(ResourceType type, ObjectNode object, List<String> ownerUids) {}
  };

  /** An object got its {@code deletionTimestamp} and stays, held by finalizers. */
  void markedForDeletion(ResourceType type, ObjectNode object);

  /** An object left the store (its DELETED event is already published). */
  void removed(ResourceType type, ObjectNode object);

  /**
   * An object was created with, or updated to, {@code metadata.ownerReferences} naming uids it did not name before.
   *
   * @param object the object as stored
   * @param ownerUids the uids it names now and did not before, in reference order
   */
  void ownerReferencesAdded(ResourceType type, ObjectNode object, List<String> ownerUids);
}
