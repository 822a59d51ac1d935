package dev.ctk.harness.internal.timeline;

import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.FaultFiring;
import dev.ctk.fake.values.WatchDelivery;
import java.time.Instant;
import java.util.List;

/**
 * The failure timeline's sources that only a fake cluster has: its request journal (API requests and
 * injected events), its fault firings and its watch deliveries. Each is read on its own: one that
 * throws becomes a note, and the others are still read.
 */
public final class TimelineFakeSources {

  private TimelineFakeSources() {}

  /**
   * Where the journal stood when a scope began.
   *
   * @param sequence the journal's last sequence number then
   */
  public record Mark(long sequence) {}

  /** The journal's position now. */
  public static Mark mark(FakeCluster cluster) {
    return new Mark(cluster.requests().lastSequence());
  }

  /**
   * Adds the fake cluster's records made after {@code mark} (requests, firings) or at or after {@code
   * since} (watch deliveries) to {@code entries}, and a note for each source that could not be read
   * or lost records to its bound.
   */
  public static void read(FakeCluster cluster, Mark mark, Instant since, List<TimelineEntry> entries,
      List<String> notes) {
    try {
      List<ApiRequestRecord> records = cluster.requests().since(mark.sequence());
      // a gap in the sequence numbers is a loss only when the journal is full: numbers are also taken by
      // requests that are still being answered (a delay fault) or that were never recorded
      if (!records.isEmpty() && records.get(0).sequence() > mark.sequence() + 1
          && cluster.requests().all().size() >= cluster.requests().limit()) {
        notes.add("request journal: " + (records.get(0).sequence() - mark.sequence() - 1)
            + " requests since the test started were dropped (the journal keeps the last "
            + cluster.requests().limit() + ")");
      }
      for (ApiRequestRecord record : records) {
        entries.add(new TimelineEntry(record.time(),
            record.injected() ? TimelineEntry.Kind.INJECTED : TimelineEntry.Kind.REQUEST,
            record.injected() ? "injected" : "request", record.summary(), null, 0));
      }
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      notes.add("request journal: unreadable, reading it threw " + TimelineReport.describe(e));
    }
    try {
      for (FaultFiring firing : cluster.faults().firings()) {
        if (firing.sequence() > mark.sequence()) {
          entries.add(new TimelineEntry(firing.time(), TimelineEntry.Kind.FAULT, "fault",
              firing.toString(), null, 0));
        }
      }
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      notes.add("fault firings: unreadable, reading them threw " + TimelineReport.describe(e));
    }
    readWatchDeliveries(cluster, since, entries, notes);
  }

  private static void readWatchDeliveries(FakeCluster cluster, Instant since,
      List<TimelineEntry> entries, List<String> notes) {
    try {
      for (WatchDelivery delivery : cluster.watchFaults().deliveries()) {
        if (!delivery.time().isBefore(since)) {
          entries.add(new TimelineEntry(delivery.time(), TimelineEntry.Kind.WATCH, "watch",
              delivery.summary(), null, 0));
        }
      }
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      notes.add("watch deliveries: unreadable, reading them threw " + TimelineReport.describe(e));
    }
  }
}
