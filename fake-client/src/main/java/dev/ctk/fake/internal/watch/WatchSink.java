package dev.ctk.fake.internal.watch;

/**
 * Where one watch's events go: a websocket or an HTTP chunked response.
 *
 * <p>Implementations must keep call order and block on nothing but the writing of an {@link EventText} (which another
 * thread may be doing): {@link #send} is called while the store lock is held, so a sink only queues the line for its
 * connection's event loop or delivery thread.
 */
public interface WatchSink {

  /**
   * Queues one watch event, already serialized as {@code {"type":..,"object":..}} without a trailing newline.
   *
   * @param eventJson the event
   */
  void send(String eventJson);

  /**
   * Queues one watch event that may not be written yet. A sink that queues it for another thread may write it
   * after it has woken that thread ({@link EventText#text()} on the caller's thread, before it returns); this one
   * writes it now.
   *
   * @param event the event
   */
  default void send(EventText event) {
    send(event.text());
  }

  /**
   * A write that may produce an event for this sink has begun (caller holds the store lock). A sink that hands
   * events to another thread may wake that thread now, so that its wake-up overlaps the write; this one does nothing.
   *
   * @param watchesTold how many watches are told of this write, this one included
   */
  default void expectEvent(int watchesTold) {
  }

  /** Ends the stream after the events already queued (idempotent). */
  void close();
}
