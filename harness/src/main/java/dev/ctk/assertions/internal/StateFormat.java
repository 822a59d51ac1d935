package dev.ctk.assertions.internal;

import dev.ctk.controller.CacheState;
import dev.ctk.controller.ControllerStats;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Vocabulary;
import dev.ctk.controller.WorkQueueStats;
import dev.ctk.controller.internal.DurationText;
import dev.ctk.controller.internal.ThrowableText;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Text for failure messages and failure reports: durations, errors, reconcile histories and work
 * queue states, written the same way everywhere and without anything measured (no elapsed times), so
 * that messages are deterministic and tests can compare them as whole strings. The one exception is
 * a reconcile in flight far longer than the key's reconciles usually take ({@link
 * SlowReconciles}): that note says how long, on the view's own time source. An error is named by
 * its one-line summary ({@link ThrowableText#summary}); where a report gives a summary, the whole
 * error ({@link ThrowableText#full}: every line of its message, its cause chain, its stack traces)
 * follows once, in the report ({@link #report}) or as the cause of the failure. Outcomes and the
 * words for a controller and its queue come from the {@link Vocabulary} of the controller's view, so
 * a Java Operator SDK controller's report says {@code RESCHEDULE} where ctk's says {@code
 * REQUEUE_AFTER}.
 *
 * <p>Internal: not part of ctk's API; it may change in any release.
 */
public final class StateFormat {

  /** How many reconciles of one key a message lists (the most recent ones). */
  public static final int HISTORY_LIMIT = 5;

  /** How many keys a message lists before it says "... and N more". */
  public static final int KEY_LIMIT = 20;

  private StateFormat() {}

  /**
   * A chosen duration ({@link DurationText#of}): {@code 5s}, {@code 200ms}, {@code 1.5s}, {@code 2m}.
   *
   * @param duration a non-negative duration
   * @return its text
   */
  public static String duration(Duration duration) {
    return DurationText.of(duration);
  }


  /**
   * An error in one line: {@code 409 Conflict: Operation cannot be fulfilled on ...} for an API error,
   * {@code IllegalStateException: backend down} otherwise; the first line of a message with more
   * lines, followed by {@code " ..."} ({@link ThrowableText#summary}). Nothing of the first line is
   * cut; the rest of the error must follow elsewhere ({@link ThrowableText#full}).
   *
   * @param error the error, or {@code null}
   * @return its text
   */
  public static String error(Throwable error) {
    return error == null ? "no error recorded" : ThrowableText.summary(error);
  }

  /**
   * A measured time, as a person reads a stopwatch: {@code 850µs}, {@code 4ms}, {@code 12.3s},
   * {@code 2m5s}.
   *
   * @param elapsed a non-negative duration
   * @return its text
   */
  public static String elapsed(Duration elapsed) {
    return DurationText.measured(elapsed);
  }


  /**
   * The outcome of one reconcile in ctk's words: {@code SUCCESS}, {@code REQUEUE}, {@code
   * REQUEUE_AFTER 30s} or {@code ERROR IllegalStateException: backend down}.
   *
   * @param record the reconcile
   * @return its text
   */
  public static String outcome(ReconcileRecord record) {
    return outcome(record, Vocabulary.CTK);
  }

  /**
   * The outcome of one reconcile in a framework's words, e.g. {@code RESCHEDULE 30s} for a Java
   * Operator SDK reschedule, or {@code ERROR IllegalStateException: backend down}.
   *
   * @param record the reconcile
   * @param vocabulary the framework's words
   * @return its text
   */
  public static String outcome(ReconcileRecord record, Vocabulary vocabulary) {
    String name = vocabulary.outcome(record.outcome());
    switch (record.outcome()) {
      case REQUEUE_AFTER:
        return record.requeueAfter() == null ? name : name + " " + duration(record.requeueAfter());
      case ERROR:
        return name + " " + error(record.error());
      default:
        return name;
    }
  }

  /**
   * An outcome's name as a word in a sentence: {@code requeueAfter} for {@code REQUEUE_AFTER}, {@code
   * reschedule} for {@code RESCHEDULE}; a name that is not in upper case is kept as it is.
   *
   * @param outcome the outcome
   * @param vocabulary the framework's words
   * @return the word
   */
  public static String outcomeWord(ReconcileOutcome outcome, Vocabulary vocabulary) {
    String name = vocabulary.outcome(outcome);
    if (!name.matches("[A-Z][A-Z0-9]*(_[A-Z0-9]+)*")) {
      return name;
    }
    StringBuilder word = new StringBuilder();
    for (String part : name.toLowerCase(Locale.ROOT).split("_")) {
      word.append(word.length() == 0 ? part
          : Character.toUpperCase(part.charAt(0)) + part.substring(1));
    }
    return word.toString();
  }

  /**
   * Keys as a list, at most {@link #KEY_LIMIT} of them: {@code [default/a, default/b]} or {@code
   * [default/a, ... and 3 more]}.
   *
   * @param keys the keys, in the order to show them
   * @return the text
   */
  public static String keys(Collection<?> keys) {
    List<String> shown = keys.stream().limit(KEY_LIMIT).map(String::valueOf)
        .collect(Collectors.toCollection(ArrayList::new));
    if (keys.size() > KEY_LIMIT) {
      shown.add("... and " + (keys.size() - KEY_LIMIT) + " more");
    }
    return "[" + String.join(", ", shown) + "]";
  }

  /**
   * {@code 1 key} / {@code 3 keys}.
   *
   * @param count how many
   * @param noun the singular noun
   * @return the count and the noun, plural when needed
   */
  public static String count(long count, String noun) {
    return count(count, noun, noun + "s");
  }

  /**
   * {@code 1 retry} / {@code 3 retries}.
   *
   * @param count how many
   * @param singular the noun for one
   * @param plural the noun for any other count
   * @return the count and the right noun
   */
  public static String count(long count, String singular, String plural) {
    return count + " " + (count == 1 ? singular : plural);
  }

  /**
   * The three lines that say what a work queue holds.
   *
   * @param stats a snapshot of the queue
   * @param indent the prefix of each line
   * @return three lines, each ending with a newline
   */
  public static String queueContents(WorkQueueStats stats, String indent) {
    return indent + "queued: " + keys(stats.queuedKeys()) + "\n"
        + indent + "in flight: " + keys(stats.inFlightKeys()) + "\n"
        + indent + "waiting (delayed or backing off): " + keys(stats.waitingKeys()) + "\n";
  }

  /**
   * The distinct keys a work queue holds in any state: queued, then in flight, then waiting.
   *
   * @param stats a snapshot of the queue
   * @return the keys
   */
  public static List<String> heldKeys(WorkQueueStats stats) {
    List<String> held = new ArrayList<>(stats.queuedKeys());
    for (String key : stats.inFlightKeys()) {
      if (!held.contains(key)) {
        held.add(key);
      }
    }
    for (String key : stats.waitingKeys()) {
      if (!held.contains(key)) {
        held.add(key);
      }
    }
    return held;
  }

  /**
   * The reconciles of one key that the controller's log still holds, oldest first.
   *
   * @param log the controller's reconcile log
   * @param key the key
   * @return its records
   */
  public static List<ReconcileRecord> recordsOf(List<ReconcileRecord> log, ObjectKey key) {
    return log.stream().filter(r -> r.key().equals(key)).collect(Collectors.toList());
  }

  /**
   * What happened to a key, in ctk's words; see {@link #history(ObjectKey, long, List, Vocabulary)}.
   *
   * @param key the key
   * @param total how many times the key was reconciled (from the controller's counters)
   * @param records the records of the key the log still holds, oldest first
   * @return the lines, each ending with a newline
   */
  public static String history(ObjectKey key, long total, List<ReconcileRecord> records) {
    return history(key, total, records, Vocabulary.CTK);
  }

  /**
   * What happened to a key: how many reconciles, then the last {@link #HISTORY_LIMIT} outcomes
   * numbered from the first reconcile of the key, in the framework's words.
   *
   * <pre>
   * reconciles of default/web: 2 (oldest first)
   *   1. ERROR IllegalStateException: backend down
   *   2. SUCCESS
   * </pre>
   *
   * @param key the key
   * @param total how many times the key was reconciled (from the controller's counters)
   * @param records the records of the key the log still holds, oldest first
   * @param vocabulary the framework's words
   * @return the lines, each ending with a newline
   */
  public static String history(ObjectKey key, long total, List<ReconcileRecord> records,
      Vocabulary vocabulary) {
    if (total == 0 && records.isEmpty()) {
      return key + " was never reconciled\n";
    }
    long count = Math.max(total, records.size());
    List<ReconcileRecord> shown = records.subList(
        Math.max(0, records.size() - HISTORY_LIMIT), records.size());
    StringBuilder text = new StringBuilder("reconciles of ").append(key).append(": ").append(count)
        .append(shown.size() < count ? " (last " + shown.size() + " shown, oldest first)"
            : " (oldest first)")
        .append('\n');
    long number = count - shown.size() + 1;
    for (ReconcileRecord record : shown) {
      text.append("  ").append(number++).append(". ").append(outcome(record, vocabulary))
          .append('\n');
    }
    return text.toString();
  }

  /**
   * One line per held key whose last reconcile failed: {@code last reconcile of default/web failed
   * (3 in a row): IllegalStateException: backend down}.
   *
   * @param keys the keys to describe, as text
   * @param log the controller's reconcile log
   * @return the lines, each ending with a newline (empty when no key's last reconcile failed)
   */
  public static String lastFailures(List<String> keys, List<ReconcileRecord> log) {
    StringBuilder text = new StringBuilder();
    for (String key : keys) {
      List<ReconcileRecord> records = log.stream().filter(r -> r.key().toString().equals(key))
          .collect(Collectors.toList());
      int inARow = 0;
      for (int i = records.size() - 1; i >= 0 && records.get(i).outcome() == ReconcileOutcome.ERROR;
          i--) {
        inARow++;
      }
      if (inARow > 0) {
        text.append("last reconcile of ").append(key).append(" failed (").append(inARow)
            .append(" in a row): ").append(error(records.get(records.size() - 1).error()))
            .append('\n');
      }
    }
    return text.toString();
  }

  /**
   * The name of an informer in messages: {@code ConfigMap informer}.
   *
   * @param informer the informer
   * @return its name
   */
  public static String informerName(SharedIndexInformer<?> informer) {
    return CacheState.of(informer).name();
  }

  /**
   * A report of a controller's state, for a failed test's output, in the words of the view's {@link
   * Vocabulary}: one line per key with its last outcome, a line per key in flight far longer than its
   * reconciles usually take ({@link SlowReconciles}), then, once each, the whole last error of each
   * key whose last reconcile failed (message, cause chain, stack traces: {@link ThrowableText#full}):
   *
   * <pre>
   * controller "cm": running, caches synced
   *   work queue: queued [], in flight [default/api], waiting [default/web]; 3 adds, 2 retries
   *   reconciles: 4 (2 succeeded, 2 failed, 0 requeued)
   *   default/api: 1 reconcile, last SUCCESS
   *   default/web: 3 reconciles, last ERROR IllegalStateException: backend down
   *   default/api in flight for 12.3s (its reconciles usually take 4ms)
   *   last error of default/web:
   *     java.lang.IllegalStateException: backend down
   *     	at com.example.WebReconciler.reconcile(WebReconciler.java:42)
   *     	...
   * </pre>
   *
   * <p>"requeued" counts both {@code REQUEUE} and {@code REQUEUE_AFTER} (a Java Operator SDK
   * reschedule, for instance). A key whose last error has the same whole text as one given above
   * says so instead of repeating it.
   *
   * @param controller the controller's view; any of its methods may throw, and so may this one then
   * @return the report, ending with a newline
   */
  public static String report(ControllerView controller) {
    return report(controller, null);
  }

  /**
   * {@link #report(ControllerView)} beside a test's failure, printed in the same place: a last error
   * that the failure gives whole already (as its cause, or one of its causes' or suppressed
   * exceptions) is not repeated, the report says {@code last error of default/web: the test's failure
   * gives it whole (among its causes)}.
   *
   * @param controller the controller's view; any of its methods may throw, and so may this one then
   * @param testFailure what the test threw, or {@code null}
   * @return the report, ending with a newline
   */
  public static String report(ControllerView controller, Throwable testFailure) {
    Vocabulary vocabulary = controller.vocabulary();
    ControllerStats stats = controller.stats();
    WorkQueueStats queue = stats.queue();
    StringBuilder text = new StringBuilder(vocabulary.controller()).append(" \"")
        .append(controller.name()).append("\": ")
        .append(controller.isRunning() ? "running" : "stopped")
        .append(stats.synced() ? ", caches synced" : ", caches NOT synced").append('\n');
    text.append("  ").append(vocabulary.queue()).append(": queued ").append(keys(queue.queuedKeys()))
        .append(", in flight ").append(keys(queue.inFlightKeys()))
        .append(", waiting ").append(keys(queue.waitingKeys()))
        .append("; ").append(count(queue.adds(), "add")).append(", ")
        .append(count(queue.retries(), "retry", "retries")).append('\n');
    text.append("  reconciles: ").append(stats.reconciles()).append(" (")
        .append(stats.successes()).append(" succeeded, ").append(stats.errors()).append(" failed, ")
        .append(stats.requeues()).append(" requeued)").append('\n');
    int shown = 0;
    List<Map.Entry<ObjectKey, ReconcileRecord>> lastPerKey =
        new ArrayList<>(stats.lastReconcilePerKey().entrySet());
    lastPerKey.sort(Map.Entry.comparingByKey(Comparator.comparing(ObjectKey::toString)));
    Map<ObjectKey, Throwable> lastErrors = new LinkedHashMap<>();
    for (Map.Entry<ObjectKey, ReconcileRecord> last : lastPerKey) {
      if (shown++ == KEY_LIMIT) {
        text.append("  ... and ").append(stats.lastReconcilePerKey().size() - KEY_LIMIT)
            .append(" more keys\n");
        break;
      }
      long count = stats.reconcilesPerKey().getOrDefault(last.getKey(), 0L);
      text.append("  ").append(last.getKey()).append(": ").append(count(count, "reconcile"))
          .append(", last ").append(outcome(last.getValue(), vocabulary)).append('\n');
      if (last.getValue().outcome() == ReconcileOutcome.ERROR && last.getValue().error() != null) {
        lastErrors.put(last.getKey(), last.getValue().error());
      }
    }
    if (stats.droppedLogRecords() > 0) {
      text.append("  (the reconcile log dropped its ").append(stats.droppedLogRecords())
          .append(" oldest records)\n");
    }
    text.append(SlowReconciles.lines(controller, "  "));
    Map<String, ObjectKey> given = new LinkedHashMap<>();
    Map<Throwable, ObjectKey> givenErrors = new IdentityHashMap<>();
    Map<Throwable, Boolean> inFailure = new IdentityHashMap<>();
    Map<String, Boolean> inFailureTexts = new LinkedHashMap<>();
    if (!lastErrors.isEmpty()) {
      for (Throwable carried : ThrowableText.all(testFailure)) {
        inFailure.put(carried, true);
        inFailureTexts.put(ThrowableText.full(carried), true);
      }
    }
    for (Map.Entry<ObjectKey, Throwable> error : lastErrors.entrySet()) {
      text.append("  last error of ").append(error.getKey()).append(':');
      ObjectKey same = givenErrors.get(error.getValue());
      String whole = same != null ? null : ThrowableText.full(error.getValue());
      same = same != null ? same : given.get(whole);
      if (same == null && (inFailure.containsKey(error.getValue())
          || inFailureTexts.containsKey(whole))) {
        text.append(" the test's failure gives it whole (among its causes)\n");
        continue;
      }
      if (same != null) {
        text.append(" the same as the last error of ").append(same).append(", above\n");
        continue;
      }
      given.put(whole, error.getKey());
      givenErrors.put(error.getValue(), error.getKey());
      text.append('\n').append(ThrowableText.indent(whole, "    ")).append('\n');
    }
    return text.toString();
  }
}
