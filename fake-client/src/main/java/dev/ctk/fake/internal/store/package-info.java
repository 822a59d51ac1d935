/**
 * Storage: objects as immutable JSON trees, one global resourceVersion, one lock, and the metadata rules of
 * kube-apiserver's generic registry ({@link dev.ctk.fake.internal.store.ObjectRules}).
 *
 * <p>Every create and update passes through {@link dev.ctk.fake.internal.admission.Admission}: defaulting before
 * the metadata rules, completion (Job selector, Service addresses) and validation after them, before the commit.
 *
 * <p>Limits: in memory only; no admission hooks; no garbage collection, namespace finalization or graceful
 * deletion; list pages after the first come from a retained snapshot (the last 64 limited lists);
 * {@code resourceVersion} parameters on list are not used to read the past.
 */
package dev.ctk.fake.internal.store;
