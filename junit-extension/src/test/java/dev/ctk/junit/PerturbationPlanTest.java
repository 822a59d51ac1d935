package dev.ctk.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.values.WatchDelivery.Outcome;
import dev.ctk.fake.values.WatchDelivery;
import dev.ctk.harness.internal.perturb.PerturbationPlan.WatchEvent;
import dev.ctk.harness.internal.perturb.PerturbationPlan;
import dev.ctk.harness.internal.perturb.PerturbationPoint;
import dev.ctk.harness.values.Perturbation;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Deriving a campaign's plan from a reference trace, and bounding it with a seeded sample. */
class PerturbationPlanTest {

  private static WatchDelivery delivery(long watch, String kind, String type, String name, Outcome outcome) {
    return new WatchDelivery(Instant.EPOCH, watch, kind + " in default", type, "default", name, "1", outcome, null);
  }

  private static List<String> ids(List<PerturbationPoint> points) {
    return points.stream().map(PerturbationPoint::id).collect(Collectors.toList());
  }

  @Test
  void should_read_delivered_events_of_watched_kinds_only_counting_every_watch() {
    // GIVEN two ConfigMap watches, a Secret watch nobody asked about, a held event and a bookmark
    List<WatchDelivery> log = List.of(
        delivery(1, "ConfigMap", "ADDED", "web", Outcome.DELIVERED),
        delivery(2, "ConfigMap", "ADDED", "web", Outcome.DELIVERED),
        delivery(3, "Secret", "ADDED", "token", Outcome.DELIVERED),
        delivery(1, "ConfigMap", "MODIFIED", "web", Outcome.HELD),
        delivery(1, "ConfigMap", "BOOKMARK", null, Outcome.DELIVERED),
        delivery(1, "ConfigMap", "DELETED", "api", Outcome.DELIVERED));
    // WHEN
    Map<String, List<WatchEvent>> events = PerturbationPlan.events(log, Set.of("ConfigMap"));
    // THEN
    assertThat(events).isEqualTo(Map.of("ConfigMap", List.of(new WatchEvent(1, "default/web"),
        new WatchEvent(2, "default/web"), new WatchEvent(1, "default/api"))));
  }

  /** Events on one watch, {@code 1}. */
  private static List<WatchEvent> onOneWatch(String... objects) {
    return java.util.Arrays.stream(objects).map(o -> new WatchEvent(1, o)).collect(Collectors.toList());
  }

  @Test
  void should_not_take_one_change_seen_by_two_watches_for_a_burst() {
    // GIVEN two informers of ConfigMap: each change of web arrives on watch 1, then on watch 2
    List<WatchEvent> events = List.of(new WatchEvent(1, "d/web"), new WatchEvent(2, "d/web"),
        new WatchEvent(1, "d/api"), new WatchEvent(2, "d/api"));
    // WHEN
    List<PerturbationPoint> plan = PerturbationPlan.derive(EnumSet.of(Perturbation.UNOBSERVED_STATES), 0, false,
        Set.of("ConfigMap"), Map.of("ConfigMap", events));
    // THEN
    assertThat(plan).isEmpty();
  }

  @Test
  void should_find_a_burst_on_each_watch_counting_events_over_every_watch_and_merge_the_copies() {
    // GIVEN web changes 3 times, seen by watches 1 and 2 interleaved; then api twice, on watch 3 only, while
    // watch 1 sees one event of another object
    List<WatchEvent> events = List.of(new WatchEvent(1, "d/web"), new WatchEvent(2, "d/web"),
        new WatchEvent(1, "d/web"), new WatchEvent(2, "d/web"), new WatchEvent(1, "d/web"),
        new WatchEvent(2, "d/web"), new WatchEvent(3, "d/api"), new WatchEvent(1, "d/db"),
        new WatchEvent(3, "d/api"));
    // WHEN
    List<PerturbationPoint> plan = PerturbationPlan.derive(EnumSet.of(Perturbation.UNOBSERVED_STATES), 0, false,
        Set.of("ConfigMap"), Map.of("ConfigMap", events));
    // THEN web's burst spans events 1 to 6 (both watches' copies, one point); api's spans 7 to 9
    assertThat(ids(plan)).containsExactly("unobserved-states:ConfigMap:event-1:burst-6",
        "unobserved-states:ConfigMap:event-7:burst-3");
  }

  @Test
  void should_plan_every_family_interleaved_with_bursts_of_two_or_more_events_about_one_object() {
    // GIVEN 2 controller writes, a factory, and events: ConfigMap web, web, web, api, api, web; Secret a
    Map<String, List<WatchEvent>> events = Map.of(
        "ConfigMap", onOneWatch("d/web", "d/web", "d/web", "d/api", "d/api", "d/web"),
        "Secret", onOneWatch("d/a"));
    // WHEN
    List<PerturbationPoint> plan = PerturbationPlan.derive(EnumSet.allOf(Perturbation.class), 2, true,
        java.util.Set.of("ConfigMap", "Secret"), new java.util.TreeMap<>(events));
    // THEN one of each family in turn; watched kinds in turn within a family
    assertThat(ids(plan)).containsExactly(
        "crash-restart:before-write-1", "stale-restart:ConfigMap:after-write-1", "stale-view:ConfigMap:event-1",
        "unobserved-states:ConfigMap:event-1:burst-3",
        "crash-restart:after-write-1", "stale-restart:Secret:after-write-1", "stale-view:Secret:event-1",
        "unobserved-states:ConfigMap:event-4:burst-2",
        "crash-restart:before-write-2", "stale-restart:ConfigMap:after-write-2", "stale-view:ConfigMap:event-2",
        "crash-restart:after-write-2", "stale-restart:Secret:after-write-2", "stale-view:ConfigMap:event-3",
        "stale-view:ConfigMap:event-4", "stale-view:ConfigMap:event-5", "stale-view:ConfigMap:event-6");
  }

  @Test
  void should_plan_no_crash_points_without_a_factory_and_only_the_kinds_asked_for() {
    // WHEN
    List<PerturbationPoint> plan = PerturbationPlan.derive(
        EnumSet.of(Perturbation.CRASH_RESTART, Perturbation.UNOBSERVED_STATES), 3, false, java.util.Set.of("ConfigMap"),
        Map.of("ConfigMap", onOneWatch("d/web", "d/web")));
    // THEN
    assertThat(ids(plan)).containsExactly("unobserved-states:ConfigMap:event-1:burst-2");
  }

  @Test
  void should_run_every_point_within_the_bound() {
    // GIVEN
    List<PerturbationPoint> planned = PerturbationPlan.derive(EnumSet.allOf(Perturbation.class), 2, true,
        java.util.Set.of("ConfigMap"), Map.of());
    // WHEN
    PerturbationPlan plan = PerturbationPlan.bound(planned, 6, 42);
    // THEN
    assertThat(plan.chosen()).isEqualTo(planned);
    assertThat(plan.sampled()).isFalse();
  }

  @Test
  void should_sample_the_same_points_for_the_same_seed_covering_every_family_in_plan_order() {
    // GIVEN 30 crash points, 10 stale-restart points, 12 stale-view points
    List<PerturbationPoint> planned = PerturbationPlan.derive(
        EnumSet.of(Perturbation.CRASH_RESTART, Perturbation.STALE_RESTART, Perturbation.STALE_VIEW), 10, true,
        java.util.Set.of("ConfigMap"),
        Map.of("ConfigMap", onOneWatch("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l")));
    assertThat(planned).hasSize(42);
    // WHEN
    PerturbationPlan first = PerturbationPlan.bound(planned, 5, 7);
    PerturbationPlan again = PerturbationPlan.bound(planned, 5, 7);
    PerturbationPlan other = PerturbationPlan.bound(planned, 5, 8);
    // THEN
    assertThat(first.chosen()).hasSize(5).isEqualTo(again.chosen()).isNotEqualTo(other.chosen());
    assertThat(first.sampled()).isTrue();
    assertThat(first.chosen().stream().map(PerturbationPoint::kind).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder(Perturbation.CRASH_RESTART, Perturbation.STALE_RESTART, Perturbation.STALE_VIEW);
    assertThat(first.chosen()).isSortedAccordingTo(java.util.Comparator.comparingInt(planned::indexOf));
  }

  @Test
  void should_plan_only_the_replayed_point() {
    // GIVEN
    PerturbationSettings settings = PerturbationSettings.resolve("[engine:junit-jupiter]", "@Perturbed on X",
        new ControllerTestConfig(name -> java.util.Optional.ofNullable(
            Map.of("ctk.perturb.replay", "crash-restart:after-write-9").get(name)), name -> null),
        EnumSet.allOf(Perturbation.class), null, 5L, List.of());
    // WHEN
    PerturbationPlan plan = PerturbationCampaign.plan(settings, 2, true, java.util.Set.of(), Map.of());
    // THEN
    assertThat(ids(plan.chosen())).containsExactly("crash-restart:after-write-9");
    assertThat(plan.replay()).isTrue();
  }
}
