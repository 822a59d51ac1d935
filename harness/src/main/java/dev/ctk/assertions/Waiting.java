package dev.ctk.assertions;

import dev.ctk.assertions.internal.EarlyStop;
import dev.ctk.assertions.internal.Polling;
import dev.ctk.assertions.internal.StateFormat;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

/**
 * How long an assertion may wait for its check to pass: immediately (no timeout), or polling with
 * Awaitility until a timeout. Immutable.
 *
 * <p>The wait ignores Awaitility's global defaults ({@link Polling}): a user's {@code
 * Awaitility.ignoreExceptionsByDefault()}, fail-fast condition, listener or poll interval do not change
 * how ctk's assertions wait or fail.
 */
final class Waiting {

  static final Waiting IMMEDIATE = new Waiting(null);

  private final Duration timeout;

  private Waiting(Duration timeout) {
    this.timeout = timeout;
  }

  static Waiting within(Duration timeout) {
    Objects.requireNonNull(timeout, "within(null): pass a timeout such as Duration.ofSeconds(5)");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("within(" + timeout + "): the timeout must be positive, "
          + "such as Duration.ofSeconds(5). Without within(..) an assertion checks once, at once.");
    }
    return new Waiting(timeout);
  }

  boolean waits() {
    return timeout != null;
  }

  /** {@code ""} or {@code " within 5s"}, for the expectation line of a message. */
  String phrase() {
    return timeout == null ? "" : " within " + StateFormat.duration(timeout);
  }

  /** {@code ""} or {@code "still "}: "but it still held 2 keys". */
  String still() {
    return timeout == null ? "" : "still ";
  }

  /**
   * Runs the check once, or until it passes or the timeout elapses. On timeout throws an {@link
   * AssertionError} made in this thread with the last failure's message (which says "within ...")
   * and what that failure carried: its cause (the reconcile error it names) and its suppressed
   * exceptions. The last failure itself is not the cause: it would print the same message twice.
   */
  void check(Runnable check) {
    if (timeout == null) {
      check.run();
      return;
    }
    AtomicReference<AssertionError> last = new AtomicReference<>();
    try {
      Polling.atMost(timeout).failFast(EarlyStop.reason(), EarlyStop.failFast()).untilAsserted(() -> {
        try {
          check.run();
        } catch (AssertionError e) {
          last.set(e);
          throw e;
        }
      });
    } catch (ConditionTimeoutException | TerminalFailureException stopped) {
      AssertionError lastFailure = last.get();
      if (lastFailure == null) {
        throw new AssertionError("The check did not finish" + phrase() + ".", stopped);
      }
      String early = stopped instanceof TerminalFailureException && stopped.getCause() != null
          ? "\n(" + stopped.getCause().getMessage() + ")" : "";
      AssertionError failure = new AssertionError(lastFailure.getMessage() + early, lastFailure.getCause());
      for (Throwable suppressed : lastFailure.getSuppressed()) {
        failure.addSuppressed(suppressed);
      }
      throw failure;
    }
  }
}
