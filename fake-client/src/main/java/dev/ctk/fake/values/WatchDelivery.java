package dev.ctk.fake.values;

import java.time.Instant;

/**
 * One entry of {@link dev.ctk.fake.WatchFaults#deliveries()}: an event the fake API server delivered on a watch, or what a watch
 * fault did to an event or a watch.
 *
 * <pre>{@code
 * WatchDelivery d = cluster.watchFaults().deliveries().get(0);
 * d.summary();   // "watch #2 ConfigMap in default: MODIFIED default/web rv=17 HELD (hold(ConfigMap))"
 * }</pre>
 *
 * <p>An event that a rule touches leaves several entries: for example {@code DELAYED} when the delay rule takes it
 * and {@code DELIVERED} when it is sent, {@code HELD} then {@code RELEASED}, {@code REORDERED} then
 * {@code DELIVERED}, the original's entries then a {@code DUPLICATED} entry and the copy's.
 *
 * @param time when it happened (real wall-clock time, whatever clock the cluster stamps objects with)
 * @param watchId the watch's number, unique within the cluster, in opening order
 * @param watch the watch's description: kind, namespace (or all namespaces), label and field selectors, e.g.
 *     {@code ConfigMap in default labelSelector=app=web}
 * @param eventType {@code ADDED}, {@code MODIFIED}, {@code DELETED}, {@code BOOKMARK} or {@code ERROR}; {@code null}
 *     for {@link Outcome#CLOSED}
 * @param namespace the object's namespace, or {@code null} (cluster-scoped objects, bookmarks, errors, closes)
 * @param name the object's name, or {@code null} (bookmarks, errors, closes)
 * @param resourceVersion the resourceVersion the event carries, or {@code null} (errors, closes)
 * @param outcome what happened
 * @param detail the rule or action responsible (its description), or why an event was discarded; {@code null} for
 *     ordinary deliveries
 * @since 0.1.0
 */
public record WatchDelivery(Instant time, long watchId, String watch, String eventType, String namespace,
    String name, String resourceVersion, Outcome outcome, String detail) {

  /**
   * What happened.
   *
   * @since 0.1.0
   */
  public enum Outcome {
    /** The event was sent to the client (at once, or when its delay passed or its reorder window filled). */
    DELIVERED,
    /** The event was not sent: a drop rule took it, or the watch ended while the event waited. */
    DROPPED,
    /** A duplicate rule made a second copy of the event (the copy's own entries follow). */
    DUPLICATED,
    /** A delay rule took the event; it is sent when the delay has passed ({@code DELIVERED}). */
    DELAYED,
    /** A hold took the event; it is sent when the hold is released ({@code RELEASED}). */
    HELD,
    /** The event was sent because its hold was released. */
    RELEASED,
    /** A reorder rule moved the event within its window ({@code detail} says where); it is sent next. */
    REORDERED,
    /** The watch ended: {@link dev.ctk.fake.WatchFaults#close}, or the client, a timeout, a removed kind, the server closing. */
    CLOSED,
    /** {@link dev.ctk.fake.WatchFaults#expire} sent the watch a 410 ERROR event and ended it. */
    EXPIRED
  }

  /**
   * One line for messages and timelines, e.g.
   * {@code watch #2 ConfigMap in default: MODIFIED default/web rv=17 DELIVERED}.
   *
   * @return the summary
   */
  public String summary() {
    StringBuilder out = new StringBuilder("watch #").append(watchId).append(' ').append(watch).append(": ");
    if (eventType != null) {
      out.append(eventType).append(' ');
      if (name != null) {
        out.append(namespace == null ? name : namespace + "/" + name).append(' ');
      }
      if (resourceVersion != null) {
        out.append("rv=").append(resourceVersion).append(' ');
      }
    }
    out.append(outcome);
    if (detail != null) {
      out.append(" (").append(detail).append(')');
    }
    return out.toString();
  }

  @Override
  public String toString() {
    return summary();
  }
}
