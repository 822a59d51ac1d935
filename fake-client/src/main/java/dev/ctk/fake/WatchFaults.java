package dev.ctk.fake;

import dev.ctk.controller.internal.DurationText;
import dev.ctk.fake.internal.FakeApiServer;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.watch.Watch;
import dev.ctk.fake.internal.watch.WatchFaultRule;
import dev.ctk.fake.internal.watch.WatchFaultRules;
import dev.ctk.fake.values.WatchDelivery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Watch faults at the fake API server: they act on the server's watch streams, so every client sees them, real
 * fabric8 (or client-go, or kubectl) informers included. Get it from {@link FakeCluster#watchFaults()}.
 *
 * <pre>{@code
 * WatchFaults faults = cluster.watchFaults();
 * faults.close(WatchPattern.kind("ConfigMap"));         // informers re-watch from their last resourceVersion
 * faults.expire(WatchPattern.kind("ConfigMap"));        // 410 Gone: informers relist
 * WatchRule drop = faults.drop(WatchPattern.kind("Pod").inNamespace("shop"));
 * HeldDelivery stale = faults.hold(WatchPattern.kind("Deployment"));   // caches stale, GET/LIST fresh
 * stale.release();                                                     // caches catch up, in order
 * HeldDelivery late = faults.holdAfter(WatchPattern.kind("Pod"), 2);   // 2 events pass, later ones wait
 * late.releaseCoalesced();                                             // only each Pod's net change is sent
 * faults.deliveries();                                                 // what every watch was sent, and why
 * }</pre>
 *
 * <p><b>One-shot actions</b> hit the watches open now: {@link #close} ends their streams normally, {@link #expire}
 * sends kube's 410 ERROR event ({@code too old resource version}) and ends them. <b>Rules</b> act on delivery from
 * now on, on the watches open now and on those opened later while the rule is in force (an informer's re-watch
 * after a close is caught again), until removed ({@link WatchRule#remove()}, {@link #clear()}) or, for counted
 * rules, for that many events across all matching watches:
 * <table>
 *   <caption>Rules</caption>
 *   <tr><th>rule</th><th>events it takes</th><th>effect</th></tr>
 *   <tr><td>{@link #drop}</td><td>ADDED, MODIFIED, DELETED</td><td>not sent. A dropped DELETED leaves the object in
 *       informer caches until they relist (for example after {@link #expire}); a dropped MODIFIED is corrected by
 *       the object's next change.</td></tr>
 *   <tr><td>{@link #duplicate}</td><td>ADDED, MODIFIED, DELETED</td><td>sent twice in a row. A fabric8 informer
 *       ignores the copy (same resourceVersion: no second {@code onUpdate}, an absent object is not deleted
 *       twice).</td></tr>
 *   <tr><td>{@link #reorder}</td><td>ADDED, MODIFIED, DELETED</td><td>every window of {@code n} events is sent in
 *       reverse order once it is full; BOOKMARK and ERROR events wait behind a partly filled window; a partly
 *       filled window is sent in commit order when the rule ends.</td></tr>
 *   <tr><td>{@link #delay}</td><td>every event, BOOKMARKs included</td><td>sent after the delay (real time), in
 *       order: later events on the same watch wait behind it.</td></tr>
 *   <tr><td>{@link #hold}</td><td>every event, BOOKMARKs included</td><td>held, in order, until
 *       {@link HeldDelivery#release()} (or {@link HeldDelivery#releaseCoalesced()}).</td></tr>
 *   <tr><td>{@link #holdAfter}</td><td>ADDED, MODIFIED, DELETED, after the first {@code passed} of them</td><td>as
 *       {@link #hold}; BOOKMARKs are not held, but they wait behind a held event.</td></tr>
 * </table>
 * When several rules match a watch, an event passes them in the order of the table (a dropped event goes no
 * further; both copies of a duplicated event are reordered, delayed, held); among rules of one kind the oldest that
 * still acts takes the event (every hold does).
 *
 * <p>A watch that ends (client gone, {@code timeoutSeconds}, {@link #close}, {@link #expire}) discards what its
 * rules still delay or hold, recorded as {@code DROPPED}; clients lose nothing, because they re-watch from the last
 * resourceVersion they received and the server replays the rest from its watch history.
 *
 * <p>Every delivery, rule firing and action is recorded in {@link #deliveries()} (the last
 * {@value #DELIVERY_LIMIT}).
 *
 * <p>Limits: delays are real time (not the cluster's clock); rules act on events, not on the initial state: neither
 * a LIST nor the initial ADDED events (and the initial-events-end BOOKMARK) of a watch opened without a
 * resourceVersion or with {@code sendInitialEvents=true} pass them, so a relist always sees the truth (a watch that
 * resumes from a resourceVersion replays changes, and those are events); the 410 of {@link #expire} is sent
 * mid-stream, where kube-apiserver sends it when a watch starts from a compacted resourceVersion (clients react the
 * same way); events that a rule holds or delays do not count against the watch's write-queue limit, so a slow client
 * is never cut off while held. Thread-safe: rules and actions are ordered with every write.
 *
 * @since 0.1.0
 */
public final class WatchFaults {

  /** How many entries {@link #deliveries()} keeps: the newest. */
  public static final int DELIVERY_LIMIT = WatchFaultRules.LOG_LIMIT;

  private final FakeApiServer server;
  private final Consumer<String> requireOpen;

  WatchFaults(FakeApiServer server, Consumer<String> requireOpen) {
    this.server = server;
    this.requireOpen = requireOpen;
  }

  /**
   * Ends every open watch the pattern matches: the stream ends normally (websocket close 1000, or the end of the
   * chunked HTTP response), as at the end of {@code timeoutSeconds}. Informers re-watch from their last
   * resourceVersion and miss nothing. Note that a fabric8 7.8 client treats a watch younger than 2 seconds that
   * ends cleanly before it received any event as a stale resourceVersion (its guard against proxies that close
   * instead of answering 410), so an informer closed that early relists instead.
   *
   * @param pattern which watches
   * @return how many watches it closed
   * @throws IllegalStateException when the cluster is closed
   */
  public int close(WatchPattern pattern) {
    String detail = "close(" + pattern(pattern, "close") + ")";
    requireOpen.accept("watchFaults().close(..)");
    return store().inTransaction(() -> rules().close(pattern::selects, detail));
  }

  /**
   * Sends every open watch the pattern matches kube's 410 Gone ERROR event ({@code Status} with reason
   * {@code Expired} and message {@code too old resource version: <last resourceVersion it sent> (<current>)}),
   * ahead of anything it holds or delays, then ends it. A fabric8 or client-go informer relists and then watches
   * again.
   *
   * @param pattern which watches
   * @return how many watches it expired
   * @throws IllegalStateException when the cluster is closed
   */
  public int expire(WatchPattern pattern) {
    String detail = "expire(" + pattern(pattern, "expire") + ")";
    requireOpen.accept("watchFaults().expire(..)");
    return store().inTransaction(() -> rules().expire(pattern::selects, store().resourceVersion(), detail));
  }

  /**
   * Drops ADDED, MODIFIED and DELETED events on matching watches until the rule is removed.
   *
   * @param pattern which watches
   * @return the rule
   * @throws IllegalStateException when the cluster is closed
   */
  public WatchRule drop(WatchPattern pattern) {
    return add(WatchFaultRule.Kind.DROP, "drop", pattern, null, 0, WatchFaultRule.UNLIMITED);
  }

  /**
   * Drops the next {@code events} ADDED, MODIFIED and DELETED events on matching watches (counted across them).
   *
   * @param pattern which watches
   * @param events at least 1
   * @return the rule
   * @throws IllegalArgumentException when {@code events} is less than 1
   * @throws IllegalStateException when the cluster is closed
   */
  public WatchRule drop(WatchPattern pattern, int events) {
    return add(WatchFaultRule.Kind.DROP, "drop", pattern, null, 0, count("drop", events));
  }

  /**
   * Sends every ADDED, MODIFIED and DELETED event on matching watches twice in a row, until the rule is removed.
   *
   * @param pattern which watches
   * @return the rule
   * @throws IllegalStateException when the cluster is closed
   */
  public WatchRule duplicate(WatchPattern pattern) {
    return add(WatchFaultRule.Kind.DUPLICATE, "duplicate", pattern, null, 0, WatchFaultRule.UNLIMITED);
  }

  /**
   * Sends the next {@code events} ADDED, MODIFIED and DELETED events on matching watches twice.
   *
   * @param pattern which watches
   * @param events at least 1
   * @return the rule
   * @throws IllegalArgumentException when {@code events} is less than 1
   * @throws IllegalStateException when the cluster is closed
   */
  public WatchRule duplicate(WatchPattern pattern, int events) {
    return add(WatchFaultRule.Kind.DUPLICATE, "duplicate", pattern, null, 0, count("duplicate", events));
  }

  /**
   * Sends every event on matching watches (BOOKMARKs included) {@code delay} later, in real time and in order,
   * until the rule is removed. Its description shows the delay as kube prints durations, e.g.
   * {@code delay(ConfigMap, 250ms)}, {@code delay(ConfigMap, 1.5s)}, {@code delay(ConfigMap, 2m)}.
   *
   * @param pattern which watches
   * @param delay positive
   * @return the rule
   * @throws IllegalArgumentException when {@code delay} is zero or negative
   * @throws IllegalStateException when the cluster is closed
   */
  public WatchRule delay(WatchPattern pattern, Duration delay) {
    return add(WatchFaultRule.Kind.DELAY, "delay", pattern, delay(delay), 0, WatchFaultRule.UNLIMITED);
  }

  /**
   * Sends the next {@code events} events on matching watches {@code delay} later (events after them wait behind).
   *
   * @param pattern which watches
   * @param delay positive
   * @param events at least 1
   * @return the rule
   * @throws IllegalArgumentException when {@code delay} is not positive or {@code events} is less than 1
   * @throws IllegalStateException when the cluster is closed
   */
  public WatchRule delay(WatchPattern pattern, Duration delay, int events) {
    return add(WatchFaultRule.Kind.DELAY, "delay", pattern, delay(delay), 0, count("delay", events));
  }

  /**
   * Sends every window of {@code window} ADDED, MODIFIED and DELETED events on each matching watch in reverse order,
   * once the window is full, until the rule is removed. Meanwhile BOOKMARK events wait behind the window.
   *
   * @param pattern which watches
   * @param window events per window, at least 2
   * @return the rule
   * @throws IllegalArgumentException when {@code window} is less than 2
   * @throws IllegalStateException when the cluster is closed
   */
  public WatchRule reorder(WatchPattern pattern, int window) {
    if (window < 2) {
      throw new IllegalArgumentException("WatchFaults.reorder: window must be at least 2 events, was " + window
          + ". A window of n reverses every n events; use 2 to swap pairs.");
    }
    return add(WatchFaultRule.Kind.REORDER, "reorder", pattern, null, window, WatchFaultRule.UNLIMITED);
  }

  /**
   * Holds every event on matching watches (BOOKMARKs included) until {@link HeldDelivery#release()}: the informers
   * behind them serve a stale cache while GET and LIST answer the current state.
   *
   * @param pattern which watches
   * @return the hold
   * @throws IllegalStateException when the cluster is closed
   */
  public HeldDelivery hold(WatchPattern pattern) {
    return (HeldDelivery) add(WatchFaultRule.Kind.HOLD, "hold", pattern, null, 0, WatchFaultRule.UNLIMITED);
  }

  /**
   * Holds delivery on matching watches from the {@code passed + 1}-th event on: the first {@code passed} ADDED,
   * MODIFIED and DELETED events are sent normally, every later one is held until {@link HeldDelivery#release()} or
   * {@link HeldDelivery#releaseCoalesced()}. Events are counted across every matching watch together (an event sent
   * to two watches counts twice), from now on, in delivery order (the order of commits, and for one commit the order
   * the watches were opened). BOOKMARK events never count and are never held by it (one that comes after a held
   * event still waits behind it, so a client never resumes past a held change); {@code holdAfter(pattern, 0)} is
   * {@link #hold} except for BOOKMARKs. Held and released events are logged as for {@link #hold}, the detail naming
   * the rule, e.g. {@code holdAfter(ConfigMap, 3)}.
   *
   * <pre>{@code
   * HeldDelivery hold = cluster.watchFaults().holdAfter(WatchPattern.kind("ConfigMap"), 1);
   * client.configMaps().resource(web).create();          // ADDED: sent
   * client.configMaps().resource(webV2).update();        // MODIFIED: held, the informer still sees the first state
   * hold.release();
   * }</pre>
   *
   * @param pattern which watches
   * @param passed how many events pass before the hold takes the next ones, at least 0
   * @return the hold
   * @throws IllegalArgumentException when {@code passed} is negative
   * @throws IllegalStateException when the cluster is closed
   * @since 0.1.0
   */
  public HeldDelivery holdAfter(WatchPattern pattern, int passed) {
    String target = pattern(pattern, "holdAfter");
    if (passed < 0) {
      throw new IllegalArgumentException("WatchFaults.holdAfter: passed must be 0 or more, was " + passed
          + ". Use 0 to hold every event from now on, n to let the next n events through first.");
    }
    requireOpen.accept("watchFaults().holdAfter(..)");
    WatchFaultRule rule = WatchFaultRule.holdAfter("holdAfter(" + target + ", " + passed + ")", pattern::selects,
        passed);
    store().inTransaction(() -> rules().add(rule));
    return new HeldDelivery(rule, this);
  }

  /**
   * Ends every rule: holds are released (their events sent), partly filled reorder windows are sent in commit
   * order, already delayed events are still sent when due. Works after the cluster is closed.
   */
  public void clear() {
    store().inTransaction(() -> {
      rules().clear();
      return null;
    });
  }

  /**
   * The rules in force, oldest first, as their descriptions, e.g. {@code [hold(ConfigMap), drop(Pod in shop)]}.
   *
   * @return the descriptions
   */
  public List<String> rulesInForce() {
    List<String> out = new ArrayList<>();
    rules().rules().forEach(r -> out.add(r.description()));
    return out;
  }

  /**
   * The watches open now, in opening order, e.g. {@code watch #3 ConfigMap in default labelSelector=app=web}.
   *
   * @return their descriptions
   */
  public List<String> openWatches() {
    List<String> out = new ArrayList<>();
    for (Watch watch : server.store().watchHub().openWatches()) {
      out.add(watch.description());
    }
    return out;
  }

  /**
   * What the server's watches were sent and what the faults did, oldest first: the last {@value #DELIVERY_LIMIT}
   * entries, ordinary deliveries included. Available after the cluster is closed.
   *
   * @return a copy
   */
  public List<WatchDelivery> deliveries() {
    return rules().log().records();
  }

  /** Ends a rule; for a hold, returns how many events it held on open watches. */
  int end(WatchFaultRule rule) {
    if (!rule.active()) {
      return 0;
    }
    return store().inTransaction(() -> rules().remove(rule));
  }

  /** Ends a hold, sending only each object's net event of what it holds; returns how many events it sent. */
  int endCoalesced(WatchFaultRule hold) {
    if (!hold.active()) {
      return 0;
    }
    return store().inTransaction(() -> rules().releaseCoalesced(hold));
  }

  /** How many events a hold holds now. */
  int held(WatchFaultRule hold) {
    return store().inTransaction(() -> rules().held(hold));
  }

  private WatchRule add(WatchFaultRule.Kind kind, String verb, WatchPattern pattern, Duration delay, int window,
      int count) {
    String target = pattern(pattern, verb);
    requireOpen.accept("watchFaults()." + verb + "(..)");
    StringBuilder description = new StringBuilder(verb).append('(').append(target);
    if (delay != null) {
      description.append(", ").append(DurationText.of(delay));
    }
    if (window > 0) {
      description.append(", window of ").append(window);
    }
    if (count != WatchFaultRule.UNLIMITED) {
      description.append(", next ").append(count).append(count == 1 ? " event" : " events");
    }
    description.append(')');
    WatchFaultRule rule = WatchFaultRule.of(kind, description.toString(), pattern::selects,
        delay == null ? 0 : delay.toNanos(), window, count);
    store().inTransaction(() -> rules().add(rule));
    return kind == WatchFaultRule.Kind.HOLD ? new HeldDelivery(rule, this) : new WatchRule(rule, this);
  }

  private static String pattern(WatchPattern pattern, String verb) {
    if (pattern == null) {
      throw new IllegalArgumentException("WatchFaults." + verb + ": pattern is null. Use WatchPattern.any() for "
          + "every watch, or WatchPattern.kind(\"ConfigMap\") and its narrowing methods.");
    }
    return pattern.toString();
  }

  private static int count(String verb, int events) {
    if (events < 1) {
      throw new IllegalArgumentException("WatchFaults." + verb + ": events must be at least 1, was " + events
          + ". Leave the count out for a rule that acts until it is removed.");
    }
    return events;
  }

  private static Duration delay(Duration delay) {
    if (delay == null || delay.isZero() || delay.isNegative()) {
      throw new IllegalArgumentException("WatchFaults.delay: delay must be positive, was " + delay
          + ". Use a positive Duration such as Duration.ofMillis(200).");
    }
    return delay;
  }

  private ObjectStore store() {
    return server.store();
  }

  private WatchFaultRules rules() {
    return server.store().watchHub().faults();
  }
}
