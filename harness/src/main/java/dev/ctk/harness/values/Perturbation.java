package dev.ctk.harness.values;

/**
 * What a perturbation run does to a controller (issue 8). Each kind is one family of points that a campaign
 * plans from the reference run of a test; see {@code @Perturbed}.
 *
 * <pre>{@code
 * @Perturbed(kinds = {Perturbation.CRASH_RESTART, Perturbation.STALE_VIEW})
 * }</pre>
 *
 * @since 0.1.0
 */
public enum Perturbation {

  /**
   * Crash-restart inside a reconcile: at a controller write (before it is sent, or right after it is served) the
   * controller dies: that request and every later request of that instance are refused, the instance is closed with
   * its cache and work queue, and a fresh instance is built from its factory ({@code harness.start(() -> ...)}) and
   * started. Controllers started with {@code harness.start(Controller)} have no factory and get no such points.
   */
  CRASH_RESTART,

  /**
   * Crash-restart with a stale view: like {@link #CRASH_RESTART} after a write, but the fresh instance lists one kind
   * it watches as it was when the controller first started (it reconnects to an apiserver whose cache lags behind),
   * and its watches of that kind are held until it has gone idle, so it acts on the old state of that kind first.
   */
  STALE_RESTART,

  /**
   * A stale informer: from one event of a watched kind on, the controller's watches of that kind are held (its cache
   * stays at the older resourceVersion while reads and writes go to the current state) until the controller has
   * gone idle; then the held events are delivered in order.
   */
  STALE_VIEW,

  /**
   * Unobserved intermediate states: a burst of successive events about one object is held and delivered as its net
   * result only (the last state), so the controller never sees the states in between.
   */
  UNOBSERVED_STATES
}
