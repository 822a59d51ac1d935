package dev.ctk.harness.internal.perturb;

import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.HeldDelivery;
import dev.ctk.fake.WatchPattern;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.WatchDelivery;
import dev.ctk.harness.values.Perturbation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Executes a {@link Perturbation#STALE_VIEW} or {@link Perturbation#UNOBSERVED_STATES} point: from watch event n of
 * a kind on, the watches of that kind are held ({@code WatchFaults.holdAfter(kind, n - 1)}). A stale view is released
 * in order once the test's next outside write after the first held event has been served (a write that is not a
 * controller's: the test body's, an injected event's) and then every controller has been idle for 100 ms; at most
 * 2 s after the first held event, and at once when the test ends. So a controller that reconciles on a stale view
 * while the test changes what it has not seen yet does so in every run, not only when the test happens to write
 * within a window; unobserved states are released as their net result ({@code releaseCoalesced()}) once the burst is held, or
 * when no further event came for 200 ms (at most 2 s after the first held event).
 *
 * <p>A daemon thread {@code ctk-perturb-watch}, started by {@link #start()}, waits for those moments: it looks at the
 * hold's event counter (a read without the store's lock) every 20 ms, and wakes at once when the hold is released.
 * It gives up waiting for the point after 10 minutes, and ends with the release; {@link #stop} waits for it.
 *
 * <p>The point takes effect ({@link #fired()}) only if it changed what a controller saw: a stale view when a
 * reconcile started while the hold held back at least one event (a reconcile of a controller the harness started,
 * seen as it starts, or one in the reconcile log of an observed view that started after the first held event); unobserved states when the release dropped at least
 * one held event (coalescing sent fewer than it held).
 */
public final class WatchPoint {

  /** How long a stale view lasts at most, and how long a burst is waited for, from the first held event. */
  public static final Duration HOLD_BOUND = Duration.ofSeconds(2);

  /** How long the controllers must be idle, holding a stale view, before it is released. */
  public static final Duration STALE_QUIET = Duration.ofMillis(100);

  /** How long a burst may pause before its held events are released, short of the whole burst. */
  public static final Duration BURST_QUIET = Duration.ofMillis(200);

  /** How often the monitor looks at the hold. */
  public static final Duration POLL = Duration.ofMillis(20);

  /** How long the monitor waits for the run to reach the point before it removes the hold. */
  public static final Duration REACH_BOUND = Duration.ofMinutes(10);

  private final FakeCluster cluster;
  private final PerturbationPoint point;
  private final Consumer<String> log;
  private final BiPredicate<Duration, Duration> quiet;
  private final Supplier<List<ControllerView>> observed;
  private final Predicate<ApiRequestRecord> controllers;
  /** The journal's last sequence and the time when the hold was installed. */
  private volatile long startSequence;
  private volatile Instant startTime;
  /** When the hold took its first event; {@code null} before. */
  private volatile Instant heldSince;
  private final AtomicInteger staleReconciles = new AtomicInteger();
  private volatile HeldDelivery hold;
  private Thread monitor;
  private volatile boolean released;
  private volatile boolean coalesced;

  /**
   * Prepares the point; nothing is installed before {@link #start()}.
   *
   * @param cluster the test's cluster
   * @param point a stale-view or unobserved-states point
   * @param log where the injection lines go
   * @param quiet waits (at most the second duration) until the controllers are quiet for the first one
   * @param observed the views the harness observes but did not start, whose reconcile logs count at the release
   * @param controllers whether a request was a controller's (numbered by the tracker, or refused by a crash)
   */
  public WatchPoint(FakeCluster cluster, PerturbationPoint point, Consumer<String> log,
      BiPredicate<Duration, Duration> quiet, Supplier<List<ControllerView>> observed,
      Predicate<ApiRequestRecord> controllers) {
    this.cluster = cluster;
    this.point = point;
    this.log = log;
    this.quiet = quiet;
    this.observed = observed;
    this.controllers = controllers;
  }

  /** Installs the hold and starts the monitor thread; once. */
  public synchronized void start() {
    if (hold != null || released) {
      return;
    }
    startSequence = cluster.requests().lastSequence();
    startTime = Instant.now();
    hold = cluster.watchFaults().holdAfter(WatchPattern.kind(point.watchedKind()), point.event() - 1);
    monitor = new Thread(this::run, "ctk-perturb-watch");
    monitor.setDaemon(true);
    monitor.start();
  }

  /** Whether the hold took an event: the run got to the point. */
  public boolean reached() {
    HeldDelivery held = hold;
    return held != null && held.fired() > 0;
  }

  /**
   * Whether the point took effect: a reconcile started on the stale view, or the release coalesced something away.
   */
  public boolean fired() {
    return point.kind() == Perturbation.STALE_VIEW ? reached() && staleReconciles.get() > 0 : coalesced;
  }

  /** Why the point did not take effect, or {@code null} when it {@link #fired()}. */
  public String notFiredReason() {
    if (fired()) {
      return null;
    }
    if (!reached()) {
      return "the run never got to " + point.watchedKind() + " event #" + point.event();
    }
    return point.kind() == Perturbation.STALE_VIEW ? "no reconcile ran while the view was stale"
        : "nothing was coalesced: the burst did not recur (the controller's own writes made it)";
  }

  /** Whether the hold is in force and holds back at least one event. */
  public boolean holding() {
    HeldDelivery held = hold;
    return !released && held != null && held.fired() > 0;
  }

  /** Whether this is a stale-view point (not unobserved states). */
  public boolean staleView() {
    return point.kind() == Perturbation.STALE_VIEW;
  }

  /** How many events the hold has taken so far. */
  public long heldCount() {
    HeldDelivery held = hold;
    return held == null ? 0 : held.fired();
  }

  /** Called on a worker thread when a reconcile of a harness controller starts. */
  public void onReconcileStart() {
    if (!released && reached()) {
      staleReconciles.incrementAndGet();
    }
  }

  private void run() {
    try {
      Instant first = awaitFirst();
      if (first == null) {
        return;
      }
      heldSince = first;
      log.accept(PerturbationTracker.time(first) + " held " + point.watchedKind() + " watch events from event #"
          + point.event() + " on" + (point.kind() == Perturbation.STALE_VIEW ? " (stale cache)"
          : " (a burst of " + point.burst() + ")"));
      Duration left = HOLD_BOUND.minus(Duration.between(first, Instant.now()));
      if (point.kind() == Perturbation.STALE_VIEW) {
        ApiRequestRecord write = awaitOutsideWrite(heldAt(first), first.plus(HOLD_BOUND));
        if (released) {
          return;
        }
        left = HOLD_BOUND.minus(Duration.between(first, Instant.now()));
        boolean idle = write != null && !left.isNegative() && quiet.test(STALE_QUIET, left);
        release(write == null ? "after " + HOLD_BOUND.toSeconds() + " s (the test wrote nothing more meanwhile)"
            : idle ? "after the test's next write (request #" + write.sequence() + " " + write.verb() + " "
                + (write.name() == null && write.namespace() != null ? write.kind() + " in " + write.namespace()
                : PerturbationTimeline.object(write.kind(), write.namespace(), write.name()))
                + ") was served and the controllers were idle for " + STALE_QUIET.toMillis() + " ms"
            : "after " + HOLD_BOUND.toSeconds() + " s (the controllers were still busy)");
      } else {
        release(awaitBurst(first.plus(HOLD_BOUND)));
      }
    } catch (RuntimeException e) {
      if (!released) {
        log.accept(PerturbationTracker.now() + " the " + point.id() + " perturbation failed: " + e);
        release("after a failure");
      }
    }
  }

  /**
   * Waits until the hold takes its first event.
   *
   * @return when it was seen, or {@code null} if the hold was released first or the wait gave up (and released it)
   */
  private Instant awaitFirst() {
    long deadline = System.nanoTime() + REACH_BOUND.toNanos();
    while (!released) {
      if (reached()) {
        return Instant.now();
      }
      if (System.nanoTime() - deadline >= 0) {
        log.accept(PerturbationTracker.now() + " gave up waiting for " + point.watchedKind() + " event #"
            + point.event() + " after " + REACH_BOUND.toMinutes() + " min; removed the hold");
        release("after giving up");
        return null;
      }
      if (!pause()) {
        return null;
      }
    }
    return null;
  }

  /**
   * When the hold took its first event: the time of the first {@code HELD} delivery of the point's kind since the hold
   * was installed, or {@code seen} (when the monitor saw it) if the watch log does not say.
   */
  private Instant heldAt(Instant seen) {
    Instant since = startTime;
    return cluster.watchFaults().deliveries().stream()
        .filter(d -> d.outcome() == WatchDelivery.Outcome.HELD && !d.time().isBefore(since)
            && point.watchedKind().equals(PerturbationTimeline.kindOf(d)))
        .map(WatchDelivery::time).min(Instant::compareTo).orElse(seen);
  }

  /**
   * Waits until a write that is not a controller's, received after {@code heldAt}, has been answered with success:
   * the test's next change, made while the view is stale.
   *
   * @return that write, or {@code null} at the deadline or when the hold is released first
   */
  private ApiRequestRecord awaitOutsideWrite(Instant heldAt, Instant deadline) {
    // A request joins the journal once answered, so records can appear out of sequence order (a slow write, then a
    // quick read); every record up to `examined` is in the journal and was looked at: the next scan starts after it.
    long examined = startSequence;
    while (!released) {
      for (ApiRequestRecord request : cluster.requests().since(examined)) {
        if (request.time().isAfter(heldAt) && isWrite(request) && request.succeeded() && !controllers.test(request)) {
          return request;
        }
        if (request.sequence() == examined + 1) {
          examined = request.sequence();
        }
      }
      if (Instant.now().isAfter(deadline) || !pause()) {
        return null;
      }
    }
    return null;
  }

  /** An API write, or an event injected into the store ({@code add}, {@code update}, {@code delete}). */
  private static boolean isWrite(ApiRequestRecord request) {
    return request.isWrite() || (request.injected() && !request.verb().startsWith("emit"));
  }

  /**
   * Waits until the burst is held, or no further event came for {@link #BURST_QUIET} (the rest of the reference
   * run's burst came from the controller reacting to what is now held), or the deadline.
   *
   * @return how the release line ends
   */
  private String awaitBurst(Instant deadline) {
    long seen = hold.fired();
    Instant changed = Instant.now();
    while (!released) {
      long taken = hold.fired();
      if (taken >= point.burst()) {
        return "once the burst was held";
      }
      Instant now = Instant.now();
      if (taken != seen) {
        seen = taken;
        changed = now;
      } else if (Duration.between(changed, now).compareTo(BURST_QUIET) >= 0) {
        return "once no further event came for " + BURST_QUIET.toMillis() + " ms";
      }
      if (now.isAfter(deadline)) {
        return "after " + HOLD_BOUND.toSeconds() + " s";
      }
      if (!pause()) {
        break;
      }
    }
    return "when the test ended";
  }

  /** Waits {@link #POLL}, or less if the hold is released meanwhile; {@code false} when interrupted. */
  private synchronized boolean pause() {
    if (released) {
      return true;
    }
    try {
      wait(POLL.toMillis());
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  /**
   * Ends the hold, once: in order for a stale view, coalesced for unobserved states; logs it when it sent anything.
   *
   * @param why how the log line ends, e.g. {@code "when the test ended"}
   */
  public void release(String why) {
    int held;
    int sent;
    boolean coalesce;
    synchronized (this) {
      if (released) {
        return;
      }
      released = true;
      notifyAll();
      if (hold == null) {
        return;
      }
      held = hold.held();
      if (point.kind() == Perturbation.STALE_VIEW && held > 0) {
        staleReconciles.addAndGet(observedReconcilesSince(heldSince));
      }
      coalesce = point.kind() == Perturbation.UNOBSERVED_STATES && held > 0;
      sent = coalesce ? hold.releaseCoalesced() : hold.release();
      // events held between held() and the release make "held" too low: then this errs towards "not fired"
      coalesced = coalesce && sent < held;
    }
    if (monitor != null && Thread.currentThread() != monitor) {
      monitor.interrupt();
    }
    if (held > 0 || sent > 0) {
      String how;
      if (point.kind() == Perturbation.STALE_VIEW) {
        int reconciles = staleReconciles.get();
        how = " in order " + why + "; " + (reconciles == 0 ? "no reconcile" : reconciles + " reconcile"
            + (reconciles == 1 ? "" : "s")) + " started while the view was stale";
      } else {
        how = " as " + sent + " net event" + (sent == 1 ? "" : "s") + (coalesced
            ? " (intermediate states unobserved) " : " (nothing coalesced: the burst did not recur) ") + why;
      }
      log.accept(PerturbationTracker.now() + " released " + held + " held " + point.watchedKind() + " watch event"
          + (held == 1 ? "" : "s") + how);
    }
  }

  /** How many reconciles of the observed views started at or after {@code since} (none before the hold took one). */
  private int observedReconcilesSince(Instant since) {
    if (since == null) {
      return 0;
    }
    int count = 0;
    for (ControllerView view : observed.get()) {
      try {
        for (ReconcileRecord record : view.reconcileLog()) {
          if (!record.start().isBefore(since)) {
            count++;
          }
        }
      } catch (RuntimeException e) {
        log.accept(PerturbationTracker.now() + " could not read the reconcile log of " + view.name() + ": " + e);
      }
    }
    return count;
  }

  /**
   * Waits (at most {@code bound}) for the monitor thread to end; call after {@link #release}.
   *
   * @return {@code false} if it was still running after {@code bound}
   */
  public boolean stop(Duration bound) {
    Thread thread;
    synchronized (this) {
      thread = monitor;
    }
    if (thread == null) {
      return true;
    }
    thread.interrupt();
    try {
      thread.join(bound.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return !thread.isAlive();
  }
}
