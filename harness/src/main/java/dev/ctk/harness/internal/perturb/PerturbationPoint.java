package dev.ctk.harness.internal.perturb;

import dev.ctk.harness.values.Perturbation;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One planned perturbation of a test run, named by an id that is stable across runs of the same test: points count
 * the controllers' writes and the watch events of a kind from the start of the test, never times or
 * resourceVersions, so {@code ctk.perturb.replay=<id>} replays the same point.
 *
 * <ul>
 *   <li>{@code crash-restart:before-write-3}: the 3rd write sent from inside a reconcile is refused and the
 *       controller crashes there;
 *   <li>{@code crash-restart:after-write-3}: the 3rd write is served, then the controller crashes;
 *   <li>{@code stale-restart:Secret:after-write-3}: as above, and the fresh instance lists Secrets as they were when
 *       the controller first started (an apiserver cache lagging behind), everything else as it is;
 *   <li>{@code stale-view:Deployment:event-2}: from the 2nd watch event of kind Deployment on, the watches of that
 *       kind are held until the controller is idle;
 *   <li>{@code unobserved-states:ConfigMap:event-4:burst-3}: from watch event 4 of kind ConfigMap, the next 3
 *       events (a run of successive events about one object on one watch, counted over every watch of the kind) are
 *       delivered as their net result only.
 * </ul>
 *
 * @param kind the family
 * @param write for crash points: the controller write, counted from 1 over every controller of the test; else 0
 * @param beforeWrite for {@link Perturbation#CRASH_RESTART}: crash before the write is sent (else after it)
 * @param watchedKind for watch points and stale restarts: the kind, as in {@code WatchPattern.kind}; else
 *     {@code null}
 * @param event for watch points: the first event it affects, counted from 1 over the watches of that kind; else 0
 * @param burst for {@link Perturbation#UNOBSERVED_STATES}: how many events are coalesced (2 or more); else 0
 */
public record PerturbationPoint(Perturbation kind, int write, boolean beforeWrite, String watchedKind, int event,
    int burst) {

  private static final Pattern CRASH = Pattern.compile("crash-restart:(before|after)-write-(\\d+)");
  private static final Pattern STALE_RESTART = Pattern.compile("stale-restart:([A-Za-z0-9.]+):after-write-(\\d+)");
  private static final Pattern STALE_VIEW = Pattern.compile("stale-view:([A-Za-z0-9.]+):event-(\\d+)");
  private static final Pattern UNOBSERVED =
      Pattern.compile("unobserved-states:([A-Za-z0-9.]+):event-(\\d+):burst-(\\d+)");

  public PerturbationPoint {
    Objects.requireNonNull(kind, "kind");
  }

  public static PerturbationPoint crashBefore(int write) {
    return new PerturbationPoint(Perturbation.CRASH_RESTART, write, true, null, 0, 0);
  }

  public static PerturbationPoint crashAfter(int write) {
    return new PerturbationPoint(Perturbation.CRASH_RESTART, write, false, null, 0, 0);
  }

  public static PerturbationPoint staleRestart(String watchedKind, int write) {
    return new PerturbationPoint(Perturbation.STALE_RESTART, write, false, watchedKind, 0, 0);
  }

  public static PerturbationPoint staleView(String watchedKind, int event) {
    return new PerturbationPoint(Perturbation.STALE_VIEW, 0, false, watchedKind, event, 0);
  }

  public static PerturbationPoint unobservedStates(String watchedKind, int event, int burst) {
    return new PerturbationPoint(Perturbation.UNOBSERVED_STATES, 0, false, watchedKind, event, burst);
  }

  /** The id printed in reports and accepted by {@code ctk.perturb.replay}. */
  public String id() {
    return switch (kind) {
      case CRASH_RESTART -> "crash-restart:" + (beforeWrite ? "before" : "after") + "-write-" + write;
      case STALE_RESTART -> "stale-restart:" + watchedKind + ":after-write-" + write;
      case STALE_VIEW -> "stale-view:" + watchedKind + ":event-" + event;
      case UNOBSERVED_STATES -> "unobserved-states:" + watchedKind + ":event-" + event + ":burst-" + burst;
    };
  }

  /** One sentence for reports, e.g. "crash-restart right after controller write #3". */
  public String describe() {
    return switch (kind) {
      case CRASH_RESTART -> "the controller crashes " + (beforeWrite ? "before sending" : "right after")
          + " its write #" + write + ", and a fresh instance starts";
      case STALE_RESTART -> "the controller crashes right after its write #" + write + ", and a fresh instance "
          + "starts with its " + watchedKind + " list as of the controller's first start (stale cache)";
      case STALE_VIEW -> "the controller's " + watchedKind + " watches hold from event #" + event
          + " until it is idle (stale cache)";
      case UNOBSERVED_STATES -> burst + " successive " + watchedKind + " events from #" + event
          + " arrive as their net result only (intermediate states unobserved)";
    };
  }

  @Override
  public String toString() {
    return id();
  }

  /**
   * Parses an id made by {@link #id()}.
   *
   * @throws IllegalArgumentException naming the accepted forms
   */
  public static PerturbationPoint parse(String id) {
    String text = Objects.requireNonNull(id, "id").trim();
    Matcher m = CRASH.matcher(text);
    if (m.matches()) {
      int write = positive(m.group(2), text);
      return m.group(1).equals("before") ? crashBefore(write) : crashAfter(write);
    }
    m = STALE_RESTART.matcher(text);
    if (m.matches()) {
      return staleRestart(m.group(1), positive(m.group(2), text));
    }
    m = STALE_VIEW.matcher(text);
    if (m.matches()) {
      return staleView(m.group(1), positive(m.group(2), text));
    }
    m = UNOBSERVED.matcher(text);
    if (m.matches() && Integer.parseInt(m.group(3)) >= 2) {
      return unobservedStates(m.group(1), positive(m.group(2), text), Integer.parseInt(m.group(3)));
    }
    throw new IllegalArgumentException("Unknown perturbation point id \"" + text + "\". Expected one of: "
        + "crash-restart:before-write-<n>, crash-restart:after-write-<n>, stale-restart:<Kind>:after-write-<n>, "
        + "stale-view:<Kind>:event-<n>, unobserved-states:<Kind>:event-<n>:burst-<m> (m >= 2), as printed in a "
        + "perturbation report.");
  }

  private static int positive(String digits, String id) {
    int value;
    try {
      value = Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      value = 0;
    }
    if (value < 1) {
      throw new IllegalArgumentException("Perturbation point id \"" + id + "\": counts start at 1, got " + digits);
    }
    return value;
  }
}
