package dev.ctk.controller;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The bounded log of reconciles and the counters of a controller. Thread-safe. */
final class ReconcileLog {

  private final int limit;
  private final ArrayDeque<ReconcileRecord> records = new ArrayDeque<>();
  private final Map<ObjectKey, Long> reconcilesPerKey = new LinkedHashMap<>();
  private final Map<ObjectKey, ReconcileRecord> lastPerKey = new LinkedHashMap<>();
  private long sequence;
  private long dropped;
  private long successes;
  private long errors;
  private long requeues;

  ReconcileLog(int limit) {
    this.limit = limit;
  }

  synchronized ReconcileRecord record(ObjectKey key, String worker, Instant start, Instant end,
      ReconcileOutcome outcome, Duration requeueAfter, Throwable error, int attempt) {
    ReconcileRecord record = new ReconcileRecord(++sequence, key, worker, start, end, outcome,
        requeueAfter, error, attempt);
    if (records.size() == limit) {
      records.removeFirst();
      dropped++;
    }
    records.addLast(record);
    reconcilesPerKey.merge(key, 1L, Long::sum);
    lastPerKey.put(key, record);
    switch (outcome) {
      case SUCCESS -> successes++;
      case ERROR -> errors++;
      case REQUEUE, REQUEUE_AFTER -> requeues++;
      default -> throw new IllegalStateException("unknown outcome " + outcome);
    }
    return record;
  }

  synchronized List<ReconcileRecord> records() {
    return List.copyOf(records);
  }

  synchronized ControllerStats stats(String name, boolean synced, WorkQueueStats queue) {
    return new ControllerStats(name, synced, queue, sequence, successes, errors, requeues, dropped,
        reconcilesPerKey, lastPerKey);
  }
}
