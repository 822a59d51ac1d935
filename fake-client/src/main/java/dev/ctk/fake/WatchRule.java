package dev.ctk.fake;

import dev.ctk.fake.internal.watch.WatchFaultRule;

/**
 * A watch fault rule in force: made by {@link WatchFaults#drop}, {@link WatchFaults#duplicate},
 * {@link WatchFaults#delay} and {@link WatchFaults#reorder} (and {@link WatchFaults#hold}, whose handle is a
 * {@link HeldDelivery}). It applies to every watch its pattern matches, those open when it was made and those opened
 * later, until {@link #remove()} (or {@link WatchFaults#clear()}) or, for a counted rule, until it has acted on its
 * count of events across all those watches.
 *
 * <pre>{@code
 * WatchRule drop = cluster.watchFaults().drop(WatchPattern.kind("ConfigMap"));
 * client.configMaps().withName("web").delete();   // informers keep "web" in their cache
 * drop.remove();
 * drop.fired();                                    // 1: the DELETED event of "web"
 * }</pre>
 *
 * <p>Thread-safe.
 *
 * @since 0.1.0
 */
public class WatchRule {

  private final WatchFaultRule rule;
  private final WatchFaults faults;

  WatchRule(WatchFaultRule rule, WatchFaults faults) {
    this.rule = rule;
    this.faults = faults;
  }

  /**
   * Ends the rule; idempotent. Events already delayed are still sent when their delay passes; a partly filled
   * reorder window is sent at once in commit order. Works after the cluster is closed (it then changes nothing).
   */
  public void remove() {
    faults.end(rule);
  }

  /**
   * Whether the rule still acts: not removed, not cleared and, for a counted rule, not used up.
   *
   * @return {@code true} while it acts
   */
  public boolean isActive() {
    return rule.active();
  }

  /**
   * How many events it has acted on, on all watches together (a duplicated event counts once; a reorder rule counts
   * every event it put in a window).
   *
   * @return the count
   */
  public long fired() {
    return rule.fired();
  }

  /**
   * What the rule does, e.g. {@code drop(ConfigMap in default, next 2 events)}.
   *
   * @return the description
   */
  public String description() {
    return rule.description();
  }

  WatchFaultRule rule() {
    return rule;
  }

  WatchFaults faults() {
    return faults;
  }

  @Override
  public String toString() {
    return description() + (isActive() ? "" : " [ended]") + ", fired " + fired() + " time" + (fired() == 1 ? ""
        : "s");
  }
}
