package dev.ctk.fake.internal.watch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.values.WatchDelivery.Outcome;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The path from one watch to its sink, through the fault rules that apply to it.
 *
 * <p>With no rule and nothing waiting, an event goes straight to the sink and one DELIVERED record is written: the
 * event's JSON is written once (by the sink, or on an in-process watch's delivery thread if that asks first: {@link
 * EventText}) and only namespace, name and resourceVersion are read from the object.
 * Otherwise each event passes, in this order: drop (object events), duplicate (object events), reorder (object
 * events; BOOKMARK and ERROR events wait behind a partly filled window), delay, hold; then it joins a queue that is
 * sent in order, its head waiting for its delay to pass and its holds to be released. So an event never overtakes
 * one sent before it on the same watch, except inside a reorder window.
 *
 * <p>Every method is {@code synchronized} on the outbox and blocks on nothing but an event's text being written
 * (an in-process watch's delivery thread may be writing it): sinks only queue, and delays run on the rules' timer
 * thread, which takes only this monitor (never the store lock).
 */
final class WatchOutbox {

  private static final String DISCARDED = "discarded: the watch ended before it was sent (a client that "
      + "re-watches from its last resourceVersion receives it again from the watch history)";

  /** One event on its way. */
  private static final class Entry {
    final String type;
    final JsonNode object;
    final String json;
    final String namespace;
    final String name;
    final String resourceVersion;
    long due;
    List<WatchFaultRule> holds = List.of();
    String via;

    Entry(String type, JsonNode object, String json, String namespace, String name, String resourceVersion) {
      this.type = type;
      this.object = object;
      this.json = json;
      this.namespace = namespace;
      this.name = name;
      this.resourceVersion = resourceVersion;
    }

    Entry copy() {
      return new Entry(type, object, json, namespace, name, resourceVersion);
    }

    /** The same event as another type (its object unchanged), still held and routed as this one. */
    Entry retyped(String newType) {
      Entry entry = new Entry(newType, object, Watch.eventJson(newType, object), namespace, name, resourceVersion);
      entry.due = due;
      entry.holds = holds;
      entry.via = via;
      return entry;
    }

    /** Which object: its uid (a re-created object is another one), else namespace/name. */
    String objectKey() {
      String uid = DeliveryLog.text(object.get("metadata"), "uid");
      return uid != null ? "uid " + uid : "name " + namespace + "/" + name;
    }

    boolean held() {
      for (WatchFaultRule hold : holds) {
        if (hold.active()) {
          return true;
        }
      }
      return false;
    }
  }

  private final Watch watch;
  private final WatchSink sink;
  private final DeliveryLog log;
  private final WatchFaultRules faults;
  private volatile List<WatchFaultRule> rules = List.of();
  private final Deque<Entry> queue = new ArrayDeque<>();
  private final List<Entry> window = new ArrayList<>();
  private final List<Entry> behindWindow = new ArrayList<>();
  private boolean closed;
  private long timerDue = Long.MAX_VALUE;
  private String lastResourceVersion;

  WatchOutbox(Watch watch, WatchSink sink, DeliveryLog log, WatchFaultRules faults) {
    this.watch = watch;
    this.sink = sink;
    this.log = log;
    this.faults = faults;
  }

  /**
   * Whether no fault rule selects this watch now. Events an ended rule still delays or holds may be waiting: then the
   * next event still queues behind them, and a drain woken for it waits in vain.
   */
  boolean direct() {
    return rules.isEmpty();
  }

  /** Sends (or holds, delays, drops...) one event, its JSON written when first asked for. */
  synchronized void offer(String type, JsonNode object, EventText json) {
    if (closed) {
      return;
    }
    forgetEnded();
    List<WatchFaultRule> active = rules;
    if (active.isEmpty() && queue.isEmpty() && window.isEmpty()) {
      JsonNode metadata = object.get("metadata");
      String rv = DeliveryLog.text(metadata, "resourceVersion");
      sink.send(json);
      remember(type, rv);
      log.record(watch, type, DeliveryLog.text(metadata, "namespace"), DeliveryLog.text(metadata, "name"), rv,
          Outcome.DELIVERED, null);
      return;
    }
    JsonNode metadata = object.get("metadata");
    Entry entry = new Entry(type, object, json.text(), DeliveryLog.text(metadata, "namespace"),
        DeliveryLog.text(metadata, "name"), DeliveryLog.text(metadata, "resourceVersion"));
    boolean objectEvent = isObjectEvent(type);
    if (objectEvent) {
      WatchFaultRule drop = fire(active, WatchFaultRule.Kind.DROP);
      if (drop != null) {
        record(entry, Outcome.DROPPED, drop.description());
        forgetEnded();
        return;
      }
    }
    WatchFaultRule duplicate = objectEvent ? fire(active, WatchFaultRule.Kind.DUPLICATE) : null;
    place(entry, active, objectEvent);
    drain();
    if (duplicate != null) {
      Entry copy = entry.copy();
      record(copy, Outcome.DUPLICATED, duplicate.description());
      place(copy, active, true);
      drain();
    }
    forgetEnded();
  }

  /**
   * Forgets the rules that ended without a {@link #detach} (counted rules used up, on this watch or another), so
   * that a watch whose rules are all used up takes the direct path again; the hub's rule list forgets them too.
   */
  private void forgetEnded() {
    boolean ended = false;
    for (WatchFaultRule rule : rules) {
      if (!rule.active()) {
        faults.forget(rule);
        ended = true;
      }
    }
    if (ended) {
      detach(null);
    }
  }

  /** A rule that selects this watch became active. */
  synchronized void attach(WatchFaultRule rule) {
    List<WatchFaultRule> next = new ArrayList<>(rules);
    next.add(rule);
    rules = List.copyOf(next);
  }

  /**
   * A rule ended (removed, released or used up): forget it (and every other rule that is no longer active; with
   * {@code null}, only those), deliver a partly filled reorder window in commit order when no reorder rule remains,
   * and send what is no longer held.
   */
  synchronized void detach(WatchFaultRule rule) {
    List<WatchFaultRule> next = new ArrayList<>();
    for (WatchFaultRule r : rules) {
      if (r != rule && r.active()) {
        next.add(r);
      }
    }
    rules = List.copyOf(next);
    if (!window.isEmpty() && first(next, WatchFaultRule.Kind.REORDER) == null) {
      flushWindow(false, null);
    }
    drain();
  }

  /** The rules this outbox applies, ended ones it has not forgotten yet included. */
  synchronized List<WatchFaultRule> attached() {
    return rules;
  }

  /** How many events waiting here a hold holds. */
  synchronized int heldBy(WatchFaultRule hold) {
    int count = 0;
    for (Entry entry : queue) {
      if (entry.holds.contains(hold)) {
        count++;
      }
    }
    return count;
  }

  /**
   * Replaces the object events a hold holds here by each object's net event, ahead of its release: per object
   * (keyed by uid), a watcher that knew it before the first held event (that event is MODIFIED or DELETED) gets
   * MODIFIED when it still exists after the last one, else DELETED; one that did not (ADDED first) gets ADDED, or
   * nothing when it was deleted again. The net event carries the object of the last event and takes its place in
   * the queue (so objects are sent in the order of their last events); the others are recorded DROPPED
   * ({@code coalesced into rv=<resourceVersion of the last event>}). Other entries (BOOKMARKs, events of other rules)
   * keep their places.
   *
   * @return how many entries the hold still holds here
   */
  synchronized int coalesce(WatchFaultRule hold) {
    Map<String, List<Entry>> byObject = new LinkedHashMap<>();
    for (Entry entry : queue) {
      if (entry.holds.contains(hold) && isObjectEvent(entry.type)) {
        byObject.computeIfAbsent(entry.objectKey(), k -> new ArrayList<>()).add(entry);
      }
    }
    Map<Entry, String> dropped = new IdentityHashMap<>();
    Map<Entry, Entry> replaced = new IdentityHashMap<>();
    for (List<Entry> events : byObject.values()) {
      Entry first = events.get(0);
      Entry last = events.get(events.size() - 1);
      boolean knownBefore = !WatchEvent.ADDED.equals(first.type);
      boolean existsAfter = !WatchEvent.DELETED.equals(last.type);
      String net = knownBefore ? (existsAfter ? WatchEvent.MODIFIED : WatchEvent.DELETED)
          : (existsAfter ? WatchEvent.ADDED : null);
      String detail = "coalesced into rv=" + last.resourceVersion;
      for (Entry entry : events.subList(0, events.size() - 1)) {
        dropped.put(entry, detail);
      }
      if (net == null) {
        dropped.put(last, detail);
      } else if (!net.equals(last.type)) {
        replaced.put(last, last.retyped(net));
      }
    }
    List<Entry> kept = new ArrayList<>(queue.size());
    for (Entry entry : queue) {
      String detail = dropped.get(entry);
      if (detail != null) {
        record(entry, Outcome.DROPPED, detail);
      } else {
        kept.add(replaced.getOrDefault(entry, entry));
      }
    }
    queue.clear();
    queue.addAll(kept);
    return heldBy(hold);
  }

  /** The resourceVersion of the last event sent, or {@code null}. */
  synchronized String lastResourceVersion() {
    return lastResourceVersion;
  }

  /**
   * Ends delivery: events still waiting are discarded (recorded DROPPED) and, when {@code detail} is not null, a
   * CLOSED record is written. Idempotent.
   */
  synchronized void close(String detail) {
    if (closed) {
      return;
    }
    discardPending();
    closed = true;
    if (detail != null) {
      log.record(watch, null, null, null, null, Outcome.CLOSED, detail);
    }
  }

  /** Discards what waits, sends the ERROR event at once and records EXPIRED; the caller then closes the watch. */
  synchronized void expire(String errorJson, String detail) {
    if (closed) {
      return;
    }
    discardPending();
    sink.send(errorJson);
    log.record(watch, WatchEvent.ERROR, null, null, null, Outcome.EXPIRED, detail);
    closed = true;
  }

  private void discardPending() {
    List<Entry> pending = new ArrayList<>(queue);
    pending.addAll(window);
    pending.addAll(behindWindow);
    queue.clear();
    window.clear();
    behindWindow.clear();
    for (Entry entry : pending) {
      record(entry, Outcome.DROPPED, DISCARDED);
    }
  }

  private void place(Entry entry, List<WatchFaultRule> active, boolean objectEvent) {
    WatchFaultRule reorder = objectEvent ? first(active, WatchFaultRule.Kind.REORDER) : null;
    if (reorder != null && reorder.fire()) {
      window.add(entry);
      if (window.size() >= reorder.window()) {
        flushWindow(true, reorder);
      }
      return;
    }
    if (!window.isEmpty()) {
      if (objectEvent) {
        flushWindow(false, null);
        enqueue(entry, active);
      } else {
        behindWindow.add(entry);
      }
      return;
    }
    enqueue(entry, active);
  }

  /** Moves the window to the queue, reversed or in commit order, then what waited behind it. */
  private void flushWindow(boolean reversed, WatchFaultRule reorder) {
    List<Entry> events = new ArrayList<>(window);
    List<Entry> behind = new ArrayList<>(behindWindow);
    window.clear();
    behindWindow.clear();
    if (reversed) {
      Collections.reverse(events);
    }
    List<WatchFaultRule> active = rules;
    int n = events.size();
    for (int i = 0; i < n; i++) {
      Entry entry = events.get(i);
      if (reversed) {
        String detail = reorder.description() + ": sent " + ordinal(i + 1) + " of a window of " + n
            + " (committed " + ordinal(n - i) + ")";
        record(entry, Outcome.REORDERED, detail);
        entry.via = reorder.description();
      }
      enqueue(entry, active);
    }
    for (Entry entry : behind) {
      enqueue(entry, active);
    }
  }

  private void enqueue(Entry entry, List<WatchFaultRule> active) {
    WatchFaultRule delay = fire(active, WatchFaultRule.Kind.DELAY);
    if (delay != null) {
      record(entry, Outcome.DELAYED, delay.description());
      entry.due = System.nanoTime() + delay.delayNanos();
      entry.via = delay.description();
    }
    List<WatchFaultRule> holds = new ArrayList<>();
    for (WatchFaultRule rule : active) {
      if (rule.kind() == WatchFaultRule.Kind.HOLD && rule.holds(isObjectEvent(entry.type))) {
        holds.add(rule);
      }
    }
    if (!holds.isEmpty()) {
      entry.holds = List.copyOf(holds);
      record(entry, Outcome.HELD, describe(holds));
    }
    queue.addLast(entry);
  }

  /** Sends the head of the queue while it is neither held nor early; arms the timer for an early head. */
  private void drain() {
    while (!closed && !queue.isEmpty()) {
      Entry head = queue.peekFirst();
      if (head.held()) {
        return;
      }
      if (head.due != 0) {
        long wait = head.due - System.nanoTime();
        if (wait > 0) {
          arm(head.due, wait);
          return;
        }
      }
      queue.removeFirst();
      sink.send(head.json);
      remember(head.type, head.resourceVersion);
      if (!head.holds.isEmpty()) {
        record(head, Outcome.RELEASED, describe(head.holds));
      } else {
        record(head, Outcome.DELIVERED, head.via);
      }
    }
  }

  private void arm(long due, long waitNanos) {
    if (due >= timerDue) {
      return;
    }
    timerDue = due;
    try {
      faults.timer().schedule(this::timerFired, waitNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      timerDue = Long.MAX_VALUE; // the server is shutting down: its watches are being closed
    }
  }

  private synchronized void timerFired() {
    timerDue = Long.MAX_VALUE;
    drain();
  }

  private void remember(String type, String resourceVersion) {
    if (resourceVersion != null && !WatchEvent.ERROR.equals(type)) {
      lastResourceVersion = resourceVersion;
    }
  }

  private void record(Entry entry, Outcome outcome, String detail) {
    log.record(watch, entry.type, entry.namespace, entry.name, entry.resourceVersion, outcome, detail);
  }

  private static WatchFaultRule fire(List<WatchFaultRule> active, WatchFaultRule.Kind kind) {
    for (WatchFaultRule rule : active) {
      if (rule.kind() == kind && rule.fire()) {
        return rule;
      }
    }
    return null;
  }

  private static WatchFaultRule first(List<WatchFaultRule> active, WatchFaultRule.Kind kind) {
    for (WatchFaultRule rule : active) {
      if (rule.kind() == kind && rule.active()) {
        return rule;
      }
    }
    return null;
  }

  private static boolean isObjectEvent(String type) {
    return WatchEvent.ADDED.equals(type) || WatchEvent.MODIFIED.equals(type) || WatchEvent.DELETED.equals(type);
  }

  private static String describe(List<WatchFaultRule> rules) {
    List<String> names = new ArrayList<>();
    rules.forEach(r -> names.add(r.description()));
    return String.join(", ", names);
  }

  private static String ordinal(int n) {
    int mod100 = n % 100;
    String suffix = mod100 >= 11 && mod100 <= 13 ? "th"
        : switch (n % 10) {
          case 1 -> "st";
          case 2 -> "nd";
          case 3 -> "rd";
          default -> "th";
        };
    return n + suffix;
  }
}
