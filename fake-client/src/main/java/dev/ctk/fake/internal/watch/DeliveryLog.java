package dev.ctk.fake.internal.watch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.values.WatchDelivery;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The last {@code limit} watch deliveries and fault firings, oldest first, as the public {@link WatchDelivery} entries
 * that {@code WatchFaults.deliveries()} returns. Thread-safe and never blocks long.
 */
public final class DeliveryLog {

  private final int limit;
  private final Deque<WatchDelivery> records = new ArrayDeque<>();

  /**
   * Creates a log.
   *
   * @param limit how many records to keep (at least 1)
   */
  public DeliveryLog(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("delivery log limit must be at least 1, was " + limit);
    }
    this.limit = limit;
  }

  /** Records one event whose parts were read before. */
  void record(Watch watch, String eventType, String namespace, String name, String resourceVersion,
      WatchDelivery.Outcome outcome, String detail) {
    add(new WatchDelivery(Instant.now(), watch.id(), watch.identityText(), eventType, namespace, name,
        resourceVersion, outcome, detail));
  }

  private void add(WatchDelivery record) {
    synchronized (records) {
      records.addLast(record);
      if (records.size() > limit) {
        records.removeFirst();
      }
    }
  }

  /** A copy of the records, oldest first. */
  public List<WatchDelivery> records() {
    synchronized (records) {
      return List.copyOf(records);
    }
  }

  static String text(JsonNode metadata, String field) {
    if (metadata == null) {
      return null;
    }
    JsonNode value = metadata.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }
}
