package dev.ctk.harness;

import dev.ctk.controller.CacheState;
import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerStats;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Vocabulary;
import dev.ctk.controller.WorkQueueStats;
import dev.ctk.controller.WorkQueueView;
import dev.ctk.harness.values.ControllerInstance;
import dev.ctk.harness.values.Restartable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A controller that a {@link ControllerHarness} started from a factory, so that it can be crash-restarted: {@link
 * #restart()} closes the running instance (its informer caches, work queue and every other in-memory state go with
 * it), builds a fresh instance from the factory and starts it, as a controller process that crashed and came back
 * would. Perturbation runs ({@code @Perturbed}) restart it inside a reconcile; a test can restart it
 * itself.
 *
 * <p>As a {@link ControllerView} it always shows the <em>current</em> instance (name, caches, work queue, counters,
 * reconcile log), so assertions written against it keep working across restarts; counters and the reconcile log
 * start again from zero with each instance.
 *
 * <pre>{@code
 * @Test
 * void recreates_the_service_after_a_restart(KubernetesClient client, ControllerHarness harness) {
 *   RestartableController controller = harness.start(() -> NginxServiceController.create(client));
 *   client.configMaps().resource(nginx("web")).create();
 *   assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
 *   controller.restart();                            // instance 2: empty queue, caches listed afresh
 *   assertThat(controller.instance()).isEqualTo(2);
 *   assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
 * }
 * }</pre>
 *
 * <p>Closing the harness (after the test) closes the current instance. Thread-safe: restarts are serialized, and a
 * restart racing the end of the test never leaves a controller running: one asked for after the end fails, one under
 * way when the test ends stops quietly with the fresh instance closed.
 *
 * @since 0.1.0
 */
public final class RestartableController implements ControllerView, Restartable {

  private final ControllerHarness harness;
  private final Supplier<Controller> factory;
  /** Guards {@link #current}, {@link #instance} and {@link #shutDown}. */
  private final Object lock = new Object();
  /** Held for a whole restart, so that two restarts never interleave. */
  private final Object restarting = new Object();
  private final WorkQueueView queue = new CurrentQueue();
  private Controller current;
  private int instance;
  private boolean shutDown;

  RestartableController(ControllerHarness harness, Supplier<Controller> factory) {
    this.harness = harness;
    this.factory = factory;
  }

  /**
   * Builds instance 1; the harness registers and starts it.
   *
   * @return instance 1, not started yet
   */
  Controller first() {
    Controller built = build(1, null);
    synchronized (lock) {
      current = built;
      instance = 1;
    }
    return built;
  }

  /**
   * The running instance (after a restart, the fresh one), e.g. to read its informers.
   *
   * @return the current instance
   */
  public Controller current() {
    synchronized (lock) {
      return current;
    }
  }

  /**
   * The running instance, as {@link #current()}.
   *
   * @return the current instance (never empty)
   */
  @Override
  public Optional<Controller> currentController() {
    return Optional.of(current());
  }

  /**
   * Which instance runs now: 1 for the first, one more after each restart.
   *
   * @return the instance number
   */
  @Override
  public int instance() {
    synchronized (lock) {
      return instance;
    }
  }

  /**
   * Crash-restarts the controller now: closes the current instance (dropping its work queue and caches; a
   * reconcile in flight is waited for, as {@link Controller#close()} does), builds a fresh instance from the
   * factory, starts it through the harness (the same start hooks as {@link ControllerHarness#start(Controller)}) and
   * waits until its caches synced and its watches are open. If the test ends (the harness closes its controllers)
   * while the fresh instance starts, it is closed and this returns without an error.
   *
   * @throws IllegalStateException if the test is over (the harness closed its controllers), or the factory returned
   *     null, a controller it returned before, or a controller that is already running
   */
  public void restart() {
    restart(fresh -> {});
  }

  /**
   * {@link #restart()}, calling {@code beforeStart} with the fresh instance after the old one is closed and before
   * the fresh one starts, on the thread that then starts it (perturbations install their stale reads there).
   *
   * @return {@code true} if the fresh instance started; {@code false} if the test ended (the harness shut this
   *     controller down) before or while it started: it was closed, and nothing runs
   */
  @Override
  public boolean restart(Consumer<ControllerInstance> beforeStart) {
    synchronized (restarting) {
      Controller old;
      int next;
      synchronized (lock) {
        requireNotShutDown("restart");
        old = current;
        next = instance + 1;
      }
      old.close();
      Controller fresh = build(next, old);
      synchronized (lock) {
        if (shutDown || !harness.replace(old, fresh)) {
          fresh.close();   // the test ended while the old instance closed: never started, nothing to leave running
          return false;
        }
        current = fresh;
        instance = next;
      }
      beforeStart.accept(new ControllerInstance(fresh.name(), next, fresh, null));
      synchronized (lock) {
        if (shutDown) {
          return false;   // shutDown() closed fresh (it is current): it must not start
        }
      }
      try {
        harness.launch(fresh);
      } catch (RuntimeException e) {
        synchronized (lock) {
          if (shutDown) {
            return false;   // shutDown() closed fresh while it started
          }
        }
        throw e;
      }
      return true;
    }
  }

  /** Closes the current instance; later restarts fail. Called when the harness closes its controllers. */
  void shutDown() {
    Controller toClose;
    synchronized (lock) {
      shutDown = true;
      toClose = current;
    }
    if (toClose != null) {
      toClose.close();
    }
  }

  private void requireNotShutDown(String action) {
    if (shutDown) {
      throw new IllegalStateException("Cannot " + action + " controller \"" + current.name() + "\": the test it "
          + "belongs to is over and the harness closed it (instance " + instance + "). Restart controllers only "
          + "while their test runs.");
    }
  }

  /** Calls the factory and checks what it returned. */
  private Controller build(int number, Controller previous) {
    Controller built = factory.get();
    String fix = " Fix: build a new Controller in the factory on each call, e.g. harness.start(() -> "
        + "MyController.create(client)), rather than returning one built outside it.";
    if (built == null) {
      throw new IllegalStateException("The controller factory given to ControllerHarness.start(Supplier) "
          + "returned null for instance " + number + "." + fix);
    }
    if (built == previous) {
      throw new IllegalStateException("The controller factory of \"" + built.name() + "\" returned the same "
          + "Controller for instance " + number + " as for instance " + (number - 1) + "; a restart needs a fresh "
          + "one (a controller starts once)." + fix);
    }
    if (built.isRunning() || harness.controllers().contains(built)) {
      throw new IllegalStateException("The controller factory of \"" + built.name() + "\" returned a Controller "
          + "that is already started, for instance " + number + "; ControllerHarness.start(Supplier) starts what "
          + "the factory returns." + fix);
    }
    return built;
  }

  @Override
  public String name() {
    return current().name();
  }

  @Override
  public Vocabulary vocabulary() {
    return current().vocabulary();
  }

  @Override
  public boolean isRunning() {
    return current().isRunning();
  }

  @Override
  public List<CacheState> caches() {
    return current().caches();
  }

  @Override
  public boolean hasSynced() {
    return current().hasSynced();
  }

  /**
   * The work queue of whichever instance is current when it is read: a view that follows restarts.
   *
   * @return the view
   */
  @Override
  public WorkQueueView workQueue() {
    return queue;
  }

  @Override
  public ControllerStats stats() {
    return current().stats();
  }

  @Override
  public List<ReconcileRecord> reconcileLog() {
    return current().reconcileLog();
  }

  @Override
  public List<ReconcileRecord> reconcileLog(ObjectKey key) {
    Objects.requireNonNull(key, "RestartableController.reconcileLog: key is null");
    return current().reconcileLog(key);
  }

  @Override
  public Map<ObjectKey, Duration> runningReconciles() {
    return current().runningReconciles();
  }

  @Override
  public String toString() {
    synchronized (lock) {
      return "RestartableController \"" + (current == null ? "?" : current.name()) + "\" (instance " + instance
          + ")";
    }
  }

  /** The current instance's work queue. */
  private final class CurrentQueue implements WorkQueueView {

    @Override
    public String name() {
      return current().workQueue().name();
    }

    @Override
    public WorkQueueStats stats() {
      return current().workQueue().stats();
    }

    @Override
    public String toString() {
      return current().workQueue().toString();
    }
  }
}
