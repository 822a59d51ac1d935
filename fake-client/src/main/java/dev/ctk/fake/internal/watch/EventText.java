package dev.ctk.fake.internal.watch;

import java.util.function.Supplier;

/**
 * One watch event's JSON ({@code {"type":..,"object":..}}), written at most once, by whichever thread asks first.
 *
 * <p>A committed change's event is handed to an in-process watch's queue before it is written: the queue wakes its
 * delivery thread first and writes the text next, on the writer's thread, while that thread wakes (see
 * {@link WatchSink#send(EventText)}). The text is then written by the writer and read by the delivery thread, or, when
 * the delivery thread asks first, written there and the writer waits for it.
 *
 * <pre>{@code
 * EventText event = EventText.of(json);          // already written
 * EventText later = EventText.lazy(() -> write());
 * sink.send(later);                               // a sink that queues it may write it after waking its reader
 * }</pre>
 *
 * <p>Limits: the supplier must read only what no thread changes any more (a stored version, which the store never
 * modifies), as it may run on a delivery thread.
 */
public final class EventText {

  private Supplier<String> writer;
  private String text;

  private EventText(Supplier<String> writer, String text) {
    this.writer = writer;
    this.text = text;
  }

  /** An event already written. */
  public static EventText of(String text) {
    return new EventText(null, text);
  }

  /** An event written by {@code writer} when first asked for. */
  public static EventText lazy(Supplier<String> writer) {
    return new EventText(writer, null);
  }

  /** The event's JSON, written now if no thread has written it yet. */
  public synchronized String text() {
    if (text == null) {
      text = writer.get();
      writer = null;
    }
    return text;
  }
}
