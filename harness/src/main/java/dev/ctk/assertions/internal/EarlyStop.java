package dev.ctk.assertions.internal;

import java.lang.reflect.Field;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.FailFastCondition;
import org.awaitility.core.ThrowingRunnable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a perturbed run stop a wait whose outcome can no longer change: the perturbation engine {@link #arm arms} a
 * verdict on the test's thread, and every wait of that thread asks it before each poll, through Awaitility's
 * fail-fast condition (Awaitility evaluates it on the thread that awaits, before each evaluation of the condition).
 * ctk's own {@code within(..)} assertions add it themselves; a test's {@code await()} gets it as Awaitility's default
 * fail-fast condition, installed when a run arms a verdict.
 *
 * <p>Limits: Awaitility has one default fail-fast condition per JVM. When a test installed its own ({@code
 * Awaitility.setDefaultFailFastCondition}), ctk leaves it and that test's own awaits are not stopped early; a test
 * that resets Awaitility ({@code Awaitility.reset()}) removes ctk's until the next run arms one. Outside an armed
 * run (every other thread and test) the check does nothing.
 */
public final class EarlyStop {

  private static final Logger LOG = LoggerFactory.getLogger(EarlyStop.class);
  private static final ThreadLocal<Supplier<String>> VERDICT = new ThreadLocal<>();
  /** The fail-fast check: the same instance always, so that ctk can tell its own default from a test's. */
  private static final ThrowingRunnable CHECK = EarlyStop::verify;
  private static final String REASON = "ctk stopped this perturbed run's wait: its outcome could no longer change";

  private EarlyStop() {}

  /**
   * The wait of a perturbed run was stopped because nothing could change any more; its message says what held
   * still and for how long.
   */
  public static final class RunStoppedEarly extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RunStoppedEarly(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Arms a verdict on the calling thread (the test's), and makes sure Awaitility's default fail-fast condition asks
   * it.
   *
   * @param verdict called before each poll of every wait on this thread: a reason to stop the wait, or {@code null}
   */
  public static void arm(Supplier<String> verdict) {
    VERDICT.set(verdict);
    installDefault();
  }

  /** Disarms the calling thread's verdict: its waits run to their timeouts again. */
  public static void disarm() {
    VERDICT.remove();
  }

  /** The fail-fast reason Awaitility reports, for {@code failFast(reason(), failFast())}. */
  public static String reason() {
    return REASON;
  }

  /**
   * The fail-fast check for a wait's {@code failFast(..)}: throws when the calling thread's armed verdict says the
   * wait cannot end otherwise than by its timeout.
   *
   * @return the check
   */
  public static ThrowingRunnable failFast() {
    return CHECK;
  }

  private static void verify() {
    Supplier<String> verdict = VERDICT.get();
    if (verdict == null) {
      return;
    }
    String reason = verdict.get();
    if (reason != null) {
      throw new RunStoppedEarly(reason);
    }
  }

  /** Installs {@link #CHECK} as Awaitility's default fail-fast condition, unless a test installed its own. */
  private static synchronized void installDefault() {
    try {
      Field field = Awaitility.class.getDeclaredField("defaultFailFastCondition");
      field.setAccessible(true);
      Object current = field.get(null);
      if (current != null && !isOurs(current)) {
        return;   // the test's own: leave it
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("Could not read Awaitility's default fail-fast condition; installing ctk's", e);
    }
    Awaitility.setDefaultFailFastCondition(REASON, CHECK);
  }

  private static boolean isOurs(Object condition) {
    return condition instanceof FailFastCondition.CallableFailFastCondition.FailFastAssertion assertion
        && assertion.getFailFastAssertion() == CHECK;
  }

}
