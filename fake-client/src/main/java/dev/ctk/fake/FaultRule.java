package dev.ctk.fake;

import dev.ctk.fake.internal.fault.InstalledRule;
import dev.ctk.fake.values.FaultFiring;
import dev.ctk.fake.values.RequestPattern;
import java.util.List;

/**
 * An installed fault rule of {@link ApiFaults}: what it matches, when it fires and what it answers. Rules are made
 * with {@link ApiFaults#when(RequestPattern)}; this handle removes one and reads its firings.
 *
 * <pre>{@code
 * FaultRule conflict = cluster.faults().when(RequestPattern.update("ConfigMap")).once().answer(ApiFault.conflict());
 * // ... run the controller ...
 * assertThat(conflict.fired()).isEqualTo(1);
 * assertThat(conflict.firings()).hasSize(1);      // the last 1,000 firings
 * conflict.toString();  // "when update ConfigMap: once -> 409 Conflict"
 * conflict.remove();
 * }</pre>
 *
 * <p>Thread-safe. Two handles are equal when they stand for the same installed rule.
 *
 * @since 0.1.0
 */
public final class FaultRule {

  /** How many firings {@link #firings()} keeps: the newest. */
  public static final int FIRING_LIMIT = InstalledRule.FIRING_LIMIT;

  private final InstalledRule rule;

  FaultRule(InstalledRule rule) {
    this.rule = rule;
  }

  /**
   * Removes the rule: requests received after this call no longer see it (a request being delayed by it still
   * completes). Idempotent.
   */
  public void remove() {
    rule.remove();
  }

  /**
   * The last firings of this rule, oldest first: at most {@value #FIRING_LIMIT}, so a rule that fires until removed
   * (or with a probability) on a long run holds bounded memory. {@link #fired()} counts all of them.
   *
   * @return a copy
   */
  public List<FaultFiring> firings() {
    return rule.firings();
  }

  /**
   * How many times this rule fired since it was installed: an exact count, also past the {@value #FIRING_LIMIT}
   * firings that {@link #firings()} keeps.
   *
   * @return the count
   */
  public long fired() {
    return rule.firedCount();
  }

  /**
   * How many requests matched its pattern since it was installed, including those it did not fire on (before its
   * {@code onCall}, lost the draw, or taken by an earlier rule).
   *
   * @return the count
   */
  public long matchedCalls() {
    return rule.matchedCalls();
  }

  /**
   * Whether it has fired as often as {@link ApiFaults.RuleBuilder#times(int)} allows; a rule without a limit is
   * never exhausted. An exhausted rule stays installed (and keeps counting matches) until removed.
   *
   * @return {@code true} when it will not fire again
   */
  public boolean isExhausted() {
    return rule.isExhausted();
  }

  /**
   * Whether it was removed, by {@link #remove()} or {@link ApiFaults#clear()}.
   *
   * @return {@code true} when removed
   */
  public boolean isRemoved() {
    return rule.isRemoved();
  }

  /**
   * The requests it applies to.
   *
   * @return the pattern
   */
  public RequestPattern pattern() {
    return rule.pattern();
  }

  /**
   * One line: pattern, schedule, fault, e.g.
   * {@code "when update ConfigMap default/web: from the 2nd matching call, 3 times -> 409 Conflict"}.
   *
   * @return the description
   */
  @Override
  public String toString() {
    return rule.describe();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FaultRule that && that.rule == rule;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(rule);
  }
}
