/**
 * Storage: objects as immutable JSON trees, one global resourceVersion, one lock, and the metadata rules of
 * kube-apiserver's generic registry ({@link dev.ctk.fake.internal.store.ObjectRules}).
 *
 * <p>Every create and update passes through {@link dev.ctk.fake.internal.admission.Admission}: defaulting before
 * the metadata rules, completion (Job selector, Service addresses) and validation after them, before the commit.
 *
 * <p>Deletion follows kube-apiserver: {@code propagationPolicy} Foreground and Orphan add their finalizers
 * ({@link dev.ctk.fake.internal.store.PropagationPolicy}), a deleted Namespace turns Terminating and creates in it
 * are refused with 403 ({@link dev.ctk.fake.internal.store.NamespaceLifecycle}). What then removes dependents and
 * empties namespaces is the controller-manager's work: a {@link dev.ctk.fake.internal.store.DeletionObserver}
 * (the garbage collector of {@code dev.ctk.fake.internal.gc}, or none).
 *
 * <p>Limits: in memory only; no admission hooks; no graceful deletion (deletionGracePeriodSeconds is always 0);
 * a delete without a policy is Background even when the object carries finalizer {@code orphan}, and no kind
 * defaults to Orphan; the propagation policy of a Namespace delete is ignored; Namespace {@code spec.finalizers}
 * are set on delete, not on create, and a PUT may change them (kube allows that only through {@code /finalize});
 * custom resources removed with their CustomResourceDefinition are not reported to the deletion observer; list pages after the first come from a retained snapshot (the last 64 limited lists);
 * {@code resourceVersion} parameters on list are not used to read the past.
 */
package dev.ctk.fake.internal.store;
