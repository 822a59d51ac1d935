package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;

/**
 * The store's secondary indexes, so that the lookups the garbage collector and the namespace controller make on every
 * delete cost what they find, not what the store holds:
 *
 * <ul>
 *   <li>uid to the object's place (collection and key);
 *   <li>owner uid to the places of the objects whose {@code metadata.ownerReferences} name it (its dependents).
 * </ul>
 *
 * <p>Objects of one namespace need no index: a collection is keyed {@code namespace/name}, so they are one key range.
 *
 * <p>Kept by the {@link ObjectStore}'s commit step under its lock, from the object a commit replaced and the one it
 * stored, so every change of the collections (create, update, patch, apply, delete, a CRD taking its objects with
 * it, a roll back) passes here. Answers list objects in the order a scan of the whole store would meet them:
 * collections in registry order, then key order. Not thread-safe on its own.
 */
final class ObjectIndex {

  /** Where an object is stored: its collection and its key in it. */
  private record Place(String storageKey, String key) {
  }

  private final ResourceRegistry registry;
  private final Map<String, NavigableMap<String, ObjectNode>> collections;
  private final Map<String, Place> byUid = new HashMap<>();
  private final Map<String, Set<Place>> dependents = new HashMap<>();

  /**
   * Creates an empty index over the store's collections.
   *
   * @param registry the served resources (the type each object is reported with, collection order)
   * @param collections the store's collections (read, never changed)
   */
  ObjectIndex(ResourceRegistry registry, Map<String, NavigableMap<String, ObjectNode>> collections) {
    this.registry = registry;
    this.collections = collections;
  }

  /**
   * Records one committed change of a collection.
   *
   * @param before the object the commit replaced or removed, {@code null} on a create
   * @param after the object it stored, {@code null} on a removal
   */
  void changed(String storageKey, String key, ObjectNode before, ObjectNode after) {
    Place place = new Place(storageKey, key);
    String uidBefore = before == null ? "" : uid(before);
    String uidAfter = after == null ? "" : uid(after);
    Set<String> ownersBefore = before == null ? Set.of() : ownerUids(before);
    Set<String> ownersAfter = after == null ? Set.of() : ownerUids(after);
    if (!uidBefore.isEmpty() && !uidBefore.equals(uidAfter)) {
      byUid.remove(uidBefore, place);
    }
    if (!uidAfter.isEmpty()) {
      byUid.put(uidAfter, place);
    }
    for (String owner : ownersBefore) {
      if (!ownersAfter.contains(owner)) {
        Set<Place> places = dependents.get(owner);
        if (places != null && places.remove(place) && places.isEmpty()) {
          dependents.remove(owner);
        }
      }
    }
    for (String owner : ownersAfter) {
      dependents.computeIfAbsent(owner, k -> new LinkedHashSet<>()).add(place);
    }
  }

  /** The stored object with this uid, if any. */
  Optional<StoredObject> byUid(String uid) {
    Place place = byUid.get(uid);
    return place == null ? Optional.empty() : Optional.ofNullable(resolve(place));
  }

  /** Whether a stored object has an ownerReference to {@code ownerUid}. */
  boolean hasDependents(String ownerUid) {
    Set<Place> places = dependents.get(ownerUid);
    return places != null && !places.isEmpty();
  }

  /** The stored objects with an ownerReference to {@code ownerUid}, in store order. */
  List<StoredObject> dependentsOf(String ownerUid) {
    Set<Place> places = dependents.get(ownerUid);
    if (places == null || places.isEmpty()) {
      return new ArrayList<>();
    }
    List<Place> ordered = new ArrayList<>(places);
    if (ordered.size() > 1) {
      Comparator<String> collectionOrder = registry.storageOrder();
      ordered.sort(Comparator.comparing(Place::storageKey, collectionOrder).thenComparing(Place::key));
    }
    List<StoredObject> out = new ArrayList<>(ordered.size());
    for (Place place : ordered) {
      StoredObject object = resolve(place);
      if (object != null) {
        out.add(object);
      }
    }
    return out;
  }

  /** The stored objects of one namespace (every namespaced kind), in store order. */
  List<StoredObject> inNamespace(String namespace) {
    List<StoredObject> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (ResourceType type : registry.all()) {
      if (type.namespaced() && seen.add(type.storageKey())) {
        for (ObjectNode object : namespaceRange(type.storageKey(), namespace).values()) {
          out.add(new StoredObject(type, object));
        }
      }
    }
    return out;
  }

  /** Whether any object of any namespaced kind is stored in the namespace. */
  boolean anyInNamespace(String namespace) {
    Set<String> seen = new HashSet<>();
    for (ResourceType type : registry.all()) {
      if (type.namespaced() && seen.add(type.storageKey())
          && !namespaceRange(type.storageKey(), namespace).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The objects of one namespace in a namespaced collection: the keys {@code namespace/...}, which sort between
   * {@code namespace/} and {@code namespace0} ({@code '0'} follows {@code '/'}).
   */
  NavigableMap<String, ObjectNode> namespaceRange(String storageKey, String namespace) {
    NavigableMap<String, ObjectNode> objects = collections.get(storageKey);
    if (objects == null) {
      return java.util.Collections.emptyNavigableMap();
    }
    return objects.subMap(namespace + "/", true, namespace + "0", false);
  }

  private StoredObject resolve(Place place) {
    NavigableMap<String, ObjectNode> objects = collections.get(place.storageKey());
    ObjectNode object = objects == null ? null : objects.get(place.key());
    Optional<ResourceType> type = registry.byStorageKey(place.storageKey());
    return object == null || type.isEmpty() ? null : new StoredObject(type.get(), object);
  }

  /** The owner uids {@code after} names and {@code before} (if any) does not, in reference order. */
  static List<String> addedOwners(JsonNode before, JsonNode after) {
    Set<String> added = new LinkedHashSet<>(ownerUids(after));
    if (!added.isEmpty() && before != null) {
      added.removeAll(ownerUids(before));
    }
    return List.copyOf(added);
  }

  private static String uid(JsonNode object) {
    return object.path("metadata").path("uid").asText("");
  }

  private static Set<String> ownerUids(JsonNode object) {
    JsonNode refs = object.path("metadata").path("ownerReferences");
    if (refs.isEmpty()) {
      return Set.of();
    }
    Set<String> out = new LinkedHashSet<>();
    for (JsonNode ref : refs) {
      String uid = ref.path("uid").asText("");
      if (!uid.isEmpty()) {
        out.add(uid);
      }
    }
    return out;
  }
}
