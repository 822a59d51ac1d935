package dev.ctk.assertions.internal;

import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileRecord;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Which keys have been in flight far longer than their reconciles usually take, for failure reports
 * and messages: a key whose running reconcile ({@link ControllerView#runningReconciles()}) has taken
 * more than {@value #FACTOR} times the median of its finished reconciles in the log and at
 * least {@link #FLOOR}, or, when none of them has finished, longer than {@link
 * #WITHOUT_HISTORY}. Both times come from the view's own time source.
 *
 * <pre>
 * default/web in flight for 12.3s (its reconciles usually take 4ms)
 * default/api in flight for 6.0s (none of its reconciles has finished)
 * </pre>
 *
 * <p>Internal: not part of ctk's API; it may change in any release.
 */
public final class SlowReconciles {

  /**
   * A key in flight at least this long, and more than {@link #FACTOR} times as long as the median
   * of its finished reconciles, is slow.
   */
  public static final Duration FLOOR = Duration.ofSeconds(1);

  /** How many times the median of its finished reconciles a key must be in flight to be slow. */
  public static final int FACTOR = 10;

  /** A key none of whose reconciles has finished is slow once in flight longer than this. */
  public static final Duration WITHOUT_HISTORY = Duration.ofSeconds(5);

  private SlowReconciles() {}

  /**
   * One line per key in flight far longer than its reconciles usually take, in the order of {@code
   * running}.
   *
   * @param running the reconciles running now ({@link ControllerView#runningReconciles()})
   * @param log the controller's reconcile log, for the durations of the finished reconciles
   * @param indent the prefix of each line
   * @return the lines, each ending with a newline (empty when no key is slow)
   */
  public static String lines(Map<ObjectKey, Duration> running, List<ReconcileRecord> log,
      String indent) {
    StringBuilder text = new StringBuilder();
    for (Map.Entry<ObjectKey, Duration> entry : running.entrySet()) {
      Duration inFlight = entry.getValue();
      List<Duration> finished = log.stream().filter(r -> r.key().equals(entry.getKey()))
          .map(ReconcileRecord::duration).sorted().collect(Collectors.toList());
      String usual;
      if (finished.isEmpty()) {
        if (inFlight.compareTo(WITHOUT_HISTORY) <= 0) {
          continue;
        }
        usual = "none of its reconciles has finished";
      } else {
        Duration median = median(finished);
        if (inFlight.compareTo(FLOOR) < 0
            || inFlight.compareTo(median.multipliedBy(FACTOR)) <= 0) {
          continue;
        }
        usual = "its reconciles usually take " + StateFormat.elapsed(median);
      }
      text.append(indent).append(entry.getKey()).append(" in flight for ")
          .append(StateFormat.elapsed(inFlight)).append(" (").append(usual).append(")\n");
    }
    return text.toString();
  }

  /**
   * {@link #lines(Map, List, String)} of a controller now.
   *
   * @param controller the controller's view
   * @param indent the prefix of each line
   * @return the lines, each ending with a newline (empty when no key is slow)
   */
  public static String lines(ControllerView controller, String indent) {
    Map<ObjectKey, Duration> running = controller.runningReconciles();
    return running.isEmpty() ? "" : lines(running, controller.reconcileLog(), indent);
  }

  private static Duration median(List<Duration> sorted) {
    int middle = sorted.size() / 2;
    return sorted.size() % 2 == 1 ? sorted.get(middle)
        : sorted.get(middle - 1).plus(sorted.get(middle)).dividedBy(2);
  }
}
