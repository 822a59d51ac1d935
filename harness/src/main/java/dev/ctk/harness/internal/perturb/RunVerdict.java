package dev.ctk.harness.internal.perturb;

import dev.ctk.controller.CacheState;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.WorkQueueStats;
import dev.ctk.fake.FakeCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Decides, on the test's thread before each poll of a wait (see {@code EarlyStop}), whether a perturbed run's
 * outcome can still change. Nothing can change once, for {@link #CERTAIN}, over at least two polls of the test's wait
 * (so its condition was evaluated, and found false, while everything held still): the cluster took no write; every
 * controller's work queue held no key queued, in flight or waiting on a delay, and no reconcile ran; every informer
 * was watching; no restart was under way and no watch event was held back. The test, blocked in its wait, cannot
 * change anything itself, so its condition can only time out: the wait is stopped at once, with a message that says
 * what held still.
 *
 * <p>A stale view ({@link WatchPoint}) ends the same way: when its events are held back, the test waits and nothing
 * moves for {@link WatchPoint#STALE_QUIET}, the test cannot make the outside write the view waits for, so the view is
 * released there instead of at its 2 s bound.
 *
 * <p>Limits: a change that comes from a timer no view reports (an informer's resync, a controller's own scheduler
 * outside its work queue, the fake's namespace deletion grace period) is not seen; a test whose condition waits for
 * such a change is stopped too early and fails. {@code ctk.perturb.stop-early=false} turns this off.
 */
final class RunVerdict {

  /** How long everything must hold still before a wait is stopped. */
  static final Duration CERTAIN = Duration.ofMillis(500);

  private final FakeCluster cluster;
  private final Supplier<List<ControllerView>> views;
  private final BooleanSupplier busy;
  private final WatchPoint watch;
  private List<Object> last;
  private long since;
  private int polls;

  /**
   * @param cluster the run's cluster
   * @param views the harness's views, read at each poll
   * @param busy whether a restart is under way
   * @param watch the run's watch point, or {@code null}
   */
  RunVerdict(FakeCluster cluster, Supplier<List<ControllerView>> views, BooleanSupplier busy, WatchPoint watch) {
    this.cluster = cluster;
    this.views = views;
    this.busy = busy;
    this.watch = watch;
  }

  /**
   * Called before each poll of the test's wait.
   *
   * @return why the wait cannot end but by its timeout, or {@code null}
   */
  synchronized String verdict() {
    List<Object> now = fingerprint();
    long time = System.nanoTime();
    if (now == null || !now.equals(last)) {
      last = now;
      since = time;
      polls = 1;
      return null;
    }
    polls++;
    long still = time - since;
    if (watch != null && watch.holding()) {
      if (polls >= 2 && still >= WatchPoint.STALE_QUIET.toNanos() && watch.staleView()) {
        watch.release("while the test waited and nothing moved for " + WatchPoint.STALE_QUIET.toMillis() + " ms "
            + "(it could not make the write the view waits for)");
        last = null;
      }
      return null;
    }
    if (polls < 2 || still < CERTAIN.toNanos()) {
      return null;
    }
    return "ctk stopped this perturbed run's wait after " + Duration.ofNanos(still).toMillis() + " ms in which "
        + "nothing changed: no write reached the cluster (resourceVersion " + cluster.resourceVersion() + "), "
        + "every controller was idle (no key queued, in flight or waiting on a delay, no reconcile), every informer "
        + "was watching, no restart was under way and no watch event was held back. The test's condition was false "
        + "over " + polls + " polls meanwhile, so it could only have timed out. (ctk.perturb.stop-early=false waits "
        + "out the timeout instead.)";
  }

  /** What must not change, or {@code null} when something is under way now. */
  private List<Object> fingerprint() {
    if (busy.getAsBoolean() || (watch != null && watch.holding() && !watch.staleView())) {
      return null;
    }
    List<Object> parts = new ArrayList<>();
    parts.add(cluster.resourceVersion());
    if (watch != null) {
      parts.add(watch.heldCount());
    }
    for (ControllerView view : views.get()) {
      WorkQueueStats queue = view.workQueue().stats();
      if (!queue.isIdle()) {
        return null;
      }
      for (CacheState cache : view.caches()) {
        if (!cache.watching()) {
          return null;
        }
      }
      parts.add(view);
      parts.add(queue.adds());
      parts.add(queue.retries());
      parts.add(view.stats().reconciles());
    }
    return parts;
  }
}
