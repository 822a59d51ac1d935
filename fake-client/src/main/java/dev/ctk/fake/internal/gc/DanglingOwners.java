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
 * names a uid the store does not hold, an owner in another namespace, or a live owner under another apiVersion, kind or
 * name than the owner's own (kube's graph queues all three). A reference removed by the time it runs is not looked at,
 * and one added meanwhile is. A reference to a live uid under a wrong name or kind is looked up by that name or kind,
 * finds nothing, and counts as absent, as in kube. A reference whose kind is not served (no CRD), or a cluster-scoped
 * object that names a namespaced owner, leaves the object as it is (kube retries those forever, or reports them as
 * invalid).
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
    if (found.isEmpty() || !unseenOwner(found.get())) {
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
    } else {
      writes.delete(item, PropagationPolicy.byFinalizers(item.object()));
    }
  }

  /**
   * Whether a reference names a uid the store does not hold, a namespaced owner in another namespace, or a live uid
   * under other coordinates (apiVersion, kind or name) than the owner's: kube's graph builder queues the dependent
   * for all three ({@code ownerReferenceMatchesCoordinates}).
   */
  private boolean unseenOwner(StoredObject item) {
    for (JsonNode ref : item.object().path("metadata").path("ownerReferences")) {
      Optional<StoredObject> owner = writes.store().byUid(ref.path("uid").asText(""));
      if (owner.isEmpty()) {
        return true;
      }
      String ownerNamespace = owner.get().namespace();
      if (ownerNamespace != null && item.namespace() != null && !ownerNamespace.equals(item.namespace())) {
        return true;
      }
      JsonNode ownerObject = owner.get().object();
      if (!ref.path("name").asText("").equals(owner.get().name())
          || !ref.path("kind").asText("").equals(ownerObject.path("kind").asText(""))
          || !ref.path("apiVersion").asText("").equals(ownerObject.path("apiVersion").asText(""))) {
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
