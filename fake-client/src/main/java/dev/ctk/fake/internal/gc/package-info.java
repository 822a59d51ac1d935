/**
 * What kube-controller-manager does about deletions, in the fake and synchronously: the ownerReference garbage
 * collector ({@code propagationPolicy} Background, Foreground, Orphan) and the namespace controller (a Terminating
 * namespace is emptied, then removed). Switched off with {@code FakeCluster.Builder.withGarbageCollection(false)}
 * to mimic a bare kube-apiserver.
 *
 * <p>Limits: dependents are found by owner uid only (apiVersion and kind in the reference are not checked, and a
 * cluster-scoped dependent of a namespaced owner is collected like any other); objects created with references to
 * owners that never existed are collected only when one of their owners is deleted, not on their own; there is no
 * delay, no retry of a refused write (the object stays as it is), and no per-kind default policy (everything
 * defaults to Background, as for apps/v1); custom resources removed with their CustomResourceDefinition do not
 * cascade to their dependents; the namespace controller sets no status conditions and does not honour
 * propagation policies on the Namespace itself. Lookups go through the store's indexes (dependents by owner uid,
 * objects by uid, a namespace's key range), so a delete costs what it cascades to, not what the store holds.
 */
package dev.ctk.fake.internal.gc;
