package dev.ctk.clientjava;

import dev.ctk.clientjava.ReconcileTracker.Implied;
import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.TimeSource;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.extended.workqueue.DefaultDelayingQueue;
import io.kubernetes.client.extended.workqueue.RateLimitingQueue;
import io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A Kubernetes Java client {@link RateLimitingQueue} of {@link Request}s that tells a {@link
 * ControllerProbe} what happens to each key. The queueing itself is client-java's own: a {@link
 * DefaultDelayingQueue} (de-duplication, in-flight exclusivity, delays) and a {@link RateLimiter}
 * (backoff), combined exactly as client-java's {@code DefaultRateLimitingQueue} combines them; only
 * the delay of {@code addRateLimited} is asked from the rate limiter here, so that the probe knows
 * it.
 *
 * <p>The probe cannot look inside client-java's queue, so it mirrors it from the calls: a key is
 * queued from {@code add} until a worker's {@code get} hands it out; a key added with a delay waits
 * until the delay passes (the earliest delay wins, as in client-java) and then counts as added and
 * queued. Each probe call is made before the call to the real queue, so that a race errs towards a
 * key briefly missing from the mirror, never towards one left in it for good.
 */
final class ProbedWorkQueue implements RateLimitingQueue<Request> {

  /** How much earlier than ctk's reckoning client-java's delay loop may fire (it counts whole ms). */
  private static final Duration ROUNDING = Duration.ofMillis(2);

  private final ControllerProbe probe;
  private final ReconcileTracker tracker;
  private final RateLimiter<Request> rateLimiter;
  private final ExecutorService delays;
  private final DefaultDelayingQueue<Request> queue;
  private final TimeSource time = TimeSource.system();
  private final Map<ObjectKey, Wait> waits = new HashMap<>();
  private final Map<ObjectKey, Long> lastHandedOut = new HashMap<>();
  private volatile boolean askedForWork;

  ProbedWorkQueue(String name, ControllerProbe probe, ReconcileTracker tracker,
      RateLimiter<Request> rateLimiter) {
    this.probe = probe;
    this.tracker = tracker;
    this.rateLimiter = rateLimiter;
    this.delays = Executors.newSingleThreadExecutor(runnable -> {
      Thread thread = new Thread(runnable, "ctk-client-java-" + name + "-delays");
      thread.setDaemon(true);
      return thread;
    });
    this.queue = new DefaultDelayingQueue<>(delays);
  }

  /** Whether a worker asked this queue for a key (the controller passed its pre-flight check). */
  boolean askedForWork() {
    return askedForWork;
  }

  @Override
  public void add(Request item) {
    ObjectKey key = ReconcileTracker.keyOf(item);
    if (key != null && !queue.isShuttingDown()) {
      probe.added(key);
    }
    queue.add(item);
  }

  @Override
  public void addAfter(Request item, Duration duration) {
    ObjectKey key = ReconcileTracker.keyOf(item);
    if (key != null && duration != null && !queue.isShuttingDown()) {
      tracker.implied(key, Implied.REQUEUE_AFTER, duration);
      delayed(key, duration, false);
    }
    queue.addAfter(item, duration);
  }

  @Override
  public void addRateLimited(Request item) {
    Duration delay = rateLimiter.when(item);
    ObjectKey key = ReconcileTracker.keyOf(item);
    if (key != null && !queue.isShuttingDown()) {
      tracker.implied(key, Implied.REQUEUE, null);
      delayed(key, delay, true);
    }
    queue.addAfter(item, delay);
  }

  @Override
  public void forget(Request item) {
    ObjectKey key = ReconcileTracker.keyOf(item);
    if (key != null) {
      tracker.implied(key, Implied.SUCCESS, null);
    }
    rateLimiter.forget(item);
  }

  @Override
  public int numRequeues(Request item) {
    return rateLimiter.numRequeues(item);
  }

  @Override
  public int length() {
    return queue.length();
  }

  @Override
  public Request get() throws InterruptedException {
    askedForWork = true;
    Request item = queue.get();
    ObjectKey key = ReconcileTracker.keyOf(item);
    if (key != null) {
      int attempt = rateLimiter.numRequeues(item);
      synchronized (this) {
        long now = time.nanoTime();
        lastHandedOut.put(key, now);
        Wait pending = waits.get(key);
        boolean early = pending != null && pending.deadline - now > ROUNDING.toNanos();
        if (pending != null && !early) {   // this is that delayed add, come before ctk's timer
          waits.remove(key);
          pending.task.cancel();
          probe.added(key);
        }
        tracker.handedOut(key, attempt);
        if (early) {   // taken for another reason: client-java still adds it when the delay passes
          probe.addedAfter(key, Duration.ofNanos(pending.deadline - now));
        }
      }
    }
    return item;
  }

  @Override
  public void done(Request item) {
    ObjectKey key = ReconcileTracker.keyOf(item);
    if (key != null) {
      tracker.done(key);
    }
    queue.done(item);
  }

  @Override
  public void shutDown() {
    queue.shutDown();
    delays.shutdownNow();
    synchronized (this) {
      waits.values().forEach(wait -> wait.task.cancel());
      waits.clear();
    }
  }

  @Override
  public boolean isShuttingDown() {
    return queue.isShuttingDown();
  }

  /** Mirrors a delayed add: immediate for a delay of zero or less, else waiting until it passes. */
  private void delayed(ObjectKey key, Duration delay, boolean retry) {
    if (delay.isZero() || delay.isNegative()) {
      if (retry) {
        probe.addedRateLimited(key, Duration.ZERO);
      }
      probe.added(key);
      return;
    }
    synchronized (this) {
      long now = time.nanoTime();
      long deadline = now + delay.toNanos();
      Wait existing = waits.get(key);
      if (existing != null && existing.deadline <= deadline) {   // client-java keeps the earlier
        if (retry) {
          probe.addedRateLimited(key, Duration.ofNanos(Math.max(0, existing.deadline
              - time.nanoTime())));
        }
        return;
      }
      if (existing != null) {
        existing.task.cancel();
      }
      if (retry) {
        probe.addedRateLimited(key, delay);
      } else {
        probe.addedAfter(key, delay);
      }
      Wait wait = new Wait(now, deadline);
      waits.put(key, wait);
      wait.task = time.schedule(delay, () -> delayPassed(key, wait));
    }
  }

  /**
   * client-java's delay loop adds the key about now: count it as added and queued, unless a worker
   * took the key since the delay began. client-java rounds its deadline down to the millisecond, so
   * its add (and a worker's get) can come a little before this one; the later add of a key taken
   * early for another reason is then not shown, until a worker takes it.
   */
  private synchronized void delayPassed(ObjectKey key, Wait wait) {
    if (waits.get(key) != wait) {
      return;
    }
    waits.remove(key);
    Long handedOut = lastHandedOut.get(key);
    if (queue.isShuttingDown() || (handedOut != null && handedOut - wait.since >= 0)) {
      return;
    }
    probe.added(key);
  }

  private static final class Wait {

    final long since;
    final long deadline;
    TimeSource.ScheduledTask task;

    Wait(long since, long deadline) {
      this.since = since;
      this.deadline = deadline;
    }
  }
}
