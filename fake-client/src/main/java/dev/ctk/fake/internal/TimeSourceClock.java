package dev.ctk.fake.internal;

import dev.ctk.controller.TimeSource;
import dev.ctk.controller.VirtualTime;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The {@link Clock} of a {@link TimeSource}, for the timestamps the fake writes: the system clock in UTC for the
 * system source, {@link VirtualTime#clock()} for a virtual one, else a read-only view of {@link TimeSource#now()}.
 */
public final class TimeSourceClock extends Clock {

  private final TimeSource time;
  private final ZoneId zone;

  private TimeSourceClock(TimeSource time, ZoneId zone) {
    this.time = time;
    this.zone = zone;
  }

  /** The clock of {@code time}, in UTC. */
  public static Clock of(TimeSource time) {
    if (time == TimeSource.system()) {
      return Clock.systemUTC();
    }
    if (time instanceof VirtualTime virtual) {
      return virtual.clock();
    }
    return new TimeSourceClock(time, ZoneOffset.UTC);
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  @Override
  public Clock withZone(ZoneId newZone) {
    return new TimeSourceClock(time, newZone);
  }

  @Override
  public Instant instant() {
    return time.now();
  }

  @Override
  public String toString() {
    return "TimeSourceClock[" + time + ", " + zone + "]";
  }
}
