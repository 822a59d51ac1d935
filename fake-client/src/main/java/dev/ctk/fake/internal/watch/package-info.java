/**
 * Watch fan-out and history: every committed change is recorded (bounded) and offered to every open watch, which
 * applies its namespace and selectors with kube's transitions (ADDED on entering, DELETED on leaving a selection)
 * and serves objects as the version it was opened on serves them (apiVersion; a custom resource's read-time pruning
 * and defaults). The hub also holds the bookmark interval; the transports ({@code internal.http.WatchSessions})
 * send the periodic BOOKMARK events of watches that asked for them, under the store lock. A kind a CRD serves has its
 * own watch window from the CRD's creation, as kube's watch cache of it: a watch from an older resourceVersion gets
 * 410 Expired, however long the history.
 *
 * <p>Watch faults ({@link dev.ctk.fake.internal.watch.WatchFaultRules}): every event a watch sends passes its
 * {@link dev.ctk.fake.internal.watch.WatchOutbox}, which applies the fault rules that select the watch (drop,
 * duplicate, reorder, delay, hold, in that order) and records the outcome in the bounded
 * {@link dev.ctk.fake.internal.watch.DeliveryLog}. With no rule the event goes straight to the sink (one record, no
 * extra serialization); rules never act on a watch's initial state (its initial ADDED events and
 * initial-events-end BOOKMARK are sent before the rules attach), and a counted rule that is used up is forgotten by
 * each watch on its next event. Close and expire act on open watches under the store lock.
 *
 * <p>Limits: bookmarks carry only kind, apiVersion and resourceVersion (kube serializes an empty object of the kind,
 * so built-in kinds there also show their empty {@code spec}/{@code status}, and before 1.34
 * {@code creationTimestamp: null}); no per-watch back-pressure; one history for all kinds, so heavy writes to one kind age out history for the others
 * (as an etcd compaction would); a CRD's window starts at its creation, not restarted when its spec changes (kube
 * restarts its watch cache then). Watch faults: delays use a real-time daemon timer (not the cluster's clock);
 * events a rule holds or delays are kept in memory without bound and do not count against the transport's write
 * queue limit; a watch that ends discards what its rules still hold or delay (clients re-watch and the history
 * replays it); the 410 of an expire is sent mid-stream rather than at watch start. A coalescing release works per
 * watch on what the hold holds there: events a watch received before the hold, or that another rule delays or
 * reorders, are not merged with the held ones; the retained history is not coalesced, so a client that re-watches
 * from an older resourceVersion still receives every intermediate change.
 */
package dev.ctk.fake.internal.watch;
