/**
 * Storage: objects as immutable JSON trees, one global resourceVersion, one lock, and the metadata rules of
 * kube-apiserver's generic registry ({@link dev.ctk.fake.internal.store.ObjectRules}).
 *
 * <p>Limits: in memory only; no admission or defaulting step yet (issue 3 adds them between the rules and the
 * commit); no garbage collection, namespace finalization or graceful deletion; list pages after the first come from
 * a retained snapshot (the last 64 limited lists); {@code resourceVersion} parameters on list are not used to read
 * the past.
 */
package dev.ctk.fake.internal.store;
