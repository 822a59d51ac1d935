package dev.ctk.harness.internal.perturb;

import dev.ctk.fake.values.WatchDelivery;
import dev.ctk.harness.values.Perturbation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The points a campaign runs, derived from the reference run's trace: crash-restart before and after each controller
 * write and stale-restart of each watched kind after each (only when a controller has a factory), stale-view at each
 * watch event of each watched kind, unobserved-states at each burst. A burst is a maximal run of 2 or more successive
 * events about one object on ONE watch (two informers of one kind each see every change, which is not a burst); its
 * point names where it starts and how many events of the kind it spans, both counted over every watch of the kind
 * (as {@code WatchFaults.holdAfter} counts and holds them), and the same burst seen by several watches (same object,
 * overlapping spans) is one point spanning them all. Points of the four families are interleaved (one of each in
 * turn) so that a sample covers every family; over the bound, a seeded sample runs, in plan order.
 *
 * @param planned every point of the plan, in plan order
 * @param chosen the points to run, in plan order
 * @param seed the seed of the sample
 * @param replay whether this is the plan of one replayed point
 */
public record PerturbationPlan(List<PerturbationPoint> planned, List<PerturbationPoint> chosen, long seed,
    boolean replay) {

  private static final Set<String> EVENT_TYPES = Set.of("ADDED", "MODIFIED", "DELETED");

  public PerturbationPlan {
    planned = List.copyOf(planned);
    chosen = List.copyOf(chosen);
  }

  /** Whether fewer points run than were planned. */
  public boolean sampled() {
    return chosen.size() < planned.size();
  }

  /** The plan of one replayed point. */
  public static PerturbationPlan replay(PerturbationPoint point, long seed) {
    return new PerturbationPlan(List.of(point), List.of(point), seed, true);
  }

  /**
   * One watch event of the reference run.
   *
   * @param watchId the watch that delivered it
   * @param object the object it is about, {@code ns/name}
   */
  public record WatchEvent(long watchId, String object) {}

  /**
   * The events of each watched kind the reference run delivered, in delivery order, counted over every watch of the
   * kind (as {@code holdAfter} counts them), each with the watch that delivered it.
   *
   * @param deliveries the watch log
   * @param watchedKinds the kinds the controllers watch
   * @return by kind, sorted by kind
   */
  public static Map<String, List<WatchEvent>> events(List<WatchDelivery> deliveries, Set<String> watchedKinds) {
    Map<String, List<WatchEvent>> events = new TreeMap<>();
    for (WatchDelivery delivery : deliveries) {
      if (delivery.outcome() != WatchDelivery.Outcome.DELIVERED || !EVENT_TYPES.contains(delivery.eventType())) {
        continue;
      }
      String kind = PerturbationTimeline.kindOf(delivery);
      if (watchedKinds.contains(kind)) {
        events.computeIfAbsent(kind, k -> new ArrayList<>()).add(new WatchEvent(delivery.watchId(),
            (delivery.namespace() == null ? "" : delivery.namespace() + "/") + delivery.name()));
      }
    }
    return events;
  }

  /**
   * The bursts of one kind's events: per watch, each maximal run of 2 or more successive events (of that watch)
   * about one object, as the span of the kind's events from its first to its last; spans of one object that overlap
   * (the same burst seen by several watches) are merged.
   *
   * @param events the kind's events, in delivery order
   * @return the points' {@code [first event, last event]}, counted from 1, sorted
   */
  public static List<int[]> bursts(List<WatchEvent> events) {
    Map<Long, List<Integer>> byWatch = new LinkedHashMap<>();
    for (int i = 0; i < events.size(); i++) {
      byWatch.computeIfAbsent(events.get(i).watchId(), w -> new ArrayList<>()).add(i);
    }
    Map<String, List<int[]>> byObject = new TreeMap<>();
    for (List<Integer> positions : byWatch.values()) {
      int start = 0;
      while (start < positions.size()) {
        String object = events.get(positions.get(start)).object();
        int end = start + 1;
        while (end < positions.size() && events.get(positions.get(end)).object().equals(object)) {
          end++;
        }
        if (end - start >= 2) {
          byObject.computeIfAbsent(object, o -> new ArrayList<>())
              .add(new int[] {positions.get(start) + 1, positions.get(end - 1) + 1});
        }
        start = end;
      }
    }
    List<int[]> all = new ArrayList<>();
    for (List<int[]> spans : byObject.values()) {
      spans.sort(Comparator.comparingInt(span -> span[0]));
      int[] merged = null;
      for (int[] span : spans) {
        if (merged != null && span[0] <= merged[1]) {
          merged[1] = Math.max(merged[1], span[1]);
        } else {
          merged = span;
          all.add(merged);
        }
      }
    }
    all.sort(Comparator.<int[]>comparingInt(s -> s[0]).thenComparingInt(s -> s[1]));
    return all;
  }

  /**
   * Every point of a reference run, in plan order (families interleaved).
   *
   * @param kinds the families to plan
   * @param writes how many controller writes the reference run made
   * @param hasFactory whether a controller was started from a factory (crash points possible)
   * @param watchedKinds the kinds the restartable controllers watch (one stale-restart point per kind and write)
   * @param events the events of each watched kind, from {@link #events}
   * @return the points
   */
  public static List<PerturbationPoint> derive(Set<Perturbation> kinds, int writes, boolean hasFactory,
      Set<String> watchedKinds, Map<String, List<WatchEvent>> events) {
    Map<Perturbation, List<PerturbationPoint>> families = new EnumMap<>(Perturbation.class);
    if (kinds.contains(Perturbation.CRASH_RESTART) && hasFactory) {
      List<PerturbationPoint> points = new ArrayList<>();
      for (int n = 1; n <= writes; n++) {
        points.add(PerturbationPoint.crashBefore(n));
        points.add(PerturbationPoint.crashAfter(n));
      }
      families.put(Perturbation.CRASH_RESTART, points);
    }
    if (kinds.contains(Perturbation.STALE_RESTART) && hasFactory) {
      List<PerturbationPoint> points = new ArrayList<>();
      for (int n = 1; n <= writes; n++) {
        for (String kind : new TreeSet<>(watchedKinds)) {
          points.add(PerturbationPoint.staleRestart(kind, n));
        }
      }
      families.put(Perturbation.STALE_RESTART, points);
    }
    Map<String, List<PerturbationPoint>> staleViews = new LinkedHashMap<>();
    Map<String, List<PerturbationPoint>> burstPoints = new LinkedHashMap<>();
    events.forEach((kind, objects) -> {
      List<PerturbationPoint> views = new ArrayList<>();
      List<PerturbationPoint> runs = new ArrayList<>();
      for (int i = 0; i < objects.size(); i++) {
        views.add(PerturbationPoint.staleView(kind, i + 1));
      }
      for (int[] span : bursts(objects)) {
        runs.add(PerturbationPoint.unobservedStates(kind, span[0], span[1] - span[0] + 1));
      }
      staleViews.put(kind, views);
      burstPoints.put(kind, runs);
    });
    if (kinds.contains(Perturbation.STALE_VIEW)) {
      families.put(Perturbation.STALE_VIEW, interleave(new ArrayList<>(staleViews.values())));
    }
    if (kinds.contains(Perturbation.UNOBSERVED_STATES)) {
      families.put(Perturbation.UNOBSERVED_STATES, interleave(new ArrayList<>(burstPoints.values())));
    }
    return interleave(new ArrayList<>(families.values()));
  }

  /**
   * The plan of a campaign: every point when there are at most {@code maxRuns}, else a seeded sample of {@code
   * maxRuns} points that takes from each family in turn, in plan order.
   *
   * @param planned every point, from {@link #derive}
   * @param maxRuns the bound
   * @param seed the seed
   * @return the plan
   */
  public static PerturbationPlan bound(List<PerturbationPoint> planned, int maxRuns, long seed) {
    if (planned.size() <= maxRuns) {
      return new PerturbationPlan(planned, planned, seed, false);
    }
    Random random = new Random(seed);
    Map<Perturbation, List<PerturbationPoint>> families = new EnumMap<>(Perturbation.class);
    for (PerturbationPoint point : planned) {
      families.computeIfAbsent(point.kind(), k -> new ArrayList<>()).add(point);
    }
    List<List<PerturbationPoint>> shuffled = new ArrayList<>();
    for (List<PerturbationPoint> family : families.values()) {
      List<PerturbationPoint> copy = new ArrayList<>(family);
      Collections.shuffle(copy, random);
      shuffled.add(copy);
    }
    List<PerturbationPoint> chosen = new ArrayList<>(interleave(shuffled).subList(0, maxRuns));
    chosen.sort(Comparator.comparingInt(planned::indexOf));
    return new PerturbationPlan(planned, chosen, seed, false);
  }

  /** One of each list in turn, until all are used up. */
  private static <T> List<T> interleave(List<List<T>> lists) {
    List<T> out = new ArrayList<>();
    for (int i = 0; ; i++) {
      boolean any = false;
      for (List<T> list : lists) {
        if (i < list.size()) {
          out.add(list.get(i));
          any = true;
        }
      }
      if (!any) {
        return out;
      }
    }
  }
}
