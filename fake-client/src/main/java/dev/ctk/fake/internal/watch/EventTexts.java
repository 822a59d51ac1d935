package dev.ctk.fake.internal.watch;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON of the events one committed change sends, written once for all the watches that send the object as
 * stored (a watch's view returns the same instance when it changes nothing), instead of once per watch: with ten
 * informers on a kind, one serialization per write instead of ten. Events whose object a watch's view rewrote (another
 * apiVersion, a custom resource's read-time defaults) or that carry another object (a selector transition's DELETED)
 * are serialized on their own.
 *
 * <p>Not thread-safe: one per {@link WatchHub#publish}, used under the store lock ({@link #none()}, which never
 * stores a text, is shared).
 */
final class EventTexts {

  /** Shares nothing and keeps no state, so one serves every caller. */
  private static final EventTexts NONE = new EventTexts(null);

  private final ObjectNode object;
  private String type;
  private EventText json;

  private EventTexts(ObjectNode object) {
    this.object = object;
  }

  /** The texts of one committed change's {@code object}. */
  static EventTexts of(ObjectNode object) {
    return new EventTexts(object);
  }

  /** Texts that share nothing: every event is serialized (a single send). */
  static EventTexts none() {
    return NONE;
  }

  /** {@code {"type":..,"object":..}} for {@code sent}, reused when it is the change's object with the same type. */
  EventText eventText(String eventType, ObjectNode sent) {
    if (sent != object || object == null) {
      return EventText.of(Watch.eventJson(eventType, sent));
    }
    if (!eventType.equals(type)) {
      Thread writer = Thread.currentThread();
      // the serialization is kept for the answer only on the writer's thread: a delivery thread keeps nothing
      json = EventText.lazy(() -> Watch.committedEventJson(eventType, sent, Thread.currentThread() == writer));
      type = eventType;
    }
    return json;
  }
}
