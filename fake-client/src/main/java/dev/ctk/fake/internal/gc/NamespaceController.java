package dev.ctk.fake.internal.gc;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.store.NamespaceLifecycle;
import dev.ctk.fake.internal.store.PropagationPolicy;
import dev.ctk.fake.internal.store.StoredObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's namespace controller: a deleted (Terminating) Namespace is emptied, then its {@code kubernetes} spec
 * finalizer is removed, which removes it. As in kube-controller-manager it starts a grace period after the delete
 * (kube's {@code namespaceDeletionGracePeriod}, 5 seconds, measured on the cluster's time source), deletes every
 * object in the namespace (Background), writes the namespace's status conditions, and finalizes the namespace when
 * nothing is left. Where kube polls a namespace whose content is still held by finalizers (every 5 to 8 seconds),
 * the fake passes again as soon as an object of that namespace goes.
 *
 * <p>Each pass runs as one store transaction, so no write interleaves between "what is left" and the decision it
 * leads to.
 */
final class NamespaceController {

  private final CollectorWrites writes;
  private final CollectorQueue queue;
  private final Duration gracePeriod;
  /** Namespaces emptied once, still holding content: name to uid. */
  private final Map<String, String> awaitingContent = new ConcurrentHashMap<>();

  NamespaceController(CollectorWrites writes, CollectorQueue queue, Duration gracePeriod) {
    this.writes = writes;
    this.queue = queue;
    this.gracePeriod = gracePeriod;
  }

  /** A Namespace was marked for deletion: its first pass starts after the grace period. */
  void deleted(ObjectNode namespace) {
    String name = namespace.path("metadata").path("name").asText();
    String when = (gracePeriod.toMillis() % 1000 == 0 ? gracePeriod.toSeconds() + "s" : gracePeriod.toMillis()
        + "ms") + " after its delete at " + namespace.path("metadata").path("deletionTimestamp").asText()
        + ", the namespace controller's grace period";
    queue.addAfter(gracePeriod, pass(name, CollectorWrites.uidOf(namespace)), when);
  }

  /** An object of {@code namespace} went: a namespace waiting for its content gets another pass. */
  void contentRemoved(String namespace) {
    String uid = awaitingContent.get(namespace);
    if (uid != null) {
      queue.add(pass(namespace, uid));
    }
  }

  /** The Namespace itself went. */
  void removed(String namespace) {
    awaitingContent.remove(namespace);
  }

  private WorkItem pass(String name, String uid) {
    return new WorkItem("namespace/" + name, "empty and remove namespace " + name,
        () -> writes.store().inTransaction(() -> {
          sync(name, uid);
          return null;
        }));
  }

  private void sync(String name, String uid) {
    Optional<StoredObject> found = namespace(name);
    if (found.isEmpty() || !found.get().uid().equals(uid)
        || !found.get().object().path("metadata").hasNonNull("deletionTimestamp")) {
      awaitingContent.remove(name);
      return;
    }
    if (found.get().object().path("spec").path("finalizers").isEmpty()) {
      return;
    }
    Map<String, String> refusals = new LinkedHashMap<>();
    for (StoredObject object : writes.store().objectsIn(name)) {
      writes.delete(object, PropagationPolicy.BACKGROUND).filter(e -> e.code() != 404 && e.code() != 409)
          .ifPresent(e -> refusals.putIfAbsent(object.type().storageKey(), e.getMessage()));
    }
    List<StoredObject> remaining = writes.store().objectsIn(name);
    NamespaceConditions.after(found.get().object().path("status").path("conditions"), remaining,
        new ArrayList<>(refusals.values()), writes.store().now())
        .ifPresent(conditions -> writes.update(found.get(), "status", copy -> {
          ObjectNode status = copy.path("status") instanceof ObjectNode s ? s : copy.putObject("status");
          status.set("conditions", conditions);
          return copy;
        }));
    if (!remaining.isEmpty() || !refusals.isEmpty()) {
      awaitingContent.put(name, uid);
      return;
    }
    awaitingContent.remove(name);
    writes.update(found.get(), copy -> {
      if (copy.path("spec").path("finalizers") instanceof ArrayNode finalizers) {
        CollectorWrites.removeText(finalizers, NamespaceLifecycle.KUBERNETES_FINALIZER);
      }
      return copy;
    });
  }

  private Optional<StoredObject> namespace(String name) {
    return writes.store().registry().byPath("", "v1", "namespaces")
        .flatMap(type -> writes.store().find(type, null, name));
  }
}
