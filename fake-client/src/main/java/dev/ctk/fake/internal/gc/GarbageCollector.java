package dev.ctk.fake.internal.gc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.DeletePreconditions;
import dev.ctk.fake.internal.store.DeletionObserver;
import dev.ctk.fake.internal.store.NamespaceLifecycle;
import dev.ctk.fake.internal.store.ObjectRules;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.store.PropagationPolicy;
import dev.ctk.fake.internal.store.StoredObject;
import dev.ctk.fake.internal.store.WriteOptions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The parts of kube-controller-manager that act on deletions, run synchronously: the ownerReference garbage
 * collector (Background, Foreground and Orphan propagation) and the namespace controller (emptying a Terminating
 * namespace, then removing it).
 *
 * <p>The store reports each deletion under its lock; the collector queues the work and drains the queue before the
 * store call that started it returns, so a client sees the whole cascade as soon as its delete is answered, and
 * every step is an ordinary store write with its watch event (MODIFIED when a reference or finalizer goes, DELETED
 * when an object goes), breadth first.
 *
 * <p>A write the collector makes that the API server refuses is skipped (as kube's collector would retry it
 * later, forever): the object stays as it is.
 */
public final class GarbageCollector implements DeletionObserver {

  private final ObjectStore store;
  private final Deque<Runnable> pending = new ArrayDeque<>();
  private boolean draining;

  private GarbageCollector(ObjectStore store) {
    this.store = store;
  }

  /** Creates a collector and attaches it to the store. */
  public static GarbageCollector attachTo(ObjectStore store) {
    GarbageCollector collector = new GarbageCollector(store);
    store.observeDeletions(collector);
    return collector;
  }

  @Override
  public void markedForDeletion(ResourceType type, ObjectNode object) {
    String uid = uidOf(object);
    if (NamespaceLifecycle.isNamespace(type)) {
      schedule(() -> emptyNamespace(object.path("metadata").path("name").asText()));
      return;
    }
    List<String> finalizers = ObjectRules.finalizers(object);
    if (finalizers.contains(PropagationPolicy.ORPHAN_FINALIZER)) {
      schedule(() -> orphanDependents(uid));
    } else if (finalizers.contains(PropagationPolicy.FOREGROUND_FINALIZER)) {
      schedule(() -> deleteDependentsFirst(uid));
    }
  }

  @Override
  public void removed(ResourceType type, ObjectNode object) {
    String uid = uidOf(object);
    List<String> owners = ownerUids(object);
    String namespace = type.namespaced() ? object.path("metadata").path("namespace").asText(null) : null;
    schedule(() -> {
      collectDependents(uid);
      for (String owner : owners) {
        releaseForegroundOwner(owner);
      }
      if (namespace != null) {
        finalizeNamespaceIfEmpty(namespace);
      }
    });
  }

  // ---- the work (store lock held, queue draining) ----

  /** Background: the owner is gone; each dependent loses the reference, or goes when no live owner is left. */
  private void collectDependents(String ownerUid) {
    for (StoredObject dependent : dependentsOf(ownerUid)) {
      if (hasSolidOwner(dependent.object(), ownerUid)) {
        update(dependent, copy -> removeOwnerReference(copy, ownerUid));
      } else {
        PropagationPolicy policy = ObjectRules.finalizers(dependent.object())
            .contains(PropagationPolicy.ORPHAN_FINALIZER) ? PropagationPolicy.ORPHAN : PropagationPolicy.BACKGROUND;
        delete(dependent, policy);
      }
    }
  }

  /** Orphan: every dependent loses its reference to the owner, then the owner loses finalizer {@code orphan}. */
  private void orphanDependents(String ownerUid) {
    for (StoredObject dependent : dependentsOf(ownerUid)) {
      update(dependent, copy -> removeOwnerReference(copy, ownerUid));
    }
    store.byUid(ownerUid).ifPresent(owner -> update(owner,
        copy -> removeFinalizer(copy, PropagationPolicy.ORPHAN_FINALIZER)));
  }

  /**
   * Foreground: every dependent is deleted (in foreground itself when it has dependents of its own); the owner
   * keeps finalizer {@code foregroundDeletion} while a dependent with {@code blockOwnerDeletion: true} remains.
   */
  private void deleteDependentsFirst(String ownerUid) {
    for (StoredObject dependent : dependentsOf(ownerUid)) {
      if (hasSolidOwner(dependent.object(), ownerUid)) {
        update(dependent, copy -> removeOwnerReference(copy, ownerUid));
      } else {
        delete(dependent, dependentsOf(dependent.uid()).isEmpty() ? PropagationPolicy.BACKGROUND
            : PropagationPolicy.FOREGROUND);
      }
    }
    releaseForegroundOwner(ownerUid);
  }

  /** Removes finalizer {@code foregroundDeletion} from an owner being deleted once nothing blocks it. */
  private void releaseForegroundOwner(String ownerUid) {
    Optional<StoredObject> owner = store.byUid(ownerUid);
    if (owner.isEmpty() || !waitsForDependents(owner.get().object())) {
      return;
    }
    for (StoredObject dependent : dependentsOf(ownerUid)) {
      if (blocks(dependent.object(), ownerUid)) {
        return;
      }
    }
    update(owner.get(), copy -> removeFinalizer(copy, PropagationPolicy.FOREGROUND_FINALIZER));
  }

  /** The namespace controller: deletes everything in a Terminating namespace, then finalizes it when empty. */
  private void emptyNamespace(String namespace) {
    for (StoredObject object : store.objectsIn(namespace)) {
      delete(object, PropagationPolicy.BACKGROUND);
    }
    finalizeNamespaceIfEmpty(namespace);
  }

  private void finalizeNamespaceIfEmpty(String namespace) {
    Optional<StoredObject> ns = namespaceObject(namespace);
    if (ns.isEmpty() || !ns.get().object().path("metadata").hasNonNull("deletionTimestamp")) {
      return;
    }
    if (store.hasObjectsIn(namespace)) {
      return;
    }
    update(ns.get(), copy -> {
      if (copy.path("spec").path("finalizers") instanceof ArrayNode finalizers) {
        removeText(finalizers, NamespaceLifecycle.KUBERNETES_FINALIZER);
      }
      return copy;
    });
  }

  // ---- reads ----

  private List<StoredObject> dependentsOf(String ownerUid) {
    return ownerUid.isEmpty() ? List.of() : store.dependentsOf(ownerUid);
  }

  /** Whether another owner than {@code goingUid} exists and is not itself waiting for its dependents. */
  private boolean hasSolidOwner(ObjectNode dependent, String goingUid) {
    for (String uid : ownerUids(dependent)) {
      if (!uid.equals(goingUid)) {
        Optional<StoredObject> owner = store.byUid(uid);
        if (owner.isPresent() && !waitsForDependents(owner.get().object())) {
          return true;
        }
      }
    }
    return false;
  }

  private Optional<StoredObject> namespaceObject(String name) {
    return store.registry().byPath("", "v1", "namespaces").flatMap(type -> store.find(type, null, name));
  }

  private static boolean waitsForDependents(ObjectNode owner) {
    return owner.path("metadata").hasNonNull("deletionTimestamp")
        && ObjectRules.finalizers(owner).contains(PropagationPolicy.FOREGROUND_FINALIZER);
  }

  private static boolean blocks(ObjectNode dependent, String ownerUid) {
    for (JsonNode ref : dependent.path("metadata").path("ownerReferences")) {
      if (ownerUid.equals(ref.path("uid").asText()) && ref.path("blockOwnerDeletion").asBoolean(false)) {
        return true;
      }
    }
    return false;
  }

  private static List<String> ownerUids(JsonNode object) {
    List<String> out = new ArrayList<>();
    for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
      String uid = ref.path("uid").asText("");
      if (!uid.isEmpty()) {
        out.add(uid);
      }
    }
    return out;
  }

  private static String uidOf(JsonNode object) {
    return object.path("metadata").path("uid").asText("");
  }

  // ---- writes (refused ones are skipped) ----

  /** Deletes an object unless it is being deleted already (kube's collector leaves those to their finalizers). */
  private void delete(StoredObject object, PropagationPolicy policy) {
    if (object.object().path("metadata").hasNonNull("deletionTimestamp")) {
      return;
    }
    try {
      store.delete(object.type(), object.namespace(), object.name(), new DeletePreconditions(object.uid(), null),
          WriteOptions.API, policy);
    } catch (ApiError e) {
      // gone already, or replaced by a new object of the same name (uid precondition): nothing to collect
    }
  }

  private void update(StoredObject object, UnaryOperator<ObjectNode> change) {
    try {
      store.patch(object.type(), object.namespace(), object.name(), null, copy -> {
        if (!object.uid().equals(uidOf(copy))) {
          throw ApiError.conflict(object.type(), object.name(), "the object was replaced");
        }
        return change.apply(copy);
      }, WriteOptions.API);
    } catch (ApiError e) {
      // gone or replaced meanwhile: nothing to change
    }
  }

  private static ObjectNode removeOwnerReference(ObjectNode object, String ownerUid) {
    ObjectNode meta = (ObjectNode) object.get("metadata");
    if (meta.path("ownerReferences") instanceof ArrayNode refs) {
      for (int i = refs.size() - 1; i >= 0; i--) {
        if (ownerUid.equals(refs.get(i).path("uid").asText())) {
          refs.remove(i);
        }
      }
      if (refs.isEmpty()) {
        meta.remove("ownerReferences");
      }
    }
    return object;
  }

  private static ObjectNode removeFinalizer(ObjectNode object, String finalizer) {
    ObjectNode meta = (ObjectNode) object.get("metadata");
    if (meta.path("finalizers") instanceof ArrayNode finalizers) {
      removeText(finalizers, finalizer);
      if (finalizers.isEmpty()) {
        meta.remove("finalizers");
      }
    }
    return object;
  }

  private static void removeText(ArrayNode array, String text) {
    for (int i = array.size() - 1; i >= 0; i--) {
      if (text.equals(array.get(i).asText())) {
        array.remove(i);
      }
    }
  }

  private void schedule(Runnable work) {
    pending.add(work);
    if (draining) {
      return;
    }
    draining = true;
    try {
      while (!pending.isEmpty()) {
        pending.poll().run();
      }
    } finally {
      draining = false;
      pending.clear();
    }
  }
}
