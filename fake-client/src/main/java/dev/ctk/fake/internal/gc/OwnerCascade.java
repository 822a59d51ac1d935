package dev.ctk.fake.internal.gc;

import static dev.ctk.fake.internal.gc.CollectorWrites.blocks;
import static dev.ctk.fake.internal.gc.CollectorWrites.ownerUids;
import static dev.ctk.fake.internal.gc.CollectorWrites.removeFinalizer;
import static dev.ctk.fake.internal.gc.CollectorWrites.removeOwnerReferences;
import static dev.ctk.fake.internal.gc.CollectorWrites.waitsForDependents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.store.PropagationPolicy;
import dev.ctk.fake.internal.store.StoredObject;
import java.util.List;
import java.util.Optional;

/**
 * What the garbage collector does when an owner goes, by {@code propagationPolicy}: Background (dependents deleted
 * after their owner), Orphan (references removed, then the owner's {@code orphan} finalizer) and Foreground
 * (dependents first; the owner keeps {@code foregroundDeletion} while a blocking dependent remains). Dependents are
 * found by owner uid (the store's index), each step an ordinary write.
 */
final class OwnerCascade {

  private final CollectorWrites writes;

  OwnerCascade(CollectorWrites writes) {
    this.writes = writes;
  }

  /** Background: the owner is gone; each dependent loses the reference, or goes when no live owner is left. */
  void collectDependents(String ownerUid) {
    for (StoredObject dependent : writes.dependentsOf(ownerUid)) {
      if (hasSolidOwner(dependent.object(), ownerUid)) {
        writes.update(dependent, copy -> removeOwnerReferences(copy, List.of(ownerUid)));
      } else {
        writes.delete(dependent, PropagationPolicy.byFinalizers(dependent.object()));
      }
    }
  }

  /** Orphan: every dependent loses its reference to the owner, then the owner loses finalizer {@code orphan}. */
  void orphanDependents(String ownerUid) {
    for (StoredObject dependent : writes.dependentsOf(ownerUid)) {
      writes.update(dependent, copy -> removeOwnerReferences(copy, List.of(ownerUid)));
    }
    writes.store().byUid(ownerUid).ifPresent(owner -> writes.update(owner,
        copy -> removeFinalizer(copy, PropagationPolicy.ORPHAN_FINALIZER)));
  }

  /**
   * Foreground: every dependent is deleted, in the foreground itself when it has dependents of its own, else as its
   * own finalizers say ({@link PropagationPolicy#byFinalizers}); the owner keeps finalizer {@code foregroundDeletion}
   * while a dependent with {@code blockOwnerDeletion: true} remains. A dependent being deleted already is left to its
   * finalizers. A dependent one of whose own dependents waits for its dependents too (a cycle of foreground
   * deletions) first has its owner references made non-blocking, as kube's collector does, so that the cycle ends.
   */
  void deleteDependentsFirst(String ownerUid) {
    for (StoredObject dependent : writes.dependentsOf(ownerUid)) {
      if (dependent.object().path("metadata").hasNonNull("deletionTimestamp")) {
        continue;   // kube's attemptToDeleteItem leaves an object being deleted to its finalizers
      }
      if (hasSolidOwner(dependent.object(), ownerUid)) {
        writes.update(dependent, copy -> removeOwnerReferences(copy, List.of(ownerUid)));
        continue;
      }
      List<StoredObject> own = writes.dependentsOf(dependent.uid());
      if (own.isEmpty()) {
        writes.delete(dependent, PropagationPolicy.byFinalizers(dependent.object()));
        continue;
      }
      if (own.stream().anyMatch(d -> waitsForDependents(d.object()))) {
        writes.update(dependent, OwnerCascade::unblockOwnerReferences);
      }
      writes.delete(dependent, PropagationPolicy.FOREGROUND);
    }
    releaseForegroundOwner(ownerUid);
  }

  /** Sets {@code blockOwnerDeletion: false} on every owner reference that says {@code true}. */
  private static ObjectNode unblockOwnerReferences(ObjectNode object) {
    for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
      if (ref.path("blockOwnerDeletion").asBoolean(false)) {
        ((ObjectNode) ref).put("blockOwnerDeletion", false);
      }
    }
    return object;
  }

  /** Removes finalizer {@code foregroundDeletion} from an owner being deleted once nothing blocks it. */
  void releaseForegroundOwner(String ownerUid) {
    Optional<StoredObject> owner = writes.store().byUid(ownerUid);
    if (owner.isEmpty() || !waitsForDependents(owner.get().object())) {
      return;
    }
    for (StoredObject dependent : writes.dependentsOf(ownerUid)) {
      if (blocks(dependent.object(), ownerUid)) {
        return;
      }
    }
    writes.update(owner.get(), copy -> removeFinalizer(copy, PropagationPolicy.FOREGROUND_FINALIZER));
  }

  /** Whether another owner than {@code goingUid} exists and is not itself waiting for its dependents. */
  private boolean hasSolidOwner(ObjectNode dependent, String goingUid) {
    for (String uid : ownerUids(dependent)) {
      if (!uid.equals(goingUid)) {
        Optional<StoredObject> owner = writes.store().byUid(uid);
        if (owner.isPresent() && !waitsForDependents(owner.get().object())) {
          return true;
        }
      }
    }
    return false;
  }
}
