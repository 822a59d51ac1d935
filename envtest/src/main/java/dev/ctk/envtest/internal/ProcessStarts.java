package dev.ctk.envtest.internal;

import java.time.Duration;
import java.time.Instant;

/**
 * Whether a recorded start time and one read now are the same process's. Each JVM derives start times from the
 * boot time it read once, which moves with NTP and clock steps, so two readings of one process may differ by a
 * second; a reused process id starts later than that.
 *
 * <pre>{@code
 * boolean same = ProcessStarts.same(recorded, process.info().startInstant().orElseThrow());
 * }</pre>
 */
final class ProcessStarts {

  /** How far two readings of one process's start time may differ. */
  static final Duration TOLERANCE = Duration.ofSeconds(2);

  private ProcessStarts() {}

  /**
   * Whether the two start times are within {@link #TOLERANCE}.
   *
   * @param recorded the start time written down when the process owned something
   * @param now the start time of the process with that id, read now
   * @return whether it is the same process
   */
  static boolean same(Instant recorded, Instant now) {
    return Duration.between(recorded, now).abs().compareTo(TOLERANCE) <= 0;
  }
}
