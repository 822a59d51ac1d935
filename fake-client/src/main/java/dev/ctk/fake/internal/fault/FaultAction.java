package dev.ctk.fake.internal.fault;

import dev.ctk.fake.internal.status.ApiError;
import java.time.Duration;
import java.util.function.Function;

/**
 * What the server does instead of (or before) its normal answer when a fault rule fires: answer with an error
 * {@code Status} ({@link Respond}), answer normally after a pause ({@link Delay}), or close the connection without
 * an answer ({@link Drop}).
 */
public sealed interface FaultAction permits FaultAction.Respond, FaultAction.Delay, FaultAction.Drop {

  /**
   * How the fault reads in the journal and in firings, e.g. {@code 409 Conflict} or {@code delay 250ms}.
   *
   * @return the description
   */
  String description();

  /**
   * Answers with an error.
   *
   * @param description the fault text
   * @param error builds the error for the request it answers (kube's messages name the object)
   * @param retryAfterSeconds the {@code Retry-After} header value, or {@code null} for none
   */
  record Respond(String description, Function<FaultTarget, ApiError> error, Integer retryAfterSeconds)
      implements FaultAction {
  }

  /**
   * Waits, then serves the request normally: the request is processed when the delay ends.
   *
   * @param delay how long, positive
   */
  record Delay(Duration delay) implements FaultAction {
    @Override
    public String description() {
      return "delay " + text(delay);
    }
  }

  /** Closes the connection without answering. */
  record Drop() implements FaultAction {
    @Override
    public String description() {
      return "drop connection";
    }
  }

  /**
   * A duration as people write it: {@code 250ms}, {@code 2s}, {@code 1500ms}, {@code 3m}.
   *
   * @param duration a non-negative duration
   * @return the text
   */
  static String text(Duration duration) {
    long millis = duration.toMillis();
    if (millis % 60_000 == 0 && millis >= 60_000) {
      return millis / 60_000 + "m";
    }
    if (millis % 1000 == 0 && millis > 0) {
      return millis / 1000 + "s";
    }
    return millis + "ms";
  }
}
