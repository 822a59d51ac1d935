package dev.ctk.harness.internal;

import dev.ctk.assertions.internal.Polling;
import dev.ctk.controller.ControllerStats;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.WorkQueueStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Waits until a test's controllers are quiet: for a whole quiet period, every controller's work queue holds no
 * ready key and no key in flight, no key was added, no reconcile ended, and nothing else is busy (a restart under
 * way, a held watch). Keys waiting on a delay ({@code requeueAfter}) do not count as work until their delay passes,
 * so a controller that resyncs every minute is quiet; one that requeues itself every few milliseconds, or that keeps
 * changing what it watches, never is.
 */
public final class Quiescence {

  private final Supplier<List<ControllerView>> controllers;
  private final BooleanSupplier busy;

  /**
   * @param controllers the controllers to watch, read again at each poll (restarts replace instances)
   * @param busy whether something else is still under way
   */
  public Quiescence(Supplier<List<ControllerView>> controllers, BooleanSupplier busy) {
    this.controllers = controllers;
    this.busy = busy;
  }

  /**
   * Waits until the controllers have been quiet for {@code quiet}.
   *
   * @param quiet how long they must stay quiet
   * @param bound how long to wait at most
   * @return {@code true} if they were quiet within the bound
   */
  public boolean await(Duration quiet, Duration bound) {
    long quietNanos = quiet.toNanos();
    State state = new State();
    try {
      Polling.atMost(bound).until(() -> {
        List<Object> now = fingerprint();
        long time = System.nanoTime();
        if (now == null || !now.equals(state.last)) {
          state.last = now;
          state.since = time;
          return false;
        }
        return time - state.since >= quietNanos;
      });
      return true;
    } catch (ConditionTimeoutException e) {
      return false;
    }
  }

  /** What must not change while quiet, or {@code null} when something is busy now. */
  private List<Object> fingerprint() {
    if (busy.getAsBoolean()) {
      return null;
    }
    List<Object> parts = new ArrayList<>();
    for (ControllerView view : controllers.get()) {
      ControllerStats stats = view.stats();
      WorkQueueStats queue = view.workQueue().stats();
      if (!queue.queuedKeys().isEmpty() || !queue.inFlightKeys().isEmpty()) {
        return null;
      }
      parts.add(view);
      parts.add(queue.adds());
      parts.add(queue.retries());
      parts.add(stats.reconciles());
    }
    return parts;
  }

  /** The last fingerprint and since when it held. */
  private static final class State {
    private List<Object> last;
    private long since;
  }
}
