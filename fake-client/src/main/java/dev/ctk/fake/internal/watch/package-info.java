/**
 * Watch fan-out and history: every committed change is recorded (bounded) and offered to every open watch, which
 * applies its namespace and selectors with kube's transitions (ADDED on entering, DELETED on leaving a selection).
 *
 * <p>Limits: no periodic BOOKMARK events (only the initial-events-end bookmark of {@code sendInitialEvents}); no
 * per-watch back-pressure; one history for all kinds, so heavy writes to one kind age out history for the others
 * (as an etcd compaction would).
 */
package dev.ctk.fake.internal.watch;
