package dev.ctk.fake;

import dev.ctk.fake.internal.fault.FaultEngine;
import dev.ctk.fake.values.FaultFiring;
import dev.ctk.fake.values.RequestPattern;
import java.util.List;
import java.util.Objects;

/**
 * Fault rules of a {@link FakeCluster}, applied at the server to every API request (client calls, informers' lists
 * and watches, kubectl), whether it comes over the in-process transport or over HTTP, before it is served. Get it with {@link FakeCluster#faults()}.
 *
 * <pre>{@code
 * ApiFaults faults = cluster.faults();
 * FaultRule r = faults.when(RequestPattern.update("ConfigMap").named("default", "web"))
 *     .onCall(2)                       // the 2nd matching update ...
 *     .times(2)                        // ... and the 3rd
 *     .answer(ApiFault.conflict());    // installs the rule
 * // run the controller; then
 * assertThat(r.firings()).hasSize(2);
 * faults.firings();                    // every firing of every rule, with the request's journal sequence
 * }</pre>
 *
 * <h2>Semantics</h2>
 * <ul>
 *   <li>Rules are evaluated in the order they were added. Every rule whose pattern matches a request counts it as
 *       one of its matching calls (numbered from 1 since the rule was added), whether or not it fires on it. The
 *       first rule that fires wins: later rules do not fire on that request.
 *   <li>A rule fires on a matching call when the call's number is at least {@link RuleBuilder#onCall(int) onCall}
 *       (default 1), it has fired fewer than {@link RuleBuilder#times(int) times} times (default: no limit; with
 *       {@code onCall} and no {@code times}: once), no earlier rule fired on that request, and, with
 *       {@link RuleBuilder#withProbability(double) a probability} p below 1, a draw from its random source is below
 *       p. So {@code onCall(2).times(2)} fires on calls 2 and 3, {@code onCall(2)} only on call 2, and
 *       {@code withProbability(0.3).times(3)} on at most 3 calls, each with chance 0.3. A call an earlier rule took
 *       does not use up a firing: the rule fires on its next eligible call.
 *   <li>Draws are made only for eligible calls, from a {@code java.util.Random} seeded with
 *       {@link RuleBuilder#withSeed(long)}, or else with a seed derived from the cluster's
 *       ({@link FakeCluster.Builder#withRandomSeed(long)}, 0 without one) and the rule's position among the rules
 *       added to this cluster. The same sequence of matching requests therefore gets the same firings.
 *   <li>Patterns see the request as received: its {@link dev.ctk.fake.values.ApiRequestRecord#code()} is 0 and
 *       {@link dev.ctk.fake.values.ApiRequestRecord#changed()} is {@code false} when a rule decides.
 *   <li>Each rule's pattern, its {@link RequestPattern#where(String, java.util.function.Predicate) where(..)}
 *       predicates included, is evaluated exactly once per request, when it arrives, before any lock is taken.
 *       With the in-process transport ({@link ClientTransport#IN_PROCESS}) that happens on the thread that sent
 *       the request (for a fabric8 client call, the calling thread), so a predicate can read the caller's
 *       {@code ThreadLocal}s (requests fabric8 sends from its own scheduler thread, i.e. its retries, are
 *       evaluated on the cluster's delivery thread); over HTTP it happens on the server's event-loop thread that
 *       serves the connection. A predicate must therefore be fast, must not block (no waiting on latches, sleeps
 *       or I/O) and must not call the API (a call to this cluster from there waits for the thread it blocks): it
 *       delays the request (over HTTP, every request of that connection) meanwhile.
 *   <li>A rule whose fault cannot act on a request ({@link ApiFault#staleRead} acts only on GET and LIST) does
 *       not count it as a matching call and does not fire on it; the request is served normally unless a later
 *       rule fires.
 *   <li>Every firing is recorded: in {@link #firings()} (the last 10,000), in the rule's
 *       {@link FaultRule#firings()} (its last {@value FaultRule#FIRING_LIMIT}; {@link FaultRule#fired()} counts them
 *       all), and in the {@link dev.ctk.fake.values.ApiRequestRecord#fault()} of the request's journal entry.
 * </ul>
 *
 * <p>Thread-safe: rules added or removed during traffic apply from the next request received.
 *
 * @since 0.1.0
 */
public final class ApiFaults {

  private final FaultEngine engine;

  ApiFaults(FaultEngine engine) {
    this.engine = engine;
  }

  /**
   * Starts a rule for the requests {@code pattern} matches; finish it with
   * {@link RuleBuilder#answer(ApiFault)}.
   *
   * @param pattern which requests, e.g. {@code RequestPattern.patch("Deployment").subresource("status")}
   * @return a builder for the rule
   * @throws NullPointerException when {@code pattern} is null
   */
  public RuleBuilder when(RequestPattern pattern) {
    return new RuleBuilder(Objects.requireNonNull(pattern, "ApiFaults.when: pattern is null"));
  }

  /**
   * The installed rules, in evaluation order (exhausted ones included until removed).
   *
   * @return a copy
   */
  public List<FaultRule> rules() {
    return engine.rules().stream().map(FaultRule::new).toList();
  }

  /**
   * Every firing of every rule, oldest first (the last 10,000).
   *
   * @return a copy
   */
  public List<FaultFiring> firings() {
    return engine.firings();
  }

  /** Removes every rule and forgets every firing; requests received afterwards are served normally. */
  public void clear() {
    engine.clear();
  }

  @Override
  public String toString() {
    List<FaultRule> rules = rules();
    return rules.isEmpty() ? "no fault rules" : rules.size() + " fault rule" + (rules.size() == 1 ? "" : "s")
        + ": " + rules;
  }

  /**
   * Describes one rule; {@link #answer(ApiFault)} installs it. Each setting may be given once; misuse fails at
   * once.
   *
   * <pre>{@code
   * faults.when(RequestPattern.list("Pod")).withProbability(0.5).withSeed(42).times(3)
   *     .answer(ApiFault.internalError("etcdserver: request timed out"));
   * }</pre>
   *
   * @since 0.1.0
   */
  public final class RuleBuilder {

    private final RequestPattern pattern;
    private Integer onCall;
    private Integer times;
    private Double probability;
    private Long seed;
    private boolean installed;

    private RuleBuilder(RequestPattern pattern) {
      this.pattern = pattern;
    }

    /**
     * Fires from the {@code n}-th matching call on (1-based). Without {@link #times(int)} the rule then fires
     * once; {@code onCall(2).times(2)} fires on calls 2 and 3.
     *
     * @param n at least 1
     * @return this builder
     * @throws IllegalArgumentException when {@code n < 1} or onCall was already set
     */
    public RuleBuilder onCall(int n) {
      requireUnset(onCall, "onCall");
      if (n < 1) {
        throw new IllegalArgumentException("ApiFaults.RuleBuilder.onCall: calls are counted from 1, was " + n
            + ". Use onCall(1) for the first matching call.");
      }
      onCall = n;
      return this;
    }

    /**
     * Fires each eligible call with probability {@code p}, drawn from a seeded random source (see
     * {@link ApiFaults}).
     *
     * @param p between 0 and 1
     * @return this builder
     * @throws IllegalArgumentException when {@code p} is outside [0, 1] or NaN, or was already set
     */
    public RuleBuilder withProbability(double p) {
      requireUnset(probability, "withProbability");
      if (!(p >= 0 && p <= 1)) {
        throw new IllegalArgumentException("ApiFaults.RuleBuilder.withProbability: a probability is between 0 and "
            + "1, was " + p + ". Use e.g. withProbability(0.3) for 30% of the matching calls.");
      }
      probability = p;
      return this;
    }

    /**
     * The seed of this rule's random source (default: derived from the cluster's seed, see {@link ApiFaults}).
     *
     * @param seed any value
     * @return this builder
     * @throws IllegalStateException when the seed was already set
     */
    public RuleBuilder withSeed(long seed) {
      requireUnset(this.seed, "withSeed");
      this.seed = seed;
      return this;
    }

    /**
     * Fires at most {@code n} times (default: until removed, or once with {@link #onCall(int)}).
     *
     * @param n at least 1
     * @return this builder
     * @throws IllegalArgumentException when {@code n < 1}
     * @throws IllegalStateException when times or once was already set
     */
    public RuleBuilder times(int n) {
      requireUnset(times, "times/once");
      if (n < 1) {
        throw new IllegalArgumentException("ApiFaults.RuleBuilder.times: a rule fires at least once, was " + n
            + ". Leave times out for a rule that fires until removed.");
      }
      times = n;
      return this;
    }

    /**
     * Fires once: {@code times(1)}.
     *
     * @return this builder
     * @throws IllegalStateException when times or once was already set
     */
    public RuleBuilder once() {
      return times(1);
    }

    /**
     * Installs the rule after the existing ones; it applies from the next request received.
     *
     * @param fault what the server answers when it fires
     * @return the installed rule
     * @throws NullPointerException when {@code fault} is null
     * @throws IllegalStateException when this builder already installed its rule
     */
    public FaultRule answer(ApiFault fault) {
      Objects.requireNonNull(fault, "ApiFaults.RuleBuilder.answer: fault is null");
      if (installed) {
        throw new IllegalStateException("ApiFaults.RuleBuilder.answer(..) was already called for \"" + pattern
            + "\"; a builder installs one rule. Start another with faults.when(..).");
      }
      installed = true;
      int limit = times != null ? times : onCall != null ? 1 : 0;
      return new FaultRule(engine.install(pattern, onCall == null ? 1 : onCall, limit,
          probability == null ? 1.0 : probability, seed, fault.action()));
    }

    private void requireUnset(Object value, String setting) {
      if (value != null) {
        throw new IllegalStateException("ApiFaults.RuleBuilder." + setting + " was already set to " + value
            + " for \"" + pattern + "\"; each setting is given once.");
      }
      if (installed) {
        throw new IllegalStateException("ApiFaults.RuleBuilder: the rule for \"" + pattern + "\" is already "
            + "installed; settings after answer(..) have no effect. Start another with faults.when(..).");
      }
    }
  }
}
