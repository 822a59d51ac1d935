package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.admission.Admission;
import dev.ctk.fake.internal.apply.ApplyRequest;
import dev.ctk.fake.internal.apply.FieldOwner;
import dev.ctk.fake.internal.apply.FieldTracking;
import dev.ctk.fake.internal.common.SemanticEquality;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.select.FieldSelector;
import dev.ctk.fake.internal.select.LabelSelector;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.version.KubeMinor;
import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchEvent;
import dev.ctk.fake.internal.watch.WatchFilter;
import dev.ctk.fake.internal.watch.WatchHub;
import dev.ctk.fake.internal.watch.WatchSink;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The fake API server's storage: every object as an immutable JSON tree, one global resourceVersion counter, one
 * lock for all writes (simple and deterministic), and the {@link WatchHub} fed in commit order under that lock.
 *
 * <p>Objects handed out are the stored trees themselves: callers must treat them as read-only (copy before
 * changing). Within a collection, objects are kept in key order (namespace, then name), which is also list order,
 * as etcd orders them.
 *
 * <p>Custom resource kinds come and go with their CustomResourceDefinitions: see {@link CrdLifecycle}.
 *
 * <p>No request scans the whole store: reads by uid and by owner uid go through {@link ObjectIndex}, a namespace's
 * objects are one key range of each collection, and admission's allocations keep their own index
 * ({@link Admission#committed}); all are updated in {@code commit}, under the lock. Lists (with or without
 * selectors) read the collection, or the namespace's range of it.
 */
public final class ObjectStore {

  private final ReentrantLock lock = new ReentrantLock();
  private final ResourceRegistry registry;
  private final ObjectRules rules;
  private final WatchHub hub;
  private final CrdLifecycle crds;
  private final Admission admission;
  private final KubeMinor kubeMinor;
  private final FieldTracking fields;
  private final ListPager pager = new ListPager();
  private static final NavigableMap<String, ObjectNode> EMPTY = java.util.Collections.emptyNavigableMap();

  private final Map<String, NavigableMap<String, ObjectNode>> collections = new HashMap<>();
  private final ObjectIndex index;
  private long resourceVersion;
  private ChangeObserver changes = ChangeObserver.NONE;
  private final PastState past = new PastState();

  /**
   * Creates an empty store.
   *
   * @param registry the served resources (CRD writes register and unregister kinds in it)
   * @param rules metadata rules
   * @param watchHistoryLimit how many committed changes watches can resume from
   */
  public ObjectStore(ResourceRegistry registry, ObjectRules rules, int watchHistoryLimit) {
    this(registry, rules, watchHistoryLimit, KubeMinor.DEFAULT);
  }

  /**
   * A store emulating a Kubernetes minor version (see {@link KubeMinor}).
   *
   * @param registry the resource types
   * @param rules metadata rules
   * @param watchHistoryLimit watch events kept for resumption
   * @param kubeMinor the minor emulated
   */
  public ObjectStore(ResourceRegistry registry, ObjectRules rules, int watchHistoryLimit, KubeMinor kubeMinor) {
    this.kubeMinor = kubeMinor;
    this.fields = new FieldTracking(kubeMinor);
    this.admission = new Admission(kubeMinor);
    this.registry = registry;
    this.rules = rules;
    this.hub = new WatchHub(watchHistoryLimit, 0);
    this.crds = new CrdLifecycle(registry, rules, hub);
    this.index = new ObjectIndex(registry, collections);
  }

  /**
   * Sets who is told about deletions and new owner references (the garbage collector), {@link ChangeObserver#NONE}
   * for a bare API server.
   */
  public void observeChanges(ChangeObserver observer) {
    locked(() -> {
      this.changes = java.util.Objects.requireNonNull(observer, "observer");
      return null;
    });
  }

  /** The Kubernetes minor version this store emulates. */
  public KubeMinor kubeMinor() {
    return kubeMinor;
  }

  /** The served resources. */
  public ResourceRegistry registry() {
    return registry;
  }

  /** Now, as the store writes timestamps (RFC 3339, whole seconds, from the cluster's clock). */
  public String now() {
    return rules.now();
  }

  /** The current global resourceVersion (that of the last committed change). */
  public long resourceVersion() {
    return locked(() -> resourceVersion);
  }

  /** Defaulting, validation and the test's admission hooks (register hooks through it before serving). */
  public Admission admission() {
    return admission;
  }

  /** The watch fan-out (for inspection; open watches through {@link #watch}). */
  public WatchHub watchHub() {
    return hub;
  }

  /**
   * Reads one object.
   *
   * @throws ApiError 404 when absent
   */
  public ObjectNode get(ResourceType type, String namespace, String name) {
    return locked(() -> {
      requireServed(type);
      ObjectNode object = readScope(type, namespace).get(key(type, namespace, name));
      if (object == null) {
        throw ApiError.notFound(type, name);
      }
      return object;
    });
  }

  /** Runs {@code read} with {@link #get} and {@link #list} answering the state at a resourceVersion on this thread. */
  public <R> R readAt(long resourceVersion, Supplier<R> read) {
    return past.readAt(resourceVersion, read);
  }

  /** Whether an object exists. */
  public boolean exists(ResourceType type, String namespace, String name) {
    return locked(() -> served(type) && collection(type).containsKey(key(type, namespace, name)));
  }

  /**
   * Lists a collection (all namespaces when {@code namespace} is null), one page at a time.
   *
   * @param limit page size, {@code <= 0} for everything
   * @param continueToken the previous page's token, or {@code null} for the first page
   * @throws ApiError 410 for an expired continue token, 400 for a malformed one
   */
  public ListResult list(ResourceType type, String namespace, LabelSelector labels, FieldSelector fields,
      long limit, String continueToken) {
    return locked(() -> {
      requireServed(type);
      if (continueToken != null && !continueToken.isEmpty()) {
        return pager.nextPage(type.storageKey(), continueToken, limit);
      }
      boolean countRemaining = labels.isEverything() && (fields == null || fields.isEverything());
      Collection<ObjectNode> scope = readScope(type, namespace).values();
      List<ObjectNode> selected;
      if (countRemaining) {
        selected = new ArrayList<>(scope);   // no selector: the scope is the namespace (or all), nothing to match
      } else {
        WatchFilter filter = new WatchFilter(type.storageKey(), namespace, labels, fields);
        selected = new ArrayList<>();
        for (ObjectNode object : scope) {
          if (filter.matches(object)) {
            selected.add(object);
          }
        }
      }
      return pager.firstPage(type.storageKey(), selected, past.resourceVersion(resourceVersion), limit,
          countRemaining);
    });
  }

  /**
   * Creates an object.
   *
   * @param body the object sent (not modified)
   * @return the stored object
   * @throws ApiError 404 missing namespace, 409 AlreadyExists, 400/422/500 as the rules decide
   */
  public ObjectNode create(ResourceType type, String namespace, ObjectNode body, WriteOptions options) {
    return create(type, namespace, body, options, FieldOwner.NONE);
  }

  /**
   * Creates an object and records {@code owner} in its {@code metadata.managedFields}.
   *
   * @see #create(ResourceType, String, ObjectNode, WriteOptions)
   */
  public ObjectNode create(ResourceType type, String namespace, ObjectNode body, WriteOptions options,
      FieldOwner owner) {
    return locked(() -> {
      requireServed(type);
      expectEvent(type, namespace, options);
      JsonNode sentFields = body.path("metadata").get("managedFields");
      return createLocked(type, namespace, body, options, object -> fields.onCreate(type, object, sentFields, owner,
          options.seeding(), crdOf(type), rules.now()));
    });
  }

  private ObjectNode createLocked(ResourceType type, String namespace, ObjectNode body, WriteOptions options,
      Consumer<ObjectNode> stampFields) {
    ObjectNode object = type.toStorage(body.deepCopy());
    if (options.seeding() && object.path("metadata") instanceof ObjectNode meta) {
      meta.remove("resourceVersion");
    }
    if (type.namespaced()) {
      NamespaceLifecycle.checkAcceptsContent(type, requireNamespace(namespace), object);
    }
    admission.defaults(type, object);
    ObjectRules.dedupOwnerReferences(object);   // before mutating admission and after it, as kube's create handler
    admission.mutateCreate(type, namespace, object, options);
    ObjectRules.dedupOwnerReferences(object);
    rules.prepareForCreate(type, namespace, object, options.seeding(),
        candidate -> collection(type).containsKey(key(type, namespace, candidate)));
    BuiltinEncoding.normalize(type, object);
    stampFields.accept(object);
    admission.admitCreate(type, object);
    admission.validateCreate(type, object, options);
    String name = object.path("metadata").path("name").asText();
    if (collection(type).containsKey(key(type, namespace, name))) {
      throw ApiError.alreadyExists(type, name);
    }
    crds.beforeCreate(type, object);
    if (options.dryRun()) {
      return object;
    }
    ObjectNode stored = commit(type, WatchEvent.ADDED, null, object);
    crds.afterWrite(type, stored);
    return stored;
  }

  /**
   * Replaces an object (PUT), or its status when {@code subresource} is {@code "status"}.
   *
   * @return the stored object (the current one, unchanged, when the update changes nothing; the object as updated,
   *     at its previous resourceVersion, when the update removed the last finalizer of an object being deleted and
   *     so deleted it)
   * @throws ApiError 404, 409 Conflict on a stale resourceVersion, 400/422 as the rules decide
   */
  public ObjectNode update(ResourceType type, String namespace, String name, ObjectNode body, String subresource,
      WriteOptions options) {
    return update(type, namespace, name, body, subresource, options, FieldOwner.NONE);
  }

  /** Replaces an object and records {@code owner} in its {@code metadata.managedFields}. */
  public ObjectNode update(ResourceType type, String namespace, String name, ObjectNode body, String subresource,
      WriteOptions options, FieldOwner owner) {
    return locked(() -> {
      requireServed(type);
      expectEvent(type, namespace, options);
      ObjectNode current = require(type, namespace, name);
      ObjectNode sent = type.toStorage(body.deepCopy());
      if (!options.seeding()) {
        rules.checkNamed(current, sent);
        rules.checkUid(type, current, sent);
        rules.checkResourceVersion(type, current, sent);
      }
      return write(type, current, sent, subresource, options, tracked(type, subresource, options, owner, sent));
    });
  }

  /**
   * Patches an object: {@code patch} turns a private copy of the current object into the desired one, which is
   * then written as an update whose resourceVersion precondition is whatever the patched object carries.
   *
   * @throws ApiError 404, 409, or whatever {@code patch} throws
   */
  public ObjectNode patch(ResourceType type, String namespace, String name, String subresource,
      UnaryOperator<ObjectNode> patch, WriteOptions options) {
    return patch(type, namespace, name, subresource, patch, options, FieldOwner.NONE);
  }

  /** Patches an object and records {@code owner} in its {@code metadata.managedFields}. */
  public ObjectNode patch(ResourceType type, String namespace, String name, String subresource,
      UnaryOperator<ObjectNode> patch, WriteOptions options, FieldOwner owner) {
    return locked(() -> {
      requireServed(type);
      expectEvent(type, namespace, options);
      ObjectNode current = require(type, namespace, name);
      ObjectNode patched = type.toStorage(patch.apply(copyAsServed(type, current)));
      // the patched object's resourceVersion is the precondition: a stale one conflicts, and one the patch removed
      // is refused for kinds that allow no unconditional update (custom resources), as kube's store does
      if (!options.seeding()) {
        rules.checkNamed(current, patched);
      }
      if (!options.seeding() || !patched.path("metadata").path("resourceVersion").asText("").isEmpty()) {
        rules.checkResourceVersion(type, current, patched);
      }
      return write(type, current, patched, subresource, options, tracked(type, subresource, options, owner, patched));
    });
  }

  /** What {@link #apply} did: the object as stored (or as it would be, for dryRun), and whether it created it. */
  public record Applied(ObjectNode object, boolean created) {
  }

  /**
   * Server-side apply: merges the applied configuration into the object (creating it when absent, on the main
   * resource) and writes the result as an update would, with the applier's managedFields entry.
   *
   * @param subresource {@code status} or {@code null}
   * @throws ApiError 404 (a missing object on {@code status}, a missing namespace), 409 field manager conflicts or a
   *     stale resourceVersion, and whatever an update or create throws
   */
  public Applied apply(ResourceType type, String namespace, String name, String subresource, ApplyRequest request,
      WriteOptions options) {
    return locked(() -> {
      requireServed(type);
      expectEvent(type, namespace, options);
      ObjectNode current = collection(type).get(key(type, namespace, name));
      if (current == null && subresource != null) {
        throw ApiError.notFound(type, name);
      }
      FieldTracking.AppliedObject applied = fields.apply(type, current == null ? null : type.fromStorage(current),
          request, type.namespaced() ? namespace : null, name, subresource, crdOf(type), rules.now());
      if (current == null) {
        // kube-apiserver creates by apply even when the configuration names a resourceVersion (Java Operator SDK
        // sends one to mean "create only"); an existing object is checked against it below instead
        ObjectNode created = applied.object();
        ((ObjectNode) created.path("metadata")).remove("resourceVersion");
        return new Applied(createLocked(type, namespace, created, options, applied::stamp), true);
      }
      ObjectNode patched = type.toStorage(applied.object());
      if (!patched.path("metadata").path("resourceVersion").asText("").isEmpty()) {
        rules.checkResourceVersion(type, current, patched);
      }
      return new Applied(write(type, current, patched, subresource, options,
          (before, next) -> applied.stamp(next)), false);
    });
  }

  /**
   * Deletes an object with API semantics: without finalizers it is removed (DELETED); with finalizers it gets
   * {@code deletionTimestamp} (MODIFIED) and stays until an update removes the last finalizer.
   *
   * @return the object as removed, or as marked for deletion
   * @throws ApiError 404, 409 Conflict when a precondition fails
   */
  public ObjectNode delete(ResourceType type, String namespace, String name, DeletePreconditions preconditions,
      WriteOptions options) {
    return delete(type, namespace, name, preconditions, options, PropagationPolicy.BACKGROUND).object();
  }

  /**
   * What a delete did: the object as it left the store (or, for dryRun, as it would have), or as marked for deletion,
   * and which of the two. kube answers a removal with a {@code Status} of {@code Success} (most kinds) and a marking
   * with the object.
   *
   * @param object the object as removed, or as marked (or still being deleted)
   * @param removed whether the object left the store (or would have, for dryRun)
   */
  public record Deleted(ObjectNode object, boolean removed) {
  }

  /**
   * Deletes an object as {@link #delete(ResourceType, String, String, DeletePreconditions, WriteOptions)} does,
   * with a propagation policy: Foreground and Orphan add their finalizer ({@code foregroundDeletion},
   * {@code orphan}), so the object stays marked until the garbage collector (if any) removes it. A Namespace is
   * always marked Terminating (held by {@code spec.finalizers: [kubernetes]}).
   *
   * @return the object as removed, or as marked for deletion, and which of the two
   * @throws ApiError 404, 409 Conflict when a precondition fails
   */
  public Deleted delete(ResourceType type, String namespace, String name, DeletePreconditions preconditions,
      WriteOptions options, PropagationPolicy policy) {
    return locked(() -> {
      requireServed(type);
      expectEvent(type, namespace, options);
      ObjectNode current = require(type, namespace, name);
      preconditions.check(type, current);
      return deleteLocked(type, current, options, policy);
    });
  }

  /**
   * Deletes every selected object of a collection (delete semantics per object, in list order).
   *
   * @return the objects as removed or marked for deletion
   */
  public List<ObjectNode> deleteCollection(ResourceType type, String namespace, LabelSelector labels,
      FieldSelector fields, WriteOptions options) {
    return deleteCollection(type, namespace, labels, fields, options, PropagationPolicy.BACKGROUND);
  }

  /** Deletes every selected object of a collection, each with the given propagation policy. */
  public List<ObjectNode> deleteCollection(ResourceType type, String namespace, LabelSelector labels,
      FieldSelector fields, WriteOptions options, PropagationPolicy policy) {
    return locked(() -> {
      requireServed(type);
      expectEvent(type, namespace, options);
      WatchFilter filter = new WatchFilter(type.storageKey(), namespace, labels, fields);
      List<ObjectNode> out = new ArrayList<>();
      for (ObjectNode object : new ArrayList<>(scope(type, namespace).values())) {
        if (filter.matches(object)) {
          out.add(deleteLocked(type, object, options, policy).object());
        }
      }
      return out;
    });
  }

  /**
   * Opens a watch, atomically with respect to writes.
   *
   * @param type the resource, as served on the request (events carry its apiVersion)
   * @param filter what to select
   * @param start where to start
   * @param sink where events go
   * @return the watch (already closed if it started with a 410 ERROR)
   */
  public Watch watch(ResourceType type, WatchFilter filter, WatchStart start, WatchSink sink) {
    return locked(() -> {
      requireServed(type);
      if (start.fromNow()) {
        return hub.openFrom(resourceVersion, resourceVersion, filter, type, sink);
      }
      if (start.resourceVersion() == null) {
        List<ObjectNode> current = new ArrayList<>(scope(type, filter.namespace()).values());
        ObjectNode end = start.sendInitialEvents() ? bookmark(type, initialEventsEnd(type)) : null;
        return hub.openWithInitialState(filter, type, sink, current, end);
      }
      return hub.openFrom(start.resourceVersion(), resourceVersion, filter, type, sink);
    });
  }

  /**
   * Sends a synthetic event (not stored, not in history) to every open watch that selects the object.
   *
   * @param resourceVersion the resourceVersion the event carries, exactly; {@code null} for the larger of the
   *     object's own (when it is a number) and the current global one, so a client that records it never moves
   *     back in time
   */
  public void emitSynthetic(ResourceType type, String eventType, ObjectNode object, String resourceVersion) {
    locked(() -> {
      requireServed(type);
      ObjectNode copy = object.deepCopy();
      if (copy.path("metadata") instanceof ObjectNode meta) {
        meta.put("resourceVersion", resourceVersion != null ? resourceVersion
            : Long.toString(Math.max(numeric(meta.path("resourceVersion").asText("")), this.resourceVersion)));
      }
      hub.emitSynthetic(type.storageKey(), eventType, copy);
      return null;
    });
  }

  /**
   * Runs several store calls as one transaction: no other writer (and no watch registration) interleaves with
   * them. The lock is re-entrant, so {@code action} calls the ordinary methods. Writes are committed as they
   * happen (watchers see them); a caller that must undo them uses {@link #rollBack}.
   */
  public <R> R inTransaction(Supplier<R> action) {
    return locked(action);
  }

  /** Whether the calling thread holds the store lock (it runs inside a transaction, an admission hook, a callback). */
  public boolean isLockedByCurrentThread() { return lock.isHeldByCurrentThread(); }

  /**
   * Removes an object written earlier in the same transaction, ignoring finalizers, as the undo of a failed batch.
   * Watchers see a DELETED event; removing a CRD removes its kind and objects, as a delete would.
   *
   * @param type the object's resource type
   * @param written the object as the store returned it when it was written
   */
  public void rollBack(ResourceType type, ObjectNode written) {
    locked(() -> {
      String namespace = type.namespaced() ? written.path("metadata").path("namespace").asText(null) : null;
      ObjectNode current = served(type)
          ? collection(type).get(key(type, namespace, written.path("metadata").path("name").asText()))
          : null;
      return current == null ? null : remove(type, current);
    });
  }

  /**
   * Every stored object with its resource type (the first served version of its kind), collections in registry
   * order, objects in key order: a snapshot for the garbage collector.
   */
  public List<StoredObject> objects() {
    return locked(() -> {
      List<StoredObject> out = new ArrayList<>();
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (ResourceType type : registry.all()) {
        if (seen.add(type.storageKey())) {
          for (ObjectNode object : collection(type).values()) {
            out.add(new StoredObject(type, object));
          }
        }
      }
      return out;
    });
  }

  /** The stored object with this uid, if any (an index lookup). */
  public java.util.Optional<StoredObject> byUid(String uid) {
    return locked(() -> index.byUid(uid));
  }

  /**
   * The stored objects whose {@code metadata.ownerReferences} name {@code ownerUid}, in {@link #objects()} order
   * (an index lookup: the cost is the number of dependents, not of stored objects).
   */
  public List<StoredObject> dependentsOf(String ownerUid) {
    return locked(() -> index.dependentsOf(ownerUid));
  }

  /** Whether a stored object's {@code metadata.ownerReferences} name {@code ownerUid} (an index lookup). */
  public boolean hasDependents(String ownerUid) {
    return locked(() -> index.hasDependents(ownerUid));
  }

  /** The stored objects of one namespace (every namespaced kind), in {@link #objects()} order. */
  public List<StoredObject> objectsIn(String namespace) {
    return locked(() -> index.inNamespace(namespace));
  }

  /** Whether any object of a namespaced kind is stored in {@code namespace}. */
  public boolean hasObjectsIn(String namespace) {
    return locked(() -> index.anyInNamespace(namespace));
  }

  /** The stored object of {@code type} with this namespace ({@code null} for cluster-scoped kinds) and name. */
  public java.util.Optional<StoredObject> find(ResourceType type, String namespace, String name) {
    return locked(() -> java.util.Optional.ofNullable(collection(type).get(key(type, namespace, name)))
        .map(object -> new StoredObject(registry.byStorageKey(type.storageKey()).orElse(type), object)));
  }

  /**
   * The annotations of the BOOKMARK ending a watch-list's initial events: {@code k8s.io/initial-events-end}, and
   * before 1.34 also {@code kubernetes.io/initial-events-list-blueprint}, the empty list of the kind as kube's JSON
   * encoder writes it, base64-encoded.
   */
  private Map<String, String> initialEventsEnd(ResourceType type) {
    if (!kubeMinor.initialEventsListBlueprint()) {
      return Map.of("k8s.io/initial-events-end", "true");
    }
    // a built-in kind's typed list, and a custom resource's unstructured one (keys sorted, items empty), as Go's
    // encoders write them
    String emptyList = type.custom()
        ? "{\"apiVersion\":\"" + type.apiVersion() + "\",\"items\":[],\"kind\":\"" + type.kind() + "List\"}\n"
        : "{\"kind\":\"" + type.kind() + "List\",\"apiVersion\":\"" + type.apiVersion()
            + "\",\"metadata\":{},\"items\":null}\n";
    Map<String, String> annotations = new java.util.LinkedHashMap<>();
    annotations.put("k8s.io/initial-events-end", "true");
    annotations.put("kubernetes.io/initial-events-list-blueprint", java.util.Base64.getEncoder()
        .encodeToString(emptyList.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    return annotations;
  }

  /** A BOOKMARK object for a resource at the current resourceVersion. */
  public ObjectNode bookmark(ResourceType type, Map<String, String> annotations) {
    return locked(() -> {
      ObjectNode bookmark = new ObjectNode(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance);
      bookmark.put("kind", type.kind());
      bookmark.put("apiVersion", type.apiVersion());
      ObjectNode meta = bookmark.putObject("metadata");
      meta.put("resourceVersion", Long.toString(resourceVersion));
      if (!annotations.isEmpty()) {
        ObjectNode a = meta.putObject("annotations");
        annotations.forEach(a::put);
      }
      return bookmark;
    });
  }

  /** Closes every open watch and refuses new ones (the server is shutting down). */
  public void closeWatches() {
    locked(() -> {
      hub.shutDown();
      return null;
    });
  }

  // ---- internals (lock held) ----

  /** Sets the managedFields of the object an update stores, given the current one. */
  private interface FieldStamp {
    void stamp(ObjectNode current, ObjectNode next);
  }

  private FieldStamp tracked(ResourceType type, String subresource, WriteOptions options, FieldOwner owner,
      ObjectNode sent) {
    JsonNode sentFields = sent.path("metadata").get("managedFields");
    JsonNode sentCopy = sentFields == null ? null : sentFields.deepCopy();
    return (current, next) -> fields.onUpdate(type, current, next, sentCopy, owner, subresource, options.seeding(),
        crdOf(type), rules.now());
  }

  /**
   * A private copy of a stored object in the form a patch on {@code type} sees it (kube patches the object as the
   * request's resource serves it; {@link ResourceType#toStorage} takes the result back).
   */
  private static ObjectNode copyAsServed(ResourceType type, ObjectNode current) {
    ObjectNode served = type.fromStorage(current);
    if (served == current) {
      return current.deepCopy();
    }
    served.put("apiVersion", type.apiVersion());
    return served;
  }

  /** The CustomResourceDefinition of a custom resource (its schema says how lists merge), else {@code null}. */
  private JsonNode crdOf(ResourceType type) {
    if (!type.custom()) {
      return null;
    }
    return registry.byPath("apiextensions.k8s.io", "v1", "customresourcedefinitions")
        .map(crdType -> (JsonNode) collection(crdType).get(type.plural() + "." + type.group()))
        .orElse(null);
  }

  private ObjectNode write(ResourceType type, ObjectNode current, ObjectNode sent, String subresource,
      WriteOptions options, FieldStamp stampFields) {
    if (!"status".equals(subresource)) {
      admission.defaults(type, sent);
    }
    admission.mutateUpdate(type, current, sent, subresource, options);
    ObjectNode next = rules.prepareForUpdate(type, current, sent, subresource, options.seeding());
    ObjectRules.dedupOwnerReferences(next);
    BuiltinEncoding.normalize(type, next);
    stampFields.stamp(current, next);
    admission.admitUpdate(type, current, next, subresource);
    admission.validateUpdate(type, current, next, subresource, options);
    crds.beforeUpdate(type, current, next);
    FieldTracking.keepTimesWhenUnchanged(current, next);
    if (SemanticEquality.equal(current, next)) {
      return current;
    }
    if (options.dryRun()) {
      return next;
    }
    if (NamespaceLifecycle.readyToRemove(next)) {
      // as kube: the object is deleted as it was last stored (the update's other changes are dropped), and the
      // update answers the object it asked for, at the resourceVersion it had, as clients expect of a PUT
      remove(type, current);
      return next;
    }
    ObjectNode stored = commit(type, WatchEvent.MODIFIED, current, next);
    crds.afterWrite(type, stored);
    return stored;
  }

  private Deleted deleteLocked(ResourceType type, ObjectNode current, WriteOptions options,
      PropagationPolicy policy) {
    if (NamespaceLifecycle.isNamespace(type)) {
      NamespaceLifecycle.checkMayBeDeleted(current.path("metadata").path("name").asText());
    }
    admission.admitDelete(type, current, options);
    boolean deleting = current.path("metadata").hasNonNull("deletionTimestamp");
    if (NamespaceLifecycle.isNamespace(type)) {
      return new Deleted(deleting ? current : markForDeletion(type, current,
          NamespaceLifecycle.markTerminating(rules, current), options), false);
    }
    List<String> finalizers = policy.finalizersOnDelete(ObjectRules.finalizers(current),
        PropagationPolicy.KindPolicy.of(type.group(), type.kind()));
    if (deleting && finalizers.equals(ObjectRules.finalizers(current))) {
      return new Deleted(current, false);
    }
    if (finalizers.isEmpty()) {
      // as kube: nothing holds the object (any more), so it goes as last stored
      return new Deleted(options.dryRun() ? current : remove(type, current), true);
    }
    ObjectNode marked = deleting ? current.deepCopy() : rules.markDeleting(current);
    ArrayNode array = ((ObjectNode) marked.get("metadata")).putArray("finalizers");
    finalizers.forEach(array::add);
    return new Deleted(markForDeletion(type, current, marked, options), false);
  }

  private ObjectNode markForDeletion(ResourceType type, ObjectNode current, ObjectNode marked, WriteOptions options) {
    if (options.dryRun()) {
      return marked;
    }
    ObjectNode stored = commit(type, WatchEvent.MODIFIED, current, marked);
    changes.markedForDeletion(type, stored);
    return stored;
  }

  private ObjectNode remove(ResourceType type, ObjectNode last) {
    crds.beforeRemove(type, last, this::removeAllOf);
    ObjectNode removed = commit(type, WatchEvent.DELETED, last, last);
    crds.afterRemove(type, removed);
    changes.removed(type, removed);
    return removed;
  }

  /** Removes every object of a collection (a CRD going away), one DELETED event each. */
  private void removeAllOf(ResourceType type) {
    for (ObjectNode object : new ArrayList<>(collection(type).values())) {
      commit(type, WatchEvent.DELETED, object, object);
    }
    collections.remove(type.storageKey());
    hub.closeAll(type.storageKey());
  }

  /**
   * A write that may commit a change has begun (not a dryRun): the in-process watches that may see it can wake their
   * delivery threads now, so that the wake-up overlaps the write's work ({@link WatchHub#expectEvent}).
   *
   * @param namespace the write's namespace ({@code null}: cluster-scoped, or every namespace)
   */
  private void expectEvent(ResourceType type, String namespace, WriteOptions options) {
    if (!options.dryRun()) {
      hub.expectEvent(type.storageKey(), type.namespaced() ? namespace : null);
    }
  }

  /** Assigns the next resourceVersion, stores (or removes) the object and publishes the event. */
  private ObjectNode commit(ResourceType type, String eventType, ObjectNode previous, ObjectNode object) {
    if (!WatchEvent.DELETED.equals(eventType)) {
      StorageLimits.check(type, object);
    }
    long rv = ++resourceVersion;
    StoredNode stamped = StoredNode.copyOf(object);
    ((ObjectNode) stamped.get("metadata")).put("resourceVersion", Long.toString(rv));
    stamped.shareCommonParts();
    String key = key(type, stamped.path("metadata").path("namespace").asText(null),
        stamped.path("metadata").path("name").asText());
    boolean deleted = WatchEvent.DELETED.equals(eventType);
    ObjectNode replaced;
    if (deleted) {
      NavigableMap<String, ObjectNode> objects = collections.get(type.storageKey());
      replaced = objects == null ? null : objects.remove(key);
    } else {
      replaced = collections.computeIfAbsent(type.storageKey(), k -> new TreeMap<>()).put(key, stamped);
    }
    // the event first, the bookkeeping next: what a write does before its event is queued delays every informer
    // (see BENCHMARKS.md), and nothing reads the indexes before the store lock is released
    try {
      hub.publish(new WatchEvent(type.storageKey(), eventType, stamped,
          WatchEvent.ADDED.equals(eventType) ? null : previous, rv));
    } finally {
      ObjectNode after = deleted ? null : stamped;
      index.changed(type.storageKey(), key, replaced, after);
      admission.committed(type, replaced, after);
    }
    if (!deleted) {
      List<String> added = ObjectIndex.addedOwners(replaced, stamped);
      if (!added.isEmpty()) {
        changes.ownerReferencesAdded(type, stamped, added);
      }
    }
    return stamped;
  }


  private ObjectNode requireNamespace(String namespace) {
    ResourceType namespaces = registry.byPath("", "v1", "namespaces").orElseThrow();
    ObjectNode object = namespace == null ? null : collection(namespaces).get(namespace);
    if (object == null) {
      throw ApiError.notFound("", "namespaces", namespace == null ? "" : namespace);
    }
    return object;
  }

  private ObjectNode require(ResourceType type, String namespace, String name) {
    ObjectNode object = collection(type).get(key(type, namespace, name));
    if (object == null) {
      throw ApiError.notFound(type, name);
    }
    return object;
  }

  /**
   * The part of a collection a request in {@code namespace} can select: the namespace's key range for a namespaced
   * kind, else the whole collection.
   */
  private NavigableMap<String, ObjectNode> scope(ResourceType type, String namespace) {
    return type.namespaced() && namespace != null ? index.namespaceRange(type.storageKey(), namespace)
        : collection(type);
  }

  /** {@link #scope} as of the thread's {@link #readAt} resourceVersion, if any. */
  private NavigableMap<String, ObjectNode> readScope(ResourceType type, String namespace) {
    return past.scope(type, namespace, scope(type, namespace), resourceVersion, hub);
  }

  /** A collection for reading: never creates one (an empty view when the kind has no object). */
  private NavigableMap<String, ObjectNode> collection(ResourceType type) {
    return collections.getOrDefault(type.storageKey(), EMPTY);
  }

  /**
   * Whether the type is still served. Requests resolve their type before taking the lock; a CRD deleted meanwhile
   * must not leave them writing into (or reading from) a kind that is gone.
   */
  private boolean served(ResourceType type) {
    return registry.byPath(type.group(), type.version(), type.plural())
        .filter(t -> t.storageKey().equals(type.storageKey())).isPresent();
  }

  private void requireServed(ResourceType type) {
    if (!served(type)) {
      throw ApiError.unknownResource();
    }
  }

  private static long numeric(String resourceVersion) {
    try {
      return Long.parseLong(resourceVersion);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String key(ResourceType type, String namespace, String name) {
    return type.namespaced() ? namespace + "/" + name : name;
  }

  private <R> R locked(Supplier<R> action) {
    lock.lock();
    try {
      return action.get();
    } finally {
      lock.unlock();
    }
  }
}
