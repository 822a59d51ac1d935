/**
 * Internals of the assertions and of the JUnit extension's failure report: the shared text format of
 * durations, errors, reconcile histories and work queue contents (errors by their first line, the
 * whole of each given once: see {@code dev.ctk.controller.internal.ThrowableText}), the reconcile
 * errors a failure carries as its cause and suppressed exceptions; and the bookkeeping of the
 * convergence checks (the real time windows of reconciles, which writes were a controller's own, the
 * longest runs without an outside change). Not API: it may change in any
 * release, and no public signature mentions it.
 *
 * <p>It does not measure anything: messages carry no elapsed times, so they stay deterministic. The
 * one exception is a key in flight far longer than its reconciles usually take, which a message
 * names with the time, read from the controller's view on its own time source.
 */
package dev.ctk.assertions.internal;
