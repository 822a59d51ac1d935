/**
 * Internals of the assertions and of the JUnit extension's failure report: the shared text format of
 * durations, errors, reconcile histories and work queue contents; and the bookkeeping of the
 * convergence checks (the real time windows of reconciles, which writes were a controller's own, the
 * longest runs without an outside change). Not API: it may change in any
 * release, and no public signature mentions it.
 *
 * <p>It does not measure anything: messages carry no elapsed times, so they stay deterministic.
 */
package dev.ctk.assertions.internal;
