package dev.ctk.assertions;

import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.controller.ControllerStats;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Vocabulary;
import dev.ctk.controller.WorkQueueStats;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What a controller knows about one key, read as one consistent snapshot from its {@link
 * ControllerView} (ctk's {@code Controller}, a {@code ControllerProbe}, a framework integration's
 * view): its reconciles (from the bounded log), its reconcile count and last reconcile (from the
 * counters), and the work queue.
 *
 * <p>The log is read first ({@link ControllerView#reconcileLog()}), then the counters and queue
 * ({@link ControllerView#stats()}), so every record listed is also counted. When the key was
 * reconciled again between the two reads, the log is read once more and cut at the last reconcile
 * the counters know, so the count, the numbered history and the last outcome always describe the
 * same reconciles.
 *
 * @param key the key
 * @param stats the controller's counters and work queue
 * @param records the key's records the log holds, oldest first, none newer than {@link #last()}
 */
record KeyState(ObjectKey key, ControllerStats stats, List<ReconcileRecord> records) {

  static KeyState of(ControllerView controller, ObjectKey key) {
    return of(controller::reconcileLog, controller::stats, key);
  }

  /**
   * Reads the state of {@code key}: the log, then the stats, then (if the key was reconciled in
   * between) the log again.
   *
   * @param log reads the controller's reconcile log
   * @param stats reads the controller's counters and work queue
   * @param key the key
   * @return the snapshot
   */
  static KeyState of(Supplier<List<ReconcileRecord>> log, Supplier<ControllerStats> stats,
      ObjectKey key) {
    List<ReconcileRecord> records = StateFormat.recordsOf(log.get(), key);
    ControllerStats counted = stats.get();
    ReconcileRecord lastCounted = counted.lastReconcilePerKey().get(key);
    if (lastCounted != null && (records.isEmpty()
        || records.get(records.size() - 1).sequence() < lastCounted.sequence())) {
      records = StateFormat.recordsOf(log.get(), key).stream()
          .filter(r -> r.sequence() <= lastCounted.sequence()).collect(Collectors.toList());
    }
    return new KeyState(key, counted, List.copyOf(records));
  }

  /** How many times the key was reconciled, including records the bounded log dropped. */
  long total() {
    return Math.max(stats.reconcilesPerKey().getOrDefault(key, 0L), records.size());
  }

  /** The key's last reconcile, or {@code null}. */
  ReconcileRecord last() {
    ReconcileRecord counted = stats.lastReconcilePerKey().get(key);
    return counted != null ? counted
        : records.isEmpty() ? null : records.get(records.size() - 1);
  }

  /**
   * Where the work queue holds the key again after its last reconcile, or {@code null} when it is
   * settled: {@code "queued again"}, {@code "in flight again"}, {@code "waiting again (delayed or
   * backing off)"}. A key waiting after a {@code REQUEUE_AFTER} (a Java Operator SDK reschedule,
   * for one) is settled: that wait is the delay its reconcile asked for.
   */
  String heldAgain() {
    WorkQueueStats queue = stats.queue();
    String text = key.toString();
    if (queue.inFlightKeys().contains(text)) {
      return "in flight again";
    }
    if (queue.queuedKeys().contains(text)) {
      return "queued again";
    }
    ReconcileRecord last = last();
    if (queue.waitingKeys().contains(text)
        && (last == null || last.outcome() != ReconcileOutcome.REQUEUE_AFTER)) {
      return "waiting again (delayed or backing off)";
    }
    return null;
  }

  /** The numbered history of the key's last reconciles, in ctk's words. */
  String history() {
    return history(Vocabulary.CTK);
  }

  /**
   * The numbered history of the key's last reconciles, in the framework's words.
   *
   * @param vocabulary the words of the controller's framework
   */
  String history(Vocabulary vocabulary) {
    return StateFormat.history(key, total(), records, vocabulary);
  }
}
