/**
 * Internals of the harness: how a scope's cluster is described ({@code ClusterSpec}), started (a fake cluster, or a
 * namespace on a shared real server) and seeded, the event injector of the real modes, the watch on reconcile
 * threads and idleness the perturbation engine and the convergence checks share, and the names of the settings the
 * harness's messages quote. Not API: it may change in any release; adapters (ctk's JUnit extension) use it, users do
 * not, and no signature in {@code dev.ctk.harness} mentions it.
 *
 * <p>Limits: seeding reads YAML and objects only (no Helm, no kustomize); a real scope's isolation is its namespace,
 * nothing more.
 */
package dev.ctk.harness.internal;
