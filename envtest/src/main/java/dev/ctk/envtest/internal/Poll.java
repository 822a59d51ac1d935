package dev.ctk.envtest.internal;

import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.values.EnvtestException;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Polls a starting server every 100 ms until an attempt succeeds, the server dies or a deadline
 * passes; every timeout message has one shape: {@code <subject> did not become ready within <bound>
 * (waited <elapsed>): <pending>; last answer: <answer>. <fix>} followed by the diagnostics.
 *
 * <pre>{@code
 * Poll.until("etcd at http://127.0.0.1:2379", timeout, startNanos, () -> "GET /health never said true",
 *     () -> healthy() ? null : "HTTP 503", etcd::throwIfExited, etcd::describeLog);
 * }</pre>
 */
public final class Poll {

  /** One try. */
  @FunctionalInterface
  public interface Attempt {
    /**
     * Tries once.
     *
     * @return {@code null} when done, else what was seen (for the timeout message)
     * @throws Exception any failure, shown as the last answer
     */
    String tryOnce() throws Exception;
  }

  private static final long POLL_INTERVAL_MILLIS = 100;
  private static final int MAX_ANSWER_CHARS = 300;

  private Poll() {}

  /**
   * Polls until {@code attempt} returns {@code null}.
   *
   * @param subject what is awaited, e.g. {@code kube-apiserver at https://127.0.0.1:40123}
   * @param timeout the bound, counted from {@code startNanos}; at least one attempt is made
   * @param startNanos when the wait (or the whole start) began, a {@link System#nanoTime()} value
   * @param pending what has not happened yet, asked for the timeout message
   * @param attempt the try
   * @param stillAlive called before each try; throws when the server died
   * @param diagnostics appended to the timeout message (the last log lines)
   * @throws EnvtestException on timeout or interruption, or from {@code stillAlive}
   */
  public static void until(
      String subject,
      Duration timeout,
      long startNanos,
      Supplier<String> pending,
      Attempt attempt,
      Runnable stillAlive,
      Supplier<String> diagnostics) {
    long deadline = startNanos + timeout.toNanos();
    String lastAnswer = "none yet";
    while (true) {
      stillAlive.run();
      try {
        String answer = attempt.tryOnce();
        if (answer == null) {
          return;
        }
        lastAnswer = shorten(answer);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw interrupted(subject, startNanos, e);
      } catch (Exception e) {
        lastAnswer = describe(e);
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new EnvtestException(
            subject
                + " did not become ready within "
                + DurationText.of(timeout)
                + " (waited "
                + DurationText.since(startNanos)
                + "): "
                + pending.get()
                + "; last answer: "
                + lastAnswer
                + ". If the machine is only slow, raise the start timeout; otherwise the lines"
                + " below say why.\n"
                + diagnostics.get());
      }
      try {
        Thread.sleep(POLL_INTERVAL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw interrupted(subject, startNanos, e);
      }
    }
  }

  /**
   * A failure as one short line: the root cause's simple class name and message.
   *
   * @param failure any failure
   * @return e.g. {@code ConnectException: Connection refused}
   */
  public static String describe(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? "" : ": " + root.getMessage();
    return shorten(root.getClass().getSimpleName() + message);
  }

  private static String shorten(String text) {
    String oneLine = text.replace('\n', ' ').strip();
    return oneLine.length() <= MAX_ANSWER_CHARS
        ? oneLine
        : oneLine.substring(0, MAX_ANSWER_CHARS) + "...";
  }

  private static EnvtestException interrupted(String subject, long startNanos, Exception cause) {
    return new EnvtestException(
        "Interrupted while waiting for "
            + subject
            + " to become ready (waited "
            + DurationText.since(startNanos)
            + ").",
        cause);
  }
}
