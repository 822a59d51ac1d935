package dev.ctk.fake.internal.gc;

import static dev.ctk.fake.internal.gc.CollectorWrites.removeOwnerReferences;
import static dev.ctk.fake.internal.gc.CollectorWrites.waitsForDependents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.store.ObjectRules;
import dev.ctk.fake.internal.store.PropagationPolicy;
import dev.ctk.fake.internal.store.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Objects whose owners do not exist, collected as kube's garbage collector does when its graph meets an owner
 * reference to an object it never saw (a "virtual" owner): each owner reference of the object is checked through the
 * API, by kind, namespace (the dependent's, for a namespaced owner) and name, and an owner found with another uid
 * counts as absent (it was deleted and made again). Then, as kube's {@code attemptToDeleteItem}:
 *
 * <ul>
 *   <li>an object with a live owner keeps it, and loses its references to the absent owners and to owners being
 *       deleted in the foreground;</li>
 *   <li>otherwise, if an owner waits for its dependents in the foreground and the object has dependents itself, the
 *       object is deleted in the foreground;</li>
 *   <li>otherwise it is deleted: Orphan when it carries finalizer {@code orphan}, Foreground when it carries
 *       {@code foregroundDeletion}, else Background.</li>
 * </ul>
 *
 * <p>The check is queued when an object gains references and reads them as they are when it runs. It acts when one
 * names a uid the store does not hold, or an owner in another namespace (kube's graph reports those too). A reference
 * removed by the time it runs is not looked at, and one added meanwhile is; a reference to a live owner by a wrong
 * name is left alone until that
 * owner is deleted, as in kube. A reference whose kind is not served (no CRD), or a cluster-scoped object that names
 * a namespaced owner, leaves the object as it is (kube retries those forever, or reports them as invalid).
 */
final class DanglingOwners {

  /** What an owner reference points to. */
  private enum Owner { LIVE, WAITING_FOR_DEPENDENTS, ABSENT, UNKNOWN }

  private final CollectorWrites writes;

  DanglingOwners(CollectorWrites writes) {
    this.writes = writes;
  }

  /**
   * Checks an object that gained owner references, by the references it has when the check runs: a check still
   * queued when the object gains more (the queue keeps one per object) covers those too.
   *
   * @param uid the object's uid (it is skipped if it went, or was replaced)
   */
  void check(String uid) {
    Optional<StoredObject> found = writes.store().byUid(uid);
    if (found.isEmpty() || !unseenOwner(found.get(), CollectorWrites.ownerUids(found.get().object()))) {
      return;
    }
    StoredObject item = found.get();
    JsonNode meta = item.object().path("metadata");
    List<String> finalizers = ObjectRules.finalizers(item.object());
    if (meta.path("ownerReferences").isEmpty()
        || meta.hasNonNull("deletionTimestamp") && !finalizers.contains(PropagationPolicy.FOREGROUND_FINALIZER)) {
      return;
    }
    List<String> solid = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    boolean ownerWaits = false;
    for (JsonNode ref : meta.path("ownerReferences")) {
      String ownerUid = ref.path("uid").asText("");
      switch (owner(ref, item)) {
        case UNKNOWN -> {
          return;
        }
        case LIVE -> solid.add(ownerUid);
        case ABSENT -> dropped.add(ownerUid);
        case WAITING_FOR_DEPENDENTS -> {
          dropped.add(ownerUid);
          ownerWaits = true;
        }
      }
    }
    if (!solid.isEmpty()) {
      if (!dropped.isEmpty()) {
        writes.update(item, copy -> removeOwnerReferences(copy, dropped));
      }
      return;
    }
    if (ownerWaits && !writes.dependentsOf(item.uid()).isEmpty()) {
      writes.delete(item, PropagationPolicy.FOREGROUND);
    } else if (finalizers.contains(PropagationPolicy.ORPHAN_FINALIZER)) {
      writes.delete(item, PropagationPolicy.ORPHAN);
    } else if (finalizers.contains(PropagationPolicy.FOREGROUND_FINALIZER)) {
      writes.delete(item, PropagationPolicy.FOREGROUND);
    } else {
      writes.delete(item, PropagationPolicy.BACKGROUND);
    }
  }

  /** Whether a reference names a uid the store does not hold, or a namespaced owner in another namespace. */
  private boolean unseenOwner(StoredObject item, List<String> ownerUids) {
    for (String ownerUid : ownerUids) {
      Optional<StoredObject> owner = writes.store().byUid(ownerUid);
      if (owner.isEmpty()) {
        return true;
      }
      String ownerNamespace = owner.get().namespace();
      if (ownerNamespace != null && item.namespace() != null && !ownerNamespace.equals(item.namespace())) {
        return true;
      }
    }
    return false;
  }

  /** Looks an owner reference up as kube's {@code isDangling} does: by kind, namespace and name, then uid. */
  private Owner owner(JsonNode ref, StoredObject dependent) {
    Optional<ResourceType> type = writes.store().registry().byKind(ref.path("apiVersion").asText(""),
        ref.path("kind").asText(""));
    if (type.isEmpty() || type.get().namespaced() && dependent.namespace() == null) {
      return Owner.UNKNOWN;
    }
    String namespace = type.get().namespaced() ? dependent.namespace() : null;
    Optional<StoredObject> owner = writes.store().find(type.get(), namespace, ref.path("name").asText(""));
    if (owner.isEmpty() || !owner.get().uid().equals(ref.path("uid").asText(""))) {
      return Owner.ABSENT;
    }
    return waitsForDependents(owner.get().object()) ? Owner.WAITING_FOR_DEPENDENTS : Owner.LIVE;
  }
}
