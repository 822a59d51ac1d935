package dev.ctk.assertions.internal;

import java.time.Duration;
import org.awaitility.constraint.AtMostWaitConstraint;
import org.awaitility.core.ConditionFactory;
import org.awaitility.pollinterval.FixedPollInterval;

/**
 * ctk's own Awaitility waits, built so that the global defaults a user may set ({@code
 * Awaitility.setDefaultPollInterval}, {@code ignoreExceptionsByDefault}, {@code
 * setDefaultFailFastCondition}, {@code setDefaultConditionEvaluationListener}, {@code setLogging},
 * {@code pollExecutorService}, ...) cannot change how ctk waits: every setting is given explicitly to
 * {@link ConditionFactory}'s constructor instead of starting from {@code Awaitility.await()}.
 *
 * <p>Internal: not part of ctk's API; it may change in any release.
 */
public final class Polling {

  /** How often a wait re-evaluates its condition. */
  public static final Duration INTERVAL = Duration.ofMillis(10);

  private Polling() {}

  /**
   * A wait of at most {@code timeout}: first evaluation at once, then every {@link #INTERVAL}, in the
   * calling thread; no exception ignored, no uncaught-exception handler, no listener, no fail-fast
   * condition.
   *
   * @param timeout the longest wait, positive
   * @return a condition factory independent of Awaitility's global defaults
   */
  public static ConditionFactory atMost(Duration timeout) {
    return new ConditionFactory(null,
        AtMostWaitConstraint.TEN_SECONDS.withMaxWaitTime(timeout),
        FixedPollInterval.fixed(INTERVAL),
        Duration.ZERO,
        false,
        error -> false,
        null,
        null,
        null)
        .pollInSameThread();
  }
}
