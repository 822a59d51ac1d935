package dev.ctk.fake.internal.watch;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * One rule on watch delivery: which watches it applies to, what it does to their events, and for how many events.
 * A rule is active until it is removed or, for a counted rule, until it has acted on its count of events (across
 * all the watches it applies to).
 */
public final class WatchFaultRule {

  /** What a rule does. */
  public enum Kind {
    /** Object events are not delivered. */
    DROP,
    /** Object events are delivered twice. */
    DUPLICATE,
    /** Every event is delivered after a delay. */
    DELAY,
    /** Every window of object events is delivered in reverse order. */
    REORDER,
    /** Every event is held back until the rule is released. */
    HOLD
  }

  /** Count of a rule that acts until it is removed. */
  public static final int UNLIMITED = -1;

  private final Kind kind;
  private final String description;
  private final Predicate<WatchIdentity> selects;
  private final long delayNanos;
  private final int window;
  private final AtomicInteger remaining;
  private final AtomicLong fired = new AtomicLong();
  /** For a hold made by {@code holdAfter}: how many object events it lets pass first; else -1. */
  private final int passing;
  private final AtomicInteger passed = new AtomicInteger();
  private volatile boolean active = true;

  private WatchFaultRule(Kind kind, String description, Predicate<WatchIdentity> selects, long delayNanos, int window,
      int count, int passing) {
    this.passing = passing;
    this.kind = kind;
    this.description = description;
    this.selects = selects;
    this.delayNanos = delayNanos;
    this.window = window;
    this.remaining = new AtomicInteger(count);
  }

  /**
   * A rule.
   *
   * @param kind what it does
   * @param description how it reads in messages and the delivery log, e.g. {@code drop(ConfigMap in default)}
   * @param selects which watches it applies to
   * @param delayNanos for {@link Kind#DELAY}: how long; else 0
   * @param window for {@link Kind#REORDER}: events per window; else 0
   * @param count how many events it acts on, or {@link #UNLIMITED}
   * @return the rule (active)
   */
  public static WatchFaultRule of(Kind kind, String description, Predicate<WatchIdentity> selects, long delayNanos,
      int window, int count) {
    return new WatchFaultRule(kind, description, selects, delayNanos, window, count, -1);
  }

  /**
   * A hold that lets the first {@code passing} ADDED, MODIFIED and DELETED events pass (counted across every watch it
   * applies to, in delivery order) and holds every later one; it never counts nor holds BOOKMARK and ERROR events.
   *
   * @param description how it reads, e.g. {@code holdAfter(ConfigMap, 3)}
   * @param selects which watches it applies to
   * @param passing how many object events pass first, at least 0
   * @return the rule (active)
   */
  public static WatchFaultRule holdAfter(String description, Predicate<WatchIdentity> selects, int passing) {
    if (passing < 0) {
      throw new IllegalArgumentException("holdAfter: passing must be at least 0, was " + passing);
    }
    return new WatchFaultRule(Kind.HOLD, description, selects, 0, 0, UNLIMITED, passing);
  }

  /** What it does. */
  public Kind kind() {
    return kind;
  }

  /** How it reads in messages. */
  public String description() {
    return description;
  }

  /** Whether it applies to a watch. */
  public boolean selects(WatchIdentity watch) {
    return selects.test(watch);
  }

  /** The delay of a DELAY rule, in nanoseconds. */
  public long delayNanos() {
    return delayNanos;
  }

  /** The window of a REORDER rule. */
  public int window() {
    return window;
  }

  /** Whether it still acts. */
  public boolean active() {
    return active;
  }

  /** How many events it has acted on. */
  public long fired() {
    return fired.get();
  }

  /** How many more events a counted rule acts on, or {@link #UNLIMITED}. */
  public int remaining() {
    return remaining.get();
  }

  /** Ends the rule (idempotent); the caller tells the watches. */
  void deactivate() {
    active = false;
  }

  /**
   * Takes one event: counts it and, for a counted rule, uses up one of its count.
   *
   * @return whether the rule acts on this event (false once it is inactive or used up)
   */
  boolean fire() {
    if (!active) {
      return false;
    }
    while (true) {
      int left = remaining.get();
      if (left == UNLIMITED) {
        fired.incrementAndGet();
        return true;
      }
      if (left <= 0) {
        active = false;
        return false;
      }
      if (remaining.compareAndSet(left, left - 1)) {
        fired.incrementAndGet();
        if (left == 1) {
          active = false;
        }
        return true;
      }
    }
  }

  /**
   * Whether a hold takes an event: a plain hold takes every event; one made by {@link #holdAfter} takes object
   * events only, once it has let its count of them pass.
   *
   * @param objectEvent whether the event is ADDED, MODIFIED or DELETED
   */
  boolean holds(boolean objectEvent) {
    if (passing < 0) {
      return fire();
    }
    if (!objectEvent || !active) {
      return false;
    }
    while (true) {
      int done = passed.get();
      if (done >= passing) {
        return fire();
      }
      if (passed.compareAndSet(done, done + 1)) {
        return false;
      }
    }
  }

  @Override
  public String toString() {
    return description;
  }
}
