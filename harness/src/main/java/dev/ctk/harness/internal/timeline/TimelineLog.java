package dev.ctk.harness.internal.timeline;

import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Vocabulary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounded record of one source a listener feeds (one controller's work queue, or its reconciles):
 * the last {@link #LIMIT} steps, each with the wall-clock instant it happened. Appending is cheap
 * (one small object, no text): the text is made only when a failed test's timeline is built.
 * Thread-safe.
 */
public final class TimelineLog {

  /** How many steps each source keeps; older ones are dropped (and counted). */
  public static final int LIMIT = 20_000;

  /** Orders steps recorded at the same instant by different sources. */
  private static final AtomicLong ORDER = new AtomicLong();

  /** What happened to a key. */
  public enum Step {
    ADD, ADD_DEDUPLICATED, DELAY, HAND_OUT, DONE, DONE_REQUEUED, DROP, RECONCILE_START, RECONCILE_END
  }

  /** One step, before it is put into words. */
  private record Mark(Instant time, long order, Instant virtualTime, Step step, Object key,
      Object detail) {}

  private final TimelineEntry.Kind kind;
  private final String source;
  private final int limit;
  private final ArrayDeque<Mark> marks = new ArrayDeque<>();
  private long dropped;

  public TimelineLog(TimelineEntry.Kind kind, String source) {
    this(kind, source, LIMIT);
  }

  public TimelineLog(TimelineEntry.Kind kind, String source, int limit) {
    this.kind = kind;
    this.source = source;
    this.limit = limit;
  }

  /**
   * Records a step now.
   *
   * @param step what happened
   * @param key the key it happened to
   * @param detail the delay ({@link Step#DELAY}), the worker ({@link Step#RECONCILE_START}) or the
   *     record ({@link Step#RECONCILE_END}); else {@code null}
   * @param virtualTime the controller's virtual clock, or {@code null}
   */
  public void record(Step step, Object key, Object detail, Instant virtualTime) {
    Mark mark = new Mark(Instant.now(), ORDER.incrementAndGet(), virtualTime, step, key, detail);
    synchronized (this) {
      if (marks.size() == limit) {
        marks.removeFirst();
        dropped++;
      }
      marks.addLast(mark);
    }
  }

  /** The source's name, as the timeline's column shows it. */
  public String source() {
    return source;
  }

  /** How many steps were dropped to keep the last {@link #limit()}. */
  public synchronized long dropped() {
    return dropped;
  }

  /** How many steps this source keeps at most. */
  public int limit() {
    return limit;
  }

  /**
   * The kept steps at or after {@code since}, in words, oldest first.
   *
   * @param since the start of the test
   * @param words the controller's vocabulary
   */
  public List<TimelineEntry> entries(Instant since, Vocabulary words) {
    List<Mark> copy;
    synchronized (this) {
      copy = new ArrayList<>(marks);
    }
    List<TimelineEntry> entries = new ArrayList<>(copy.size());
    for (Mark mark : copy) {
      if (!mark.time().isBefore(since)) {
        Throwable error = mark.detail() instanceof ReconcileRecord record ? record.error() : null;
        entries.add(new TimelineEntry(mark.time(), kind, source, text(mark, words),
            mark.virtualTime(), mark.order(), error));
      }
    }
    return entries;
  }

  private static String text(Mark mark, Vocabulary words) {
    return switch (mark.step()) {
      case ADD -> "add " + mark.key();
      case ADD_DEDUPLICATED -> "add " + mark.key() + ": already queued (deduplicated)";
      case DELAY -> "add " + mark.key() + " after " + StateFormat.duration((Duration) mark.detail());
      case HAND_OUT -> "hand out " + mark.key();
      case DONE -> "done " + mark.key();
      case DONE_REQUEUED -> "done " + mark.key() + ": queued again (added while in flight)";
      case DROP -> "drop " + mark.key() + " (queue shut down)";
      case RECONCILE_START -> "start " + mark.key() + " on " + mark.detail();
      case RECONCILE_END -> end((ReconcileRecord) mark.detail(), words);
    };
  }

  /**
   * {@code end default/web: ERROR IllegalStateException: backend down (attempt 2)}: the error by its
   * one-line summary; the HTML report gives it whole.
   */
  public static String end(ReconcileRecord record, Vocabulary words) {
    return "end " + record.key() + ": " + StateFormat.outcome(record, words)
        + (record.attempt() > 0 ? " (attempt " + record.attempt() + ")" : "");
  }
}
