package dev.ctk.fake.internal.watch;

import dev.ctk.fake.internal.status.ApiError;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The watch fault rules of one hub, the delivery log, and the one-shot actions (close, expire) on open watches.
 *
 * <p>Rules apply to the watches open when they are added and to every watch opened while they are active. Every
 * method that changes rules or acts on watches must be called while the store lock is held, as for the hub: that
 * orders them with every event. The timer for delayed events is one daemon thread, started on first use and
 * stopped when the hub shuts down.
 */
public final class WatchFaultRules {

  /** How many deliveries the log keeps. */
  public static final int LOG_LIMIT = 10_000;

  private final Supplier<List<Watch>> openWatches;
  private final DeliveryLog log = new DeliveryLog(LOG_LIMIT);
  private final List<WatchFaultRule> rules = new CopyOnWriteArrayList<>();
  private ScheduledExecutorService timer;
  private boolean shutDown;

  WatchFaultRules(Supplier<List<Watch>> openWatches) {
    this.openWatches = openWatches;
  }

  /** The delivery log. */
  public DeliveryLog log() {
    return log;
  }

  /** Adds a rule and applies it to every open watch it selects. Caller holds the store lock. */
  public WatchFaultRule add(WatchFaultRule rule) {
    rules.removeIf(r -> !r.active());
    rules.add(rule);
    for (Watch watch : openWatches.get()) {
      if (rule.selects(watch.identity())) {
        watch.outbox().attach(rule);
      }
    }
    return rule;
  }

  /**
   * Ends a rule (idempotent): watches forget it, a partly filled reorder window is sent in commit order, and what
   * a hold held is sent. Caller holds the store lock.
   *
   * @return for a hold, how many events it held on open watches when it ended; else 0
   */
  public int remove(WatchFaultRule rule) {
    List<Watch> open = openWatches.get();
    int held = rule.kind() == WatchFaultRule.Kind.HOLD && rule.active() ? held(rule) : 0;
    rule.deactivate();
    rules.remove(rule);
    for (Watch watch : open) {
      watch.outbox().detach(rule);
    }
    return held;
  }

  /**
   * Ends a hold after coalescing, on every open watch, what it holds to each object's net event (see
   * {@code WatchOutbox.coalesce}). Caller holds the store lock.
   *
   * @return how many events it sent (0 when the hold had ended already)
   */
  public int releaseCoalesced(WatchFaultRule hold) {
    if (hold.kind() != WatchFaultRule.Kind.HOLD || !hold.active()) {
      return 0;
    }
    for (Watch watch : openWatches.get()) {
      watch.outbox().coalesce(hold);
    }
    return remove(hold);
  }

  /** How many events a hold holds now on open watches. Caller holds the store lock. */
  public int held(WatchFaultRule hold) {
    int held = 0;
    for (Watch watch : openWatches.get()) {
      held += watch.outbox().heldBy(hold);
    }
    return held;
  }

  /** Ends every rule. Caller holds the store lock. */
  public void clear() {
    for (WatchFaultRule rule : List.copyOf(rules)) {
      remove(rule);
    }
  }

  /** The active rules, oldest first. */
  public List<WatchFaultRule> rules() {
    List<WatchFaultRule> active = new ArrayList<>();
    for (WatchFaultRule rule : rules) {
      if (rule.active()) {
        active.add(rule);
      }
    }
    return active;
  }

  /**
   * Closes every open watch a predicate selects: the stream ends normally. Caller holds the store lock.
   *
   * @return how many watches were closed
   */
  public int close(Predicate<WatchIdentity> selects, String detail) {
    int hit = 0;
    for (Watch watch : openWatches.get()) {
      if (selects.test(watch.identity())) {
        watch.closeWith(detail);
        hit++;
      }
    }
    return hit;
  }

  /**
   * Sends kube's 410 Expired ERROR event ({@code too old resource version: <last sent> (<current>)}) to every open
   * watch a predicate selects, then ends it. Caller holds the store lock.
   *
   * @param currentResourceVersion the store's resourceVersion now
   * @return how many watches were expired
   */
  public int expire(Predicate<WatchIdentity> selects, long currentResourceVersion, String detail) {
    int hit = 0;
    for (Watch watch : openWatches.get()) {
      if (selects.test(watch.identity())) {
        String last = watch.outbox().lastResourceVersion();
        ApiError gone = ApiError.expired("too old resource version: "
            + (last != null ? last : Long.toString(currentResourceVersion)) + " (" + currentResourceVersion + ")");
        watch.expire(gone.toStatus(), detail);
        hit++;
      }
    }
    return hit;
  }

  /** Attaches the active rules that select a newly opened watch. Caller holds the store lock. */
  void attach(Watch watch) {
    rules.removeIf(r -> !r.active());
    for (WatchFaultRule rule : rules) {
      if (rule.active() && rule.selects(watch.identity())) {
        watch.outbox().attach(rule);
      }
    }
  }

  /** Forgets a rule that ended by itself (a counted rule used up); its watches forget it on their next event. */
  void forget(WatchFaultRule rule) {
    rules.remove(rule);
  }

  /** Every rule kept, ended ones not yet forgotten included, oldest first. */
  List<WatchFaultRule> kept() {
    return List.copyOf(rules);
  }

  /** The timer delayed events wait on: one daemon thread. */
  synchronized ScheduledExecutorService timer() {
    if (timer == null) {
      if (shutDown) {
        throw new java.util.concurrent.RejectedExecutionException("the watch hub is shut down");
      }
      ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, "ctk-watch-delay");
        thread.setDaemon(true);
        return thread;
      });
      executor.setRemoveOnCancelPolicy(true);
      timer = executor;
    }
    return timer;
  }

  /** Stops the timer (the hub shuts down). */
  synchronized void shutDown() {
    shutDown = true;
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
