package dev.ctk.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A read-only view of a running controller, whatever framework runs it: ctk's {@link Controller}, a
 * Java Operator SDK controller, a Kubernetes Java client controller, or a hand-written one observed
 * through a {@link ControllerProbe}. ctk's assertions and failure reports read controllers through
 * this interface only, so one vocabulary of assertions serves every framework.
 *
 * <pre>{@code
 * ControllerView view = controller;            // or probe, or an OperatorProbe's controller("webapp")
 * view.stats().reconcilesPerKey();             // {default/web=2}
 * view.workQueue().stats().queuedKeys();       // []
 * view.caches();                               // [CacheState[name=ConfigMap informer, synced=true, ...]]
 * }</pre>
 *
 * <p>Implementations are thread-safe: tests read them while the controller's threads write.
 *
 * @since 0.1.0
 */
public interface ControllerView {

  /**
   * The controller's name, as messages show it.
   *
   * @return the name
   */
  String name();

  /**
   * The words of the framework that runs the controller, for messages.
   *
   * @return the vocabulary; {@link Vocabulary#CTK} unless the framework differs
   */
  default Vocabulary vocabulary() {
    return Vocabulary.CTK;
  }

  /**
   * Whether the controller runs (started and not stopped).
   *
   * @return {@code true} while running
   */
  boolean isRunning();

  /**
   * The caches the controller reads from, now.
   *
   * @return an immutable list, in a stable order
   */
  List<CacheState> caches();

  /**
   * Whether every cache has synced.
   *
   * @return {@code true} when all caches synced (also when there are none)
   */
  default boolean hasSynced() {
    return caches().stream().allMatch(CacheState::synced);
  }

  /**
   * The controller's queue of keys (what Java Operator SDK calls its pending events).
   *
   * @return the queue's view
   */
  WorkQueueView workQueue();

  /**
   * A snapshot of the counters and of the queue. Counters cover every reconcile since the controller
   * started, including those no longer in the bounded log.
   *
   * @return the snapshot
   */
  ControllerStats stats();

  /**
   * Every reconcile still in the bounded log, oldest first.
   *
   * @return an immutable list
   */
  List<ReconcileRecord> reconcileLog();

  /**
   * The records of one key still in the bounded log, oldest first.
   *
   * @param key the key
   * @return an immutable list, empty if the key was never reconciled (or its records were dropped)
   */
  default List<ReconcileRecord> reconcileLog(ObjectKey key) {
    Objects.requireNonNull(key, "ControllerView.reconcileLog: key is null");
    return reconcileLog().stream().filter(r -> r.key().equals(key)).toList();
  }

  /**
   * The reconciles running now: each key whose reconcile has started and not yet ended, with how long
   * it has run so far, on the time source of the records' timestamps ({@link
   * ReconcileRecord#start()}, {@link ReconcileRecord#duration()}). A failure report compares it with
   * the key's finished reconciles, to say when a key has been in flight far longer than its
   * reconciles usually take.
   *
   * <pre>{@code
   * controller.runningReconciles();   // {default/web=PT12.3S}
   * }</pre>
   *
   * @return an immutable map, the reconcile that started first first (when one key runs twice at once,
   *     its longer-running reconcile); empty when none runs, and for a view that does not track its
   *     running reconciles (the default)
   * @since 0.1.0
   */
  default Map<ObjectKey, Duration> runningReconciles() {
    return Map.of();
  }
}
