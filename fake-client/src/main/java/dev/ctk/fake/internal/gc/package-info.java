/**
 * What kube-controller-manager does about deletions and owner references, in the fake: the ownerReference garbage
 * collector ({@code propagationPolicy} Background, Foreground, Orphan; objects whose owners do not exist) and the
 * namespace controller (a Terminating namespace is emptied, its status conditions written, then it is removed).
 *
 * <p>How it runs ({@code FakeCluster.Builder.withGarbageCollection}): {@code ASYNCHRONOUS} by default, as in a
 * cluster: store callbacks (under the store lock) only queue work items ({@link dev.ctk.fake.internal.gc.WorkItem});
 * one daemon thread per cluster, {@code ctk-fake-<n>-gc}, does them in order after the request that caused them was
 * answered, each step an ordinary API write (admission hooks see it, watchers get its event). A removal queues work
 * only when it has some (an object references the removed one, or one of its owners waits for its dependents in the
 * foreground), decided under the store lock; other removals wake no thread. The namespace
 * controller starts a grace period after a Namespace is deleted (kube's 5 seconds, configurable), timed on the
 * cluster's {@code TimeSource}, so a {@code VirtualTime} holds it until the test advances the clock.
 * {@code FakeCluster.awaitGarbageCollection} waits on a condition the thread signals when its queue is empty and
 * nothing runs (and, on the system time source, nothing waits on a timer). {@code SYNCHRONOUS} runs the queue dry on
 * the writer's thread before its write returns, with no grace period (the fake's earlier behaviour); {@code OFF}
 * attaches no collector (a bare kube-apiserver).
 *
 * <p>What it does as kube does: a deleted owner's dependents (found by owner uid through the store's index) are
 * deleted, or lose their reference when another live owner remains; Orphan removes the references, then the
 * {@code orphan} finalizer; Foreground deletes dependents first (in foreground themselves when they have dependents)
 * and removes {@code foregroundDeletion} once no {@code blockOwnerDeletion: true} dependent remains; an object that
 * gains a reference to a uid the store does not hold (or to a namespaced owner in another namespace) is checked as
 * kube's collector checks a "virtual" owner: each owner is looked up by kind, namespace and name, one with another
 * uid counts as absent, and the object is deleted when no live owner is left (otherwise it loses its references to
 * absent owners and to owners deleted in the foreground). The namespace controller deletes every object of the
 * namespace (Background), writes kube's five conditions ({@code NamespaceDeletionDiscoveryFailure},
 * {@code NamespaceDeletionGroupVersionParsingFailure}, {@code NamespaceDeletionContentFailure},
 * {@code NamespaceContentRemaining}, {@code NamespaceFinalizersRemaining}, with kube's reasons and messages), and
 * removes the {@code kubernetes} spec finalizer when nothing is left.
 *
 * <p>Limits: Background and Foreground cascades match dependents by owner uid only (apiVersion, kind and name in the
 * reference are not checked then, and a cluster-scoped dependent of a namespaced owner is collected like any other);
 * only the dangling-owner check looks owners up by kind, namespace and name (a reference to a live uid under another
 * apiVersion, kind or name than the owner's is checked that way, as kube's graph builder queues it). A reference to a
 * kind that is not served, or from a cluster-scoped object to a namespaced kind, leaves the object as it is (kube
 * retries the first forever and reports the second as an event; the fake records no events). Objects seeded or injected
 * with references to owners that do not exist are collected too: seeded objects get new uids, so a seed file cannot
 * make an owner and its dependent reference each other (turn garbage collection off for such fixtures). A write the API
 * server refuses (the object went, was replaced, or a hook denied it) is skipped and not retried: the object stays as
 * it is. A delete without a policy keeps the object's own {@code orphan} or {@code foregroundDeletion} finalizer, else
 * follows its kind's default as kube does (Orphan for batch/v1 Jobs and v1 ReplicationControllers; no policy finalizer
 * at all for Events). Custom resources removed with their CustomResourceDefinition do not cascade to their dependents.
 * The namespace controller ignores propagation policies on the Namespace itself, cannot fail discovery (those two
 * conditions are always {@code False}), and passes again as soon as an object of a waiting namespace goes, where kube
 * polls every 5 to 8 seconds; a namespace whose content a hook refused to delete stays Terminating until one of its
 * objects goes.
 * Lookups go through the store's indexes (dependents by owner uid, objects by uid, a namespace's key range), so a
 * delete costs what it cascades to, not what the store holds.
 */
package dev.ctk.fake.internal.gc;
