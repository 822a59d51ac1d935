package dev.ctk.fake.internal.watch;

import java.time.Instant;

/**
 * One line of the watch delivery log: an event a watch delivered, or what a fault rule or action did to it.
 *
 * @param time real wall-clock time
 * @param watchId the watch's number
 * @param watch the watch's description, e.g. {@code ConfigMap in default}
 * @param eventType {@code ADDED}, {@code MODIFIED}, {@code DELETED}, {@code BOOKMARK}, {@code ERROR}, or
 *     {@code null} for a watch that closed
 * @param namespace the object's namespace, or {@code null}
 * @param name the object's name, or {@code null}
 * @param resourceVersion the object's resourceVersion, or {@code null}
 * @param outcome what happened
 * @param detail the rule or action responsible, or {@code null}
 */
public record DeliveryRecord(Instant time, long watchId, String watch, String eventType, String namespace,
    String name, String resourceVersion, Outcome outcome, String detail) {

  /** What happened to an event (or a watch). */
  public enum Outcome {
    /** Sent to the client. */
    DELIVERED,
    /** Not sent: a drop rule, or the watch ended while the event waited. */
    DROPPED,
    /** A second copy, made by a duplicate rule. */
    DUPLICATED,
    /** Queued to be sent later by a delay rule. */
    DELAYED,
    /** Held back by a hold. */
    HELD,
    /** Sent when its hold was released. */
    RELEASED,
    /** Moved within a window by a reorder rule. */
    REORDERED,
    /** The watch ended. */
    CLOSED,
    /** The watch was sent a 410 ERROR event and ended. */
    EXPIRED
  }
}
