package dev.ctk.clientjava;

import io.kubernetes.client.extended.controller.Controller;
import io.kubernetes.client.extended.controller.ControllerManager;
import io.kubernetes.client.extended.controller.DefaultController;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * The worker pools of the {@code DefaultController}s a run drives, made safe to shut down at any moment.
 *
 * <p>client-java's {@code DefaultController.run()} schedules each worker as a periodic task of its pool and then
 * waits until every worker has counted down a latch. {@code shutdown()} shuts the pool down, which by default cancels
 * a periodic task that has not started yet: when a controller is shut down before all its workers started (a crash
 * right after its first reconcile began, a test that ends quickly, on a busy machine), that worker never counts down,
 * and {@code run()} never returns. (A shutdown during the pre-flight wait for the ready functions, before any worker
 * is scheduled, is another matter: that wait does not see it.) Before the run, {@link #letPendingWorkersRun()} has
 * each pool run such a worker after shutdown instead (it sees the queue shutting down and returns at once); once
 * {@code run()} returned, {@link #stop()} stops the pools, which would otherwise repeat the worker every second.
 *
 * <p>A {@code ControllerManager}'s controllers are read from its private {@code controllers} field; when this
 * client-java version keeps them elsewhere, or a pool is not a {@code ScheduledThreadPoolExecutor}, that pool is left
 * as it is and a shutdown in that window waits out {@code ControllerRun}'s stop timeout.
 */
final class WorkerPools {

  private static final String CONTROLLERS_FIELD = "controllers";

  private final List<ScheduledThreadPoolExecutor> pools;

  private WorkerPools(List<ScheduledThreadPoolExecutor> pools) {
    this.pools = List.copyOf(pools);
  }

  /** The pools of the controller, or of the controllers a {@code ControllerManager} holds. */
  static WorkerPools of(Controller controller) {
    List<ScheduledThreadPoolExecutor> pools = new ArrayList<>();
    for (DefaultController built : defaultControllers(controller)) {
      ExecutorService pool = built.getWorkerThreadPool();
      if (pool instanceof ScheduledThreadPoolExecutor scheduled) {
        pools.add(scheduled);
      }
    }
    return new WorkerPools(pools);
  }

  /** Before {@code run()}: a worker not started at shutdown still runs once, and so counts down. */
  void letPendingWorkersRun() {
    pools.forEach(pool -> pool.setContinueExistingPeriodicTasksAfterShutdownPolicy(true));
  }

  /**
   * When the run is over ({@code run()} returned, or was given up on and interrupted): stops the workers' periodic
   * tasks and the pools' threads, interrupting a reconcile that still runs.
   */
  void stop() {
    pools.forEach(ExecutorService::shutdownNow);
  }

  private static List<DefaultController> defaultControllers(Controller controller) {
    if (controller instanceof DefaultController built) {
      return List.of(built);
    }
    List<DefaultController> found = new ArrayList<>();
    if (controller instanceof ControllerManager manager) {
      for (Controller inner : managed(manager)) {
        found.addAll(defaultControllers(inner));
      }
    }
    return found;
  }

  private static List<Controller> managed(ControllerManager manager) {
    try {
      Field field = ControllerManager.class.getDeclaredField(CONTROLLERS_FIELD);
      field.setAccessible(true);
      if (field.get(manager) instanceof Controller[] controllers) {
        List<Controller> list = new ArrayList<>();
        for (Controller inner : controllers) {
          if (inner != null) {
            list.add(inner);
          }
        }
        return list;
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      // another client-java version: its pools stay as they are (see the class comment)
    }
    return List.of();
  }
}
