package dev.ctk.assertions.internal;

import dev.ctk.controller.ObjectKey;
import dev.ctk.fake.values.ApiRequestRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Finds what a controller did "in a row, without an outside change" ({@link OwnWrites}): the longest
 * run of reconciles of one key (a hot loop), and the longest run of changing writes to one object
 * (churn).
 *
 * <p>Internal: not part of ctk's API; it may change in any release.
 */
public final class Streaks {

  private Streaks() {}

  /**
   * The longest run of reconciles of one key, each started with no outside change since the start of
   * the one before. Ties go to the key that sorts first.
   *
   * @param own the controller's reconciles and the attribution of writes
   * @param journal the journal's records, in sequence order
   * @return the run, or empty when the controller reconciled nothing
   */
  public static Optional<ReconcileRun> longestReconcileRun(OwnWrites own,
      List<ApiRequestRecord> journal) {
    List<Instant> outside = journal.stream().filter(own::isOutsideChange)
        .map(ApiRequestRecord::time).sorted().toList();
    Map<String, List<OwnWrites.Reconcile>> byKey = new TreeMap<>();
    for (OwnWrites.Reconcile reconcile : own.reconciles()) {
      byKey.computeIfAbsent(reconcile.record().key().toString(), k -> new ArrayList<>())
          .add(reconcile);
    }
    List<OwnWrites.Reconcile> longest = List.of();
    for (List<OwnWrites.Reconcile> reconciles : byKey.values()) {
      List<OwnWrites.Reconcile> run = new ArrayList<>();
      Instant previousStart = null;
      for (OwnWrites.Reconcile reconcile : reconciles) {
        Instant start = reconcile.window().start();
        if (previousStart != null && anyWithin(outside, previousStart, start)) {
          run = new ArrayList<>();
        }
        run.add(reconcile);
        previousStart = start;
        if (run.size() > longest.size()) {
          longest = List.copyOf(run);
        }
      }
    }
    if (longest.isEmpty()) {
      return Optional.empty();
    }
    List<OwnWrites.Reconcile> reconciles = longest;
    List<ApiRequestRecord> writes = journal.stream().filter(OwnWrites::isChangingWrite)
        .filter(w -> reconciles.stream().anyMatch(r -> r.window().contains(w.time())))
        .toList();
    return Optional.of(new ReconcileRun(reconciles.get(0).record().key(), reconciles, writes));
  }

  /**
   * The longest run of the controller's own changing writes to one object (an object and
   * subresource, e.g. {@code configmaps default/web/status}) with no outside change in between.
   * Ties go to the run found first.
   *
   * @param own the attribution of writes
   * @param journal the journal's records, in sequence order
   * @param counted which of the controller's changing writes count (e.g. status writes only)
   * @return the writes of the longest run; empty when none counted
   */
  public static List<ApiRequestRecord> longestWriteRun(OwnWrites own,
      List<ApiRequestRecord> journal, Predicate<ApiRequestRecord> counted) {
    return longestWriteRun(own, journal, counted, Streaks::object);
  }

  /**
   * As {@link #longestWriteRun(OwnWrites, List, Predicate)}, with runs per object as {@code objectOf}
   * names it (e.g. an object and its subresources together).
   *
   * @param own the attribution of writes
   * @param journal the journal's records, in sequence order
   * @param counted which of the controller's changing writes count
   * @param objectOf the object a write belongs to
   * @return the writes of the longest run; empty when none counted
   */
  public static List<ApiRequestRecord> longestWriteRun(OwnWrites own,
      List<ApiRequestRecord> journal, Predicate<ApiRequestRecord> counted,
      Function<ApiRequestRecord, String> objectOf) {
    Map<String, List<ApiRequestRecord>> runs = new LinkedHashMap<>();
    List<ApiRequestRecord> longest = List.of();
    for (ApiRequestRecord record : journal) {
      if (own.isOutsideChange(record)) {
        runs.clear();
      } else if (OwnWrites.isChangingWrite(record) && counted.test(record)) {
        List<ApiRequestRecord> run = runs.computeIfAbsent(objectOf.apply(record),
            k -> new ArrayList<>());
        run.add(record);
        if (run.size() > longest.size()) {
          longest = List.copyOf(run);
        }
      }
    }
    return longest;
  }

  /**
   * An object as churn messages name it: {@code configmaps default/web}, with {@code /status} for a
   * subresource.
   *
   * @param record a write
   * @return the object's name
   */
  public static String object(ApiRequestRecord record) {
    String key = record.objectKey();
    return (record.resource() == null ? "?" : record.resource()) + " "
        + (key == null ? "(no name)" : key)
        + (record.subresource() == null ? "" : "/" + record.subresource());
  }

  /** Whether some instant of the sorted list lies in {@code (after, upTo]}. */
  private static boolean anyWithin(List<Instant> sorted, Instant after, Instant upTo) {
    return sorted.stream().anyMatch(t -> t.isAfter(after) && !t.isAfter(upTo));
  }

  /**
   * Reconciles of one key in a row without an outside change.
   *
   * @param key the key
   * @param reconciles the reconciles, oldest first
   * @param writes the changing writes received while they ran, in sequence order
   */
  public record ReconcileRun(ObjectKey key, List<OwnWrites.Reconcile> reconciles,
      List<ApiRequestRecord> writes) {}
}
