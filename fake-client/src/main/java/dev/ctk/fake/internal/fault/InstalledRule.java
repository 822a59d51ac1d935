package dev.ctk.fake.internal.fault;

import dev.ctk.fake.values.FaultFiring;
import dev.ctk.fake.values.RequestPattern;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Random;

/**
 * One installed fault rule and its counters. Its state is guarded by the lock of the {@link FaultEngine} that
 * installed it. It counts every firing exactly but keeps only the last {@link #FIRING_LIMIT} of them, so a rule that
 * fires until removed (or with a probability) on a long run holds bounded memory.
 */
public final class InstalledRule {

  /** How many firings {@link #firings()} keeps: the newest. */
  public static final int FIRING_LIMIT = 1_000;

  private final FaultEngine engine;
  private final long number;
  private final RequestPattern pattern;
  private final FaultSchedule schedule;
  private final FaultAction action;
  private final Random random;
  private final Deque<FaultFiring> firings = new ArrayDeque<>();
  private long fired;
  private long matched;
  private boolean removed;

  InstalledRule(FaultEngine engine, long number, RequestPattern pattern, FaultSchedule schedule,
      FaultAction action) {
    this.engine = engine;
    this.number = number;
    this.pattern = pattern;
    this.schedule = schedule;
    this.action = action;
    this.random = new Random(schedule.seed());
  }

  /** The requests it applies to. */
  public RequestPattern pattern() {
    return pattern;
  }

  /** When it fires. */
  public FaultSchedule schedule() {
    return schedule;
  }

  /** What it does. */
  public FaultAction action() {
    return action;
  }

  /** Removes it; later requests no longer see it. Idempotent. */
  public void remove() {
    engine.remove(this);
  }

  /** Its last firings (at most {@link #FIRING_LIMIT}), oldest first. */
  public List<FaultFiring> firings() {
    synchronized (engine.lock) {
      return List.copyOf(firings);
    }
  }

  /** How many times it fired, all of them (not only those {@link #firings()} keeps). */
  public long firedCount() {
    synchronized (engine.lock) {
      return fired;
    }
  }

  /** Matching requests seen so far (including those an earlier rule took). */
  public long matchedCalls() {
    synchronized (engine.lock) {
      return matched;
    }
  }

  /** Whether it has fired as often as its schedule allows. */
  public boolean isExhausted() {
    synchronized (engine.lock) {
      return schedule.times() > 0 && fired >= schedule.times();
    }
  }

  /** Whether it was removed ({@link #remove()} or the engine was cleared). */
  public boolean isRemoved() {
    synchronized (engine.lock) {
      return removed;
    }
  }

  /**
   * One line: {@code "when update ConfigMap default/web: once -> 409 Conflict"}.
   *
   * @return the description
   */
  public String describe() {
    return "when " + pattern + ": " + schedule.describe() + " -> " + action.description();
  }

  // ---- engine lock held ----

  long number() {
    return number;
  }

  void markRemoved() {
    removed = true;
  }

  /** Counts a matching call. */
  void countMatch() {
    matched++;
  }

  /** Whether it fires on the current matching call, drawing from its random source when it has a probability. */
  boolean firesNow() {
    if (matched < schedule.onCall()) {
      return false;
    }
    if (schedule.times() > 0 && fired >= schedule.times()) {
      return false;
    }
    if (schedule.probability() >= 1) {
      return true;
    }
    return random.nextDouble() < schedule.probability();
  }

  void fired(FaultFiring firing) {
    fired++;
    firings.addLast(firing);
    if (firings.size() > FIRING_LIMIT) {
      firings.removeFirst();
    }
  }

  boolean removed() {
    return removed;
  }

  @Override
  public String toString() {
    return describe();
  }
}
