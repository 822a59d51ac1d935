package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.watch.WatchEvent;
import dev.ctk.fake.internal.watch.WatchHub;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Stale reads: the resourceVersion the store's get and list answer at on the current thread (set by a stale-read
 * fault around the dispatch of one GET or LIST), and a collection as it was then: the current objects rolled back
 * through the watch history, newest change first (an ADDED is removed, a MODIFIED or DELETED puts back the object
 * as it was before). A read at the past costs the size of the collection (or namespace) plus the changes after that
 * resourceVersion; other reads cost nothing more. {@link #scope} is used under the store lock.
 */
final class PastState {

  private final ThreadLocal<Long> readAt = new ThreadLocal<>();

  /** Runs {@code read} with this thread's reads answering the state at {@code resourceVersion}. */
  <R> R readAt(long resourceVersion, Supplier<R> read) {
    Long outer = readAt.get();
    readAt.set(resourceVersion);
    try {
      return read.get();
    } finally {
      if (outer == null) {
        readAt.remove();
      } else {
        readAt.set(outer);
      }
    }
  }

  /** The resourceVersion this thread reads at: the past one, else {@code now}. */
  long resourceVersion(long now) {
    Long at = readAt.get();
    return at == null ? now : at;
  }

  /**
   * The part of a collection a read in {@code namespace} selects, as this thread reads it.
   *
   * @param current that part now, in key order
   * @param now the store's resourceVersion
   * @param hub the watch history
   * @return {@code current} when this thread reads the present; else a new map in key order (the objects
   *     themselves are the stored, immutable trees)
   * @throws ApiError 410 Expired when the history does not reach back to the past resourceVersion; 504 when it is
   *     in the future
   */
  NavigableMap<String, ObjectNode> scope(ResourceType type, String namespace, NavigableMap<String, ObjectNode> current,
      long now, WatchHub hub) {
    Long at = readAt.get();
    if (at == null) {
      return current;
    }
    if (at > now) {
      throw ApiError.tooLargeResourceVersion(at, now);
    }
    if (at < hub.historyStart()) {
      throw ApiError.expired("too old resource version: " + at + " (" + hub.historyStart() + ")");
    }
    NavigableMap<String, ObjectNode> past = new TreeMap<>(current);
    List<WatchEvent> changes = hub.changesSince(at);
    for (int i = changes.size() - 1; i >= 0; i--) {
      WatchEvent change = changes.get(i);
      if (!change.storageKey().equals(type.storageKey())) {
        continue;
      }
      ObjectNode object = change.object();
      String objectNamespace = type.namespaced() ? object.path("metadata").path("namespace").asText(null) : null;
      if (type.namespaced() && namespace != null && !namespace.equals(objectNamespace)) {
        continue;
      }
      String name = object.path("metadata").path("name").asText();
      String key = type.namespaced() ? objectNamespace + "/" + name : name;
      if (change.previous() == null) {
        past.remove(key);
      } else {
        past.put(key, change.previous());
      }
    }
    return past;
  }
}
