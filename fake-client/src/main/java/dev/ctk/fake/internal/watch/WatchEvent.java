package dev.ctk.fake.internal.watch;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A committed change to one object, as kept in the watch history.
 *
 * @param storageKey the collection ({@code group/plural}) the object belongs to
 * @param type {@code ADDED}, {@code MODIFIED} or {@code DELETED}
 * @param object the object after the change (for DELETED: its last state, stamped with this event's
 *     resourceVersion); never mutated
 * @param previous the object before the change ({@code null} for ADDED); never mutated
 * @param resourceVersion the global resourceVersion this change committed at
 */
public record WatchEvent(String storageKey, String type, ObjectNode object, ObjectNode previous,
    long resourceVersion) {

  /** Event type ADDED. */
  public static final String ADDED = "ADDED";
  /** Event type MODIFIED. */
  public static final String MODIFIED = "MODIFIED";
  /** Event type DELETED. */
  public static final String DELETED = "DELETED";
  /** Event type BOOKMARK. */
  public static final String BOOKMARK = "BOOKMARK";
  /** Event type ERROR. */
  public static final String ERROR = "ERROR";
}
