package dev.ctk.fake.internal.watch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.FrozenObject;
import dev.ctk.fake.internal.common.WireJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
 *
 * <p>Every event goes to the sink through the watch's {@link WatchOutbox}, which applies the fault rules that select
 * the watch (drop, duplicate, reorder, delay, hold) and records each delivery in the hub's {@link DeliveryLog}.
 */
public final class Watch {

  private static final ObjectMapper JSON = WireJson.MAPPER;

  /** The CLOSED detail of a watch that ended without a fault action (client, timeout, CRD removal, shutdown). */
  static final String ENDED = "the watch ended (client went away, timeoutSeconds, kind removed or server closed)";

  private final long id;
  private final WatchFilter filter;
  private final WatchIdentity identity;
  private final String identityText;
  private final String description;
  private final UnaryOperator<ObjectNode> view;
  private final WatchSink sink;
  private final WatchOutbox outbox;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Consumer<Watch> onClose = w -> { };
  /** Events and bookmarks at or below this resourceVersion are not sent (a watch opened from a future one). */
  private volatile long sendsAfter = -1;

  Watch(long id, WatchFilter filter, WatchIdentity identity, UnaryOperator<ObjectNode> view, WatchSink sink,
      WatchFaultRules faults) {
    this.id = id;
    this.filter = filter;
    this.identity = identity;
    this.identityText = identity.toString();
    this.description = "watch #" + id + " " + identityText;
    this.view = view;
    this.sink = sink;
    this.outbox = new WatchOutbox(this, sink, faults.log(), faults);
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

  /** What the watch asked for (kind, namespace, selectors). */
  public WatchIdentity identity() {
    return identity;
  }

  /** {@link #identity()} as text, e.g. {@code ConfigMap in default labelSelector=app=web}. */
  public String identityText() {
    return identityText;
  }

  /** E.g. {@code watch #3 ConfigMap in default labelSelector=app=web}. */
  public String description() {
    return description;
  }

  /**
   * Whether this watch is told of a write that has begun on {@code storageKey} in {@code namespace} ({@code null}:
   * every namespace): open, on that collection and namespace, selected by no fault rule (its events may be held,
   * delayed or dropped; see {@link WatchOutbox#direct}), and not still silent until a resourceVersion it started from
   * ({@link #sendOnlyAfter}).
   */
  boolean expects(String storageKey, String namespace) {
    return filter.storageKey().equals(storageKey)
        && (namespace == null || filter.namespace() == null || filter.namespace().equals(namespace))
        && !closed.get() && outbox.direct() && sendsAfter < 0;
  }

  /** A write this watch {@link #expects} has begun: its sink may wake its thread ({@link WatchSink#expectEvent}). */
  void expectEvent(int watchesTold) {
    sink.expectEvent(watchesTold);
  }

  WatchOutbox outbox() {
    return outbox;
  }

  /** Whether the watch has ended. */
  public boolean isClosed() {
    return closed.get();
  }

  /**
   * From now on, sends only events and bookmarks newer than {@code resourceVersion}, as kube's watch cache serves a
   * watch opened from a resourceVersion it has not reached.
   */
  void sendOnlyAfter(long resourceVersion) {
    sendsAfter = resourceVersion;
  }

  /**
   * Whether a bookmark or synthetic event at {@code resourceVersion} may go to this watch: it is newer than the
   * resourceVersion the watch started from (always, for a watch that did not start from one it had not reached).
   */
  boolean takesAt(long resourceVersion) {
    return resourceVersion > sendsAfter;
  }

  void onClose(Consumer<Watch> onClose) {
    this.onClose = onClose;
  }

  /**
   * Ends the watch: no further events (events a fault rule still holds or delays are discarded), the sink is closed,
   * the hub forgets it. Idempotent.
   */
  public void close() {
    closeWith(ENDED);
  }

  /** Ends the watch, recording CLOSED with {@code detail} (none when {@code null}). */
  void closeWith(String detail) {
    if (closed.compareAndSet(false, true)) {
      outbox.close(detail);
      onClose.accept(this);
      sink.close();
    }
  }

  /** Sends an ERROR event carrying {@code status} ahead of anything waiting, then ends the watch. */
  void expire(ObjectNode status, String detail) {
    if (closed.get()) {
      return;
    }
    ObjectNode event = JSON.createObjectNode();
    event.put("type", WatchEvent.ERROR);
    event.set("object", status);
    outbox.expire(serialize(event), detail);
    closeWith(null);
  }

  /** Applies selector transitions to a committed change and sends what this watch should see. */
  void offer(WatchEvent event) {
    offer(event, EventTexts.none());
  }

  /**
   * {@link #offer(WatchEvent)}, taking an event's JSON from {@code texts} when this watch sends the change's object as
   * stored.
   */
  void offer(WatchEvent event, EventTexts texts) {
    if (!event.storageKey().equals(filter.storageKey()) || event.resourceVersion() <= sendsAfter) {
      return;
    }
    if (sendsAfter >= 0) {
      sendsAfter = -1;   // past the resourceVersion it started from: every later event is newer
    }
    switch (event.type()) {
      case WatchEvent.ADDED -> {
        if (filter.matches(event.object())) {
          send(WatchEvent.ADDED, event.object(), texts);
        }
      }
      case WatchEvent.DELETED -> {
        // selected on the last stored state (the object as it was before the delete), as kube's watch cache does
        ObjectNode last = event.previous() != null ? event.previous() : event.object();
        if (filter.matches(last)) {
          send(WatchEvent.DELETED, event.object(), texts);
        }
      }
      default -> {
        boolean before = event.previous() != null && filter.matches(event.previous());
        boolean after = filter.matches(event.object());
        if (before && after) {
          send(WatchEvent.MODIFIED, event.object(), texts);
        } else if (after) {
          send(WatchEvent.ADDED, event.object(), texts);
        } else if (before) {
          ObjectNode gone = event.previous().deepCopy();
          ((ObjectNode) gone.path("metadata")).put("resourceVersion", Long.toString(event.resourceVersion()));
          send(WatchEvent.DELETED, gone, texts);
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
    send(type, object, EventTexts.none());
  }

  private void send(String type, ObjectNode object, EventTexts texts) {
    if (closed.get()) {
      return;
    }
    ObjectNode toSend = WatchEvent.ERROR.equals(type) || WatchEvent.BOOKMARK.equals(type) ? object
        : view.apply(object);
    outbox.offer(type, toSend, texts.eventText(type, toSend));
  }

  /** A watch event's JSON: {@code {"type":..,"object":..}}, as {@link #send} writes it. */
  static String eventJson(String type, com.fasterxml.jackson.databind.JsonNode object) {
    ObjectNode event = JSON.createObjectNode();
    event.put("type", type);
    event.set("object", object);
    return serialize(event);
  }

  /**
   * {@link #eventJson} of a committed change's object, from its serialization that the write's answer takes next
   * ({@link FrozenObject}) when it has one: its bytes between the event's head and its end, the same text for
   * well-formed text (a lone surrogate goes out escaped here, where a socket's UTF-8 encoding of the tree's text
   * turns it into {@code ?}). The serialization is kept for the answer only with {@code keepForTheAnswer} (on the
   * writer's thread); elsewhere nothing is kept.
   */
  static String committedEventJson(String type, ObjectNode object, boolean keepForTheAnswer) {
    if (!(object instanceof FrozenObject frozen)) {
      return eventJson(type, object);
    }
    return concatenated(type, keepForTheAnswer ? frozen.json() : frozen.takeJson());
  }

  private static String concatenated(String type, byte[] object) {
    byte[] head = ("{\"type\":\"" + type + "\",\"object\":").getBytes(StandardCharsets.UTF_8);
    byte[] event = Arrays.copyOf(head, head.length + object.length + 1);
    System.arraycopy(object, 0, event, head.length, object.length);
    event[event.length - 1] = '}';
    return new String(event, StandardCharsets.UTF_8);
  }

  private static String serialize(ObjectNode event) {
    try {
      return JSON.writeValueAsString(event);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize a watch event: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
