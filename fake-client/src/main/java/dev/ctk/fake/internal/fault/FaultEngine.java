package dev.ctk.fake.internal.fault;

import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.FaultFiring;
import dev.ctk.fake.values.RequestPattern;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The fault rules of one fake API server, evaluated for every API request (in process or over HTTP) before it is
 * served.
 *
 * <p>Rules are evaluated in the order they were installed. Patterns (user predicates included) are matched against
 * a snapshot of the rules without any lock held, so a slow predicate delays only its own request; then, under one
 * lock, the matching rules that are still installed count the request and fire, so concurrent requests are counted
 * in a single order. Every rule whose pattern matches counts the request as one of its matching calls; the first
 * rule that fires on it wins and later rules do not fire on that request (they still count it). A rule without a
 * probability draws nothing; one with a probability draws once per eligible call from its own seeded random
 * source, so the same sequence of matching requests gets the same firings. A rule installed while a request is
 * being matched applies from the next request.
 */
public final class FaultEngine {

  /** How many firings {@link #firings()} keeps (the oldest are dropped). */
  public static final int FIRING_LIMIT = 10_000;

  /** Mixes the rule number into the cluster seed, so that two rules do not draw the same sequence. */
  private static final long SEED_STEP = 0x9E3779B97F4A7C15L;

  final Object lock = new Object();
  private final long clusterSeed;
  private final List<InstalledRule> rules = new ArrayList<>();
  /** {@link #rules}, published for matching without the lock; replaced (never changed) under the lock. */
  private volatile List<InstalledRule> snapshot = List.of();
  private final Deque<FaultFiring> firings = new ArrayDeque<>();
  private long installed;

  /**
   * Creates an engine without rules.
   *
   * @param clusterSeed the cluster's random seed ({@code FakeCluster.Builder.withRandomSeed}, or 0 without one)
   */
  public FaultEngine(long clusterSeed) {
    this.clusterSeed = clusterSeed;
  }

  /** A rule fired on a request. */
  public record Fired(InstalledRule rule, FaultFiring firing) {
    /** What the server does. */
    public FaultAction action() {
      return rule.action();
    }
  }

  /**
   * Installs a rule after the existing ones.
   *
   * @param pattern which requests
   * @param onCall first matching call that may fire, from 1
   * @param times firings allowed, 0 for no limit
   * @param probability in [0, 1]
   * @param seed the rule's own seed, or {@code null} to derive one from the cluster seed and the rule's number
   * @param action what to do
   * @return the rule
   */
  public InstalledRule install(RequestPattern pattern, int onCall, int times, double probability, Long seed,
      FaultAction action) {
    synchronized (lock) {
      long number = ++installed;
      long effectiveSeed = seed != null ? seed : clusterSeed + number * SEED_STEP;
      InstalledRule rule = new InstalledRule(this, number, pattern,
          new FaultSchedule(onCall, times, probability, effectiveSeed, seed != null), action);
      rules.add(rule);
      snapshot = List.copyOf(rules);
      return rule;
    }
  }

  void remove(InstalledRule rule) {
    synchronized (lock) {
      rule.markRemoved();
      rules.remove(rule);
      snapshot = List.copyOf(rules);
    }
  }

  /** The installed rules (exhausted ones included, removed ones not), in evaluation order. */
  public List<InstalledRule> rules() {
    synchronized (lock) {
      return List.copyOf(rules);
    }
  }

  /** Every firing, oldest first (at most {@link #FIRING_LIMIT}). */
  public List<FaultFiring> firings() {
    synchronized (lock) {
      return List.copyOf(firings);
    }
  }

  /** Removes every rule and forgets every firing. */
  public void clear() {
    synchronized (lock) {
      rules.forEach(InstalledRule::markRemoved);
      rules.clear();
      snapshot = List.of();
      firings.clear();
    }
  }

  /**
   * Decides a request: matches it against the installed rules (without the lock: patterns may run user predicates),
   * then, under the lock, counts it for every matching rule still installed and returns the firing of the first rule
   * that fires.
   *
   * @param request the request as received (code 0, not yet answered)
   * @return the firing, or empty to serve the request normally
   */
  public Optional<Fired> decide(ApiRequestRecord request) {
    List<InstalledRule> current = snapshot;
    if (current.isEmpty()) {
      return Optional.empty();
    }
    List<InstalledRule> matching = new ArrayList<>();
    for (InstalledRule rule : current) {
      // each pattern runs once per request, on this thread; a fault that cannot act on the request (a stale read
      // on a write) leaves it to the later rules, uncounted
      if (rule.pattern().matches(request) && rule.action().appliesTo(request)) {
        matching.add(rule);
      }
    }
    if (matching.isEmpty()) {
      return Optional.empty();
    }
    synchronized (lock) {
      Fired winner = null;
      for (InstalledRule rule : matching) {
        if (rule.removed()) {
          continue;
        }
        rule.countMatch();
        if (winner == null && rule.firesNow()) {
          FaultFiring firing = new FaultFiring(request.sequence(), request.time(), rule.describe(),
              request.describeRequest(), rule.action().description());
          rule.fired(firing);
          firings.addLast(firing);
          if (firings.size() > FIRING_LIMIT) {
            firings.removeFirst();
          }
          winner = new Fired(rule, firing);
        }
      }
      return Optional.ofNullable(winner);
    }
  }
}
