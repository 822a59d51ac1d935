package dev.ctk.fake.internal.gc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.DeletePreconditions;
import dev.ctk.fake.internal.store.ObjectRules;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.store.PropagationPolicy;
import dev.ctk.fake.internal.store.StoredObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The collector's writes and the metadata it reads. Every write is an ordinary API write through the store
 * (admission hooks see it, watchers get its event), pinned to the uid the collector saw; one the API server refuses
 * (the object went, was replaced, or a hook denied it) is skipped, and the object stays as it is.
 */
final class CollectorWrites {

  private final ObjectStore store;

  CollectorWrites(ObjectStore store) {
    this.store = store;
  }

  ObjectStore store() {
    return store;
  }

  /**
   * Deletes an object unless it is being deleted already (kube's collector leaves those to their finalizers).
   *
   * @return the refusal, if the API server refused the delete (gone already, replaced, denied)
   */
  Optional<ApiError> delete(StoredObject object, PropagationPolicy policy) {
    if (object.object().path("metadata").hasNonNull("deletionTimestamp")) {
      return Optional.empty();
    }
    try {
      store.delete(object.type(), object.namespace(), object.name(), new DeletePreconditions(object.uid(), null),
          WriteOptions.API, policy);
      return Optional.empty();
    } catch (ApiError e) {
      return Optional.of(e);
    }
  }

  /** Changes an object (its main resource) if it still has the uid the collector saw. */
  void update(StoredObject object, UnaryOperator<ObjectNode> change) {
    update(object, null, change);
  }

  /** Changes an object, or its {@code status} subresource, if it still has the uid the collector saw. */
  void update(StoredObject object, String subresource, UnaryOperator<ObjectNode> change) {
    try {
      store.patch(object.type(), object.namespace(), object.name(), subresource, copy -> {
        if (!object.uid().equals(uidOf(copy))) {
          throw ApiError.conflict(object.type(), object.name(), "the object was replaced");
        }
        return change.apply(copy);
      }, WriteOptions.API);
    } catch (ApiError e) {
      // gone or replaced meanwhile: nothing to change
    }
  }

  /** Whether a stored object's ownerReferences name {@code ownerUid}. */
  boolean hasDependents(String ownerUid) {
    return !ownerUid.isEmpty() && store.hasDependents(ownerUid);
  }

  /** The stored objects whose ownerReferences name {@code ownerUid}. */
  List<StoredObject> dependentsOf(String ownerUid) {
    return ownerUid.isEmpty() ? List.of() : store.dependentsOf(ownerUid);
  }

  /** Whether the stored object with this uid is being deleted in the foreground. */
  boolean waitsForDependents(String ownerUid) {
    return store.byUid(ownerUid).map(owner -> waitsForDependents(owner.object())).orElse(false);
  }

  /** Whether an owner is being deleted in the foreground (it waits for its blocking dependents). */
  static boolean waitsForDependents(JsonNode owner) {
    return owner.path("metadata").hasNonNull("deletionTimestamp")
        && ObjectRules.finalizers(owner).contains(PropagationPolicy.FOREGROUND_FINALIZER);
  }

  /** Whether the dependent's reference to {@code ownerUid} says {@code blockOwnerDeletion: true}. */
  static boolean blocks(JsonNode dependent, String ownerUid) {
    for (JsonNode ref : dependent.path("metadata").path("ownerReferences")) {
      if (ownerUid.equals(ref.path("uid").asText()) && ref.path("blockOwnerDeletion").asBoolean(false)) {
        return true;
      }
    }
    return false;
  }

  static List<String> ownerUids(JsonNode object) {
    List<String> out = new ArrayList<>();
    for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
      String uid = ref.path("uid").asText("");
      if (!uid.isEmpty()) {
        out.add(uid);
      }
    }
    return out;
  }

  static String uidOf(JsonNode object) {
    return object.path("metadata").path("uid").asText("");
  }

  /** {@code Kind namespace/name}, or {@code Kind name} for a cluster-scoped object. */
  static String describe(StoredObject object) {
    String namespace = object.namespace();
    return object.type().kind() + " " + (namespace == null ? "" : namespace + "/") + object.name();
  }

  static ObjectNode removeOwnerReferences(ObjectNode object, Collection<String> ownerUids) {
    ObjectNode meta = (ObjectNode) object.get("metadata");
    if (meta.path("ownerReferences") instanceof ArrayNode refs) {
      for (int i = refs.size() - 1; i >= 0; i--) {
        if (ownerUids.contains(refs.get(i).path("uid").asText())) {
          refs.remove(i);
        }
      }
      if (refs.isEmpty()) {
        meta.remove("ownerReferences");
      }
    }
    return object;
  }

  static ObjectNode removeFinalizer(ObjectNode object, String finalizer) {
    ObjectNode meta = (ObjectNode) object.get("metadata");
    if (meta.path("finalizers") instanceof ArrayNode finalizers) {
      removeText(finalizers, finalizer);
      if (finalizers.isEmpty()) {
        meta.remove("finalizers");
      }
    }
    return object;
  }

  static void removeText(ArrayNode array, String text) {
    for (int i = array.size() - 1; i >= 0; i--) {
      if (text.equals(array.get(i).asText())) {
        array.remove(i);
      }
    }
  }
}
