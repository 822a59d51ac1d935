package dev.ctk.controller;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An immutable snapshot of a controller, whatever framework runs it ({@link ControllerView#stats()}:
 * ctk's {@link Controller}, a {@link ControllerProbe}, a framework integration's view). Counters cover
 * every reconcile since the controller started (for a probe: since it was created), including those no
 * longer in the bounded reconcile log.
 *
 * <pre>{@code
 * ControllerStats stats = controller.stats();
 * stats.reconcilesPerKey().get(ObjectKey.of("default", "web"));   // 3
 * stats.lastReconcilePerKey().get(ObjectKey.of("default", "web")).outcome();  // SUCCESS
 * }</pre>
 *
 * @param name the controller's name
 * @param synced whether all its caches (informers, event sources) have synced
 * @param queue a snapshot of its work queue
 * @param reconciles reconciles ended
 * @param successes reconciles that returned {@link Result#done()} ({@link ReconcileOutcome#SUCCESS})
 * @param errors reconciles that threw ({@link ReconcileOutcome#ERROR})
 * @param requeues reconciles that returned {@link Result#requeue()} or {@link Result#requeueAfter}
 *     ({@link ReconcileOutcome#REQUEUE}, {@link ReconcileOutcome#REQUEUE_AFTER}; in other frameworks
 *     what their {@link Vocabulary} names so, e.g. a Java Operator SDK reschedule)
 * @param droppedLogRecords the oldest records dropped from the reconcile log to keep it within its
 *     limit
 * @param reconcilesPerKey reconciles per key, in the order keys were first reconciled
 * @param lastReconcilePerKey the last reconcile of each key, in the order keys were first reconciled
 * @since 0.1.0
 */
public record ControllerStats(String name, boolean synced, WorkQueueStats queue, long reconciles,
    long successes, long errors, long requeues, long droppedLogRecords,
    Map<ObjectKey, Long> reconcilesPerKey, Map<ObjectKey, ReconcileRecord> lastReconcilePerKey) {

  /**
   * Creates a snapshot; copies the maps, keeping their order, so that it is immutable.
   *
   * @param name the controller's name
   * @param synced whether all its informers have synced
   * @param queue a snapshot of its work queue
   * @param reconciles reconciles ended
   * @param successes reconciles that returned done
   * @param errors reconciles that threw
   * @param requeues reconciles that returned requeue or requeueAfter
   * @param droppedLogRecords records dropped from the reconcile log
   * @param reconcilesPerKey reconciles per key
   * @param lastReconcilePerKey the last reconcile of each key
   */
  public ControllerStats {
    reconcilesPerKey = Collections.unmodifiableMap(new LinkedHashMap<>(reconcilesPerKey));
    lastReconcilePerKey = Collections.unmodifiableMap(new LinkedHashMap<>(lastReconcilePerKey));
  }
}
