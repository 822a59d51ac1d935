package dev.ctk.fake.internal.watch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * One open watch: a filter, the sink its events go to, and the selector transitions kube applies.
 *
 * <p>For a committed change, a watch whose filter selected the object before and after sees MODIFIED; one that
 * selects it only after sees ADDED; one that selected it only before sees DELETED carrying the object's previous
 * state stamped with the new resourceVersion (what kube-apiserver's watch cache sends when an object stops
 * matching a label or field selector).
 */
public final class Watch {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final long id;
  private final WatchFilter filter;
  private final UnaryOperator<ObjectNode> view;
  private final WatchSink sink;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Consumer<Watch> onClose = w -> { };

  Watch(long id, WatchFilter filter, UnaryOperator<ObjectNode> view, WatchSink sink) {
    this.id = id;
    this.filter = filter;
    this.view = view;
    this.sink = sink;
  }

  /** The view that rewrites only {@code apiVersion} (to the version a watch was opened on, when not null). */
  static UnaryOperator<ObjectNode> apiVersionView(String apiVersion) {
    return object -> {
      if (apiVersion == null || !object.has("apiVersion") || apiVersion.equals(object.get("apiVersion").asText())) {
        return object;
      }
      ObjectNode copy = object.deepCopy();
      copy.put("apiVersion", apiVersion);
      return copy;
    };
  }

  /** A number unique within its hub, in opening order. */
  public long id() {
    return id;
  }

  /** What this watch selects. */
  public WatchFilter filter() {
    return filter;
  }

  /** Whether the watch has ended. */
  public boolean isClosed() {
    return closed.get();
  }

  void onClose(Consumer<Watch> onClose) {
    this.onClose = onClose;
  }

  /** Ends the watch: no further events, the sink is closed, the hub forgets it. Idempotent. */
  public void close() {
    if (closed.compareAndSet(false, true)) {
      onClose.accept(this);
      sink.close();
    }
  }

  /** Applies selector transitions to a committed change and sends what this watch should see. */
  void offer(WatchEvent event) {
    if (!event.storageKey().equals(filter.storageKey())) {
      return;
    }
    switch (event.type()) {
      case WatchEvent.ADDED -> {
        if (filter.matches(event.object())) {
          send(WatchEvent.ADDED, event.object());
        }
      }
      case WatchEvent.DELETED -> {
        // selected on the last stored state (the object as it was before the delete), as kube's watch cache does
        ObjectNode last = event.previous() != null ? event.previous() : event.object();
        if (filter.matches(last)) {
          send(WatchEvent.DELETED, event.object());
        }
      }
      default -> {
        boolean before = event.previous() != null && filter.matches(event.previous());
        boolean after = filter.matches(event.object());
        if (before && after) {
          send(WatchEvent.MODIFIED, event.object());
        } else if (after) {
          send(WatchEvent.ADDED, event.object());
        } else if (before) {
          ObjectNode gone = event.previous().deepCopy();
          ((ObjectNode) gone.path("metadata")).put("resourceVersion", Long.toString(event.resourceVersion()));
          send(WatchEvent.DELETED, gone);
        }
      }
    }
  }

  /**
   * Sends an event unless the watch is closed. Objects of ADDED, MODIFIED and DELETED events go through the watch's
   * view (the version it was opened on: apiVersion, and a custom resource's read-time pruning and defaults); ERROR
   * and BOOKMARK objects go as given.
   */
  void send(String type, ObjectNode object) {
    if (closed.get()) {
      return;
    }
    ObjectNode toSend = WatchEvent.ERROR.equals(type) || WatchEvent.BOOKMARK.equals(type) ? object
        : view.apply(object);
    ObjectNode event = JSON.createObjectNode();
    event.put("type", type);
    event.set("object", toSend);
    try {
      sink.send(JSON.writeValueAsString(event));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize a watch event: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "Watch#" + id + filter;
  }
}
