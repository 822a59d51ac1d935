/**
 * Storage: objects as immutable JSON trees, one global resourceVersion, one lock, and the metadata rules of
 * kube-apiserver's generic registry ({@link dev.ctk.fake.internal.store.ObjectRules}).
 *
 * <p>Every create and update passes through {@link dev.ctk.fake.internal.admission.Admission}: defaulting before
 * the metadata rules, completion (Job selector, Service addresses) and validation after them, before the commit.
 *
 * <p>Built-in objects are stored as kube's Go types and protobuf storage return them
 * ({@link dev.ctk.fake.internal.store.BuiltinEncoding}): empty lists and maps dropped, empty non-{@code omitempty}
 * lists {@code null}.
 *
 * <p>Deletion follows kube-apiserver: a delete that removes an object at once reports it as removed (kube answers a
 * {@code Status} of {@code Success} for most kinds), delete preconditions fail with kube's messages
 * ({@link dev.ctk.fake.internal.store.DeletePreconditions}), an update that removes the last finalizer deletes the
 * object and answers the object as updated; {@code propagationPolicy} Foreground and Orphan add their finalizers
 * ({@link dev.ctk.fake.internal.store.PropagationPolicy}), a deleted Namespace turns Terminating and creates in it
 * are refused with 403 ({@link dev.ctk.fake.internal.store.NamespaceLifecycle}). What then removes dependents,
 * objects whose owners do not exist, and the content of namespaces is the controller-manager's work: a
 * {@link dev.ctk.fake.internal.store.ChangeObserver} told under the store lock of each deletion and of each object
 * that gained owner references (the garbage collector of {@code dev.ctk.fake.internal.gc}, which only queues work
 * there, or none).
 *
 * <p>Cost: a get, create, update, patch or delete costs the same with 10 or 100,000 objects stored (lookups by key,
 * uid and owner uid are indexed, {@link dev.ctk.fake.internal.store.ObjectIndex}); a list costs what its collection
 * (or, in a namespace, the namespace's part of it) holds, selectors or not, as kube-apiserver without a watch cache
 * index.
 *
 * <p>Limits: in memory only; no admission hooks; no graceful deletion (deletionGracePeriodSeconds is always 0);
 * the propagation policy of a Namespace delete is ignored (kube adds {@code orphan} or {@code foregroundDeletion} to
 * it); Pods bound to a node are deleted at once (kube marks them and waits for their kubelet); a PUT may change
 * a Namespace's {@code spec.finalizers} (kube allows that only through {@code /finalize}); custom resources removed
 * with their CustomResourceDefinition are not reported to the change observer; list pages after the first come
 * from a retained snapshot (the last 64 limited lists); {@code resourceVersion} parameters on list are not used to
 * read the past (only refused next to a {@code continue} token, as kube does): only a stale-read fault reads the
 * past ({@link dev.ctk.fake.internal.store.PastState}, rolled back through the watch history, O(collection +
 * changes since) per read, 410 beyond the retained history); JSON {@code null} values of built-in
 * objects are kept as sent, and an absent struct is not added as {@code {}} (a Deployment has no {@code status: {}}
 * until something writes it; only containers get their {@code resources: {}}).
 */
package dev.ctk.fake.internal.store;
