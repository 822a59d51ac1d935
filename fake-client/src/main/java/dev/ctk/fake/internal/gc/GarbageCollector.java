package dev.ctk.fake.internal.gc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.controller.internal.DurationText;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.store.ChangeObserver;
import dev.ctk.fake.internal.store.NamespaceLifecycle;
import dev.ctk.fake.internal.store.ObjectRules;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.store.PropagationPolicy;
import dev.ctk.fake.internal.store.StoredObject;
import dev.ctk.fake.values.FakeClusterException;
import dev.ctk.fake.values.GarbageCollection;
import java.time.Duration;
import java.util.List;

/**
 * The parts of kube-controller-manager that act on deletions and owner references: the ownerReference garbage
 * collector ({@link OwnerCascade} for Background, Foreground and Orphan deletion, {@link DanglingOwners} for objects
 * whose owners do not exist) and the namespace controller ({@link NamespaceController}).
 *
 * <p>The store tells it about each change under its lock; it only queues the work there ({@link CollectorQueue}),
 * which its own thread does afterwards, one item at a time, each step an ordinary store write with its watch event
 * (MODIFIED when a reference or finalizer goes, DELETED when an object goes). Synchronous, the queue is run dry before
 * the store call that started it returns, as the fake always did.
 *
 * <pre>{@code
 * GarbageCollector collector = GarbageCollector.attachTo(store, settings, "ctk-fake-1-gc");
 * collector.awaitSettled(Duration.ofSeconds(5), "ctk-fake-1");
 * }</pre>
 */
public final class GarbageCollector implements ChangeObserver, AutoCloseable {

  private final CollectorQueue queue;
  private final CollectorWrites writes;
  private final OwnerCascade cascade;
  private final DanglingOwners dangling;
  private final NamespaceController namespaces;
  private final GarbageCollection mode;

  private GarbageCollector(ObjectStore store, CollectorSettings settings, String threadName) {
    this.mode = settings.mode();
    boolean synchronous = mode == GarbageCollection.SYNCHRONOUS;
    this.queue = new CollectorQueue(synchronous, settings.time(), threadName);
    this.writes = new CollectorWrites(store);
    this.cascade = new OwnerCascade(writes);
    this.dangling = new DanglingOwners(writes);
    this.namespaces = new NamespaceController(writes, queue,
        synchronous ? Duration.ZERO : settings.namespaceGracePeriod());
  }

  /**
   * Creates a collector and attaches it to the store.
   *
   * @param settings how it runs; {@link GarbageCollection#OFF} is refused (attach none)
   * @param threadName the name of its thread, e.g. {@code ctk-fake-3-gc}
   */
  public static GarbageCollector attachTo(ObjectStore store, CollectorSettings settings, String threadName) {
    if (settings.mode() == GarbageCollection.OFF) {
      throw new IllegalArgumentException("a garbage collector that is OFF is not attached; attach none");
    }
    GarbageCollector collector = new GarbageCollector(store, settings, threadName);
    store.observeChanges(collector);
    return collector;
  }

  @Override
  public void markedForDeletion(ResourceType type, ObjectNode object) {
    if (NamespaceLifecycle.isNamespace(type)) {
      namespaces.deleted(object);
      return;
    }
    String uid = CollectorWrites.uidOf(object);
    String who = CollectorWrites.describe(new StoredObject(type, object));
    List<String> finalizers = ObjectRules.finalizers(object);
    if (finalizers.contains(PropagationPolicy.ORPHAN_FINALIZER)) {
      queue.add(new WorkItem("orphan/" + uid, "orphan the dependents of " + who + " (Orphan deletion)",
          () -> cascade.orphanDependents(uid)));
    } else if (finalizers.contains(PropagationPolicy.FOREGROUND_FINALIZER)) {
      queue.add(new WorkItem("foreground/" + uid, "delete the dependents of " + who + " first (Foreground "
          + "deletion)", () -> cascade.deleteDependentsFirst(uid)));
    }
  }

  @Override
  public void removed(ResourceType type, ObjectNode object) {
    String uid = CollectorWrites.uidOf(object);
    List<String> owners = CollectorWrites.ownerUids(object);
    StoredObject gone = new StoredObject(type, object);
    String namespace = gone.namespace();
    if (NamespaceLifecycle.isNamespace(type)) {
      namespaces.removed(gone.name());
    }
    // decided now, under the store lock: with no dependent to collect and no owner waiting for its dependents there
    // is no work item, and no thread is woken for the removal. A dependent that names the gone uid later is a
    // dangling owner reference (ownerReferencesAdded checks it); an owner whose foreground deletion starts later
    // releases itself once its dependents are gone (OwnerCascade.deleteDependentsFirst).
    List<String> waiting = owners.stream().filter(writes::waitsForDependents).toList();
    if (!waiting.isEmpty() || writes.hasDependents(uid)) {
      queue.add(new WorkItem("removed/" + uid, "collect the dependents of " + CollectorWrites.describe(gone)
          + " (deleted)", () -> {
            cascade.collectDependents(uid);
            waiting.forEach(cascade::releaseForegroundOwner);
          }));
    }
    if (namespace != null) {
      namespaces.contentRemoved(namespace);
    }
  }

  @Override
  public void ownerReferencesAdded(ResourceType type, ObjectNode object, List<String> ownerUids) {
    String uid = CollectorWrites.uidOf(object);
    queue.add(new WorkItem("owners/" + uid, "check the owners of " + CollectorWrites.describe(
        new StoredObject(type, object)), () -> dangling.check(uid)));
  }

  /**
   * Waits until the collector has nothing left to do: no work queued or running and, with the system time source,
   * none waiting on a timer (with another time source, work waiting for a time its clock has not reached is not
   * waited for).
   *
   * @param timeout how long to wait, in real time
   * @param cluster the cluster's name, for the message
   * @throws FakeClusterException when work remains after {@code timeout}, listing it
   */
  public void awaitSettled(Duration timeout, String cluster) {
    CollectorQueue.Pending pending;
    try {
      pending = queue.awaitSettled(timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FakeClusterException("Interrupted while waiting for the garbage collector of FakeCluster " + cluster
          + " to settle; the interrupt flag is set again.", e);
    }
    if (pending.settled()) {
      return;
    }
    int count = pending.items().size();
    throw new FakeClusterException("Expecting the garbage collector of FakeCluster " + cluster + "\n"
        + "  to settle within " + DurationText.of(timeout) + "\n"
        + "but it still had " + count + (count == 1 ? " work item" : " work items") + ":\n  "
        + String.join("\n  ", pending.items()) + "\n"
        + (pending.notAwaited().isEmpty() ? "" : "and, not awaited (they wait for the cluster's virtual clock to "
            + "move):\n  " + String.join("\n  ", pending.notAwaited()) + "\n")
        + "Fix: an item that stays running is blocked, most often by an admission hook that waits or calls the "
        + "cluster's API (hooks also see the collector's writes, on its thread, under the store lock); otherwise "
        + "raise the timeout" + (mode == GarbageCollection.ASYNCHRONOUS ? ", or shorten the namespace controller's "
        + "grace period with FakeCluster.Builder.withNamespaceDeletionGracePeriod(..)" : "") + ".");
  }

  /** Drops the work not done yet and stops the collector's thread. */
  @Override
  public void close() {
    queue.close();
  }
}
