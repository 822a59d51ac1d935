package dev.ctk.clientjava;

import dev.ctk.controller.CacheState;
import dev.ctk.controller.internal.DurationText;
import io.kubernetes.client.extended.controller.Controller;
import io.kubernetes.client.informer.SharedInformerFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * One run of a Kubernetes Java client {@link Controller} (a {@code DefaultController} or a {@code
 * ControllerManager}) for a test: {@code run()} on a daemon thread, the informers of the watched
 * factories started, and on {@link #close()} {@code shutdown()}, the factories' informers stopped and
 * the thread awaited. Its worker pools let a worker that had not started by the shutdown run once ({@link
 * WorkerPools}), so that a shutdown after the workers were scheduled never leaves {@code run()} waiting for one. (A
 * shutdown during {@code DefaultController}'s pre-flight wait for its ready functions is not seen by that wait,
 * which goes on until its {@code readyTimeout}.)
 */
final class ControllerRun implements AutoCloseable {

  private static final Duration POLL = Duration.ofMillis(10);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  private final ClientJavaProbe probe;
  private final Controller controller;
  private final List<SharedInformerFactory> factories;
  private final WorkerPools pools;
  private final Thread thread;
  private volatile Throwable thrown;
  private volatile boolean returned;

  ControllerRun(ClientJavaProbe probe, Controller controller,
      List<SharedInformerFactory> factories) {
    this.probe = probe;
    this.controller = controller;
    this.factories = List.copyOf(factories);
    this.pools = WorkerPools.of(controller);
    this.thread = new Thread(this::run, "ctk-client-java-" + probe.name());
    this.thread.setDaemon(true);
  }

  private void run() {
    try {
      controller.run();
    } catch (Throwable e) {
      thrown = e;
    } finally {
      returned = true;
    }
  }

  /**
   * Starts the informers and the controller, then waits until the caches synced and, when the probe's
   * work queue is attached, a worker asked it for a key.
   */
  void start(Duration timeout, boolean waitForWorker) {
    factories.forEach(SharedInformerFactory::startAllRegisteredInformers);
    pools.letPendingWorkersRun();
    thread.start();
    long start = System.nanoTime();
    BooleanSupplier ready = () -> probe.hasSynced() && (!waitForWorker || probe.askedForWork());
    while (!ready.getAsBoolean() && !returned) {
      if (System.nanoTime() - start > timeout.toNanos()) {
        throw new IllegalStateException(description() + " did not start within "
            + DurationText.of(timeout) + ":\n" + state(waitForWorker) + "Fix: check that the API server "
            + "lets its informers list and watch (see the log), that every informer the "
            + "controller needs is registered in the SharedInformerFactory before start, and that "
            + "its ready functions (withReadyFunc) can become true.");
      }
      LockSupport.parkNanos(POLL.toNanos());
    }
    if (!ready.getAsBoolean()) {
      throw new IllegalStateException(description() + " stopped before it started: its run() "
          + (thrown == null ? "returned" : "threw " + thrown) + " before " + (waitForWorker
              ? "any worker asked the work queue for a key" : "its informer caches synced")
          + ".\n" + state(waitForWorker) + "DefaultController.run() returns at once when its "
          + "pre-flight check fails (worker count, thread pool, or ready functions not true within "
          + "its readyTimeout); client-java logs which. Fix: see that log line.", thrown);
    }
  }

  private String state(boolean waitForWorker) {
    List<CacheState> caches = probe.caches();
    String lines = caches.stream().map(c -> "  " + c.name() + ": " + c.describe() + "\n")
        .collect(Collectors.joining());
    return (caches.isEmpty() ? "  no informers watched\n" : lines)
        + (waitForWorker ? "  work queue: " + (probe.askedForWork()
            ? "a worker asked for a key" : "no worker asked for a key yet") + "\n" : "");
  }

  /** Shuts the controller down, stops the factories' informers and waits for run() to return. */
  @Override
  public void close() {
    try {
      stop();
    } finally {
      pools.stop();   // also when shutdown() threw: a pool left running would repeat its workers every second
    }
    if (thread.isAlive()) {
      throw new IllegalStateException(description() + " did not stop: its run() had not returned "
          + DurationText.of(STOP_TIMEOUT) + " after shutdown(), nor 5s after an interrupt. A reconcile that "
          + "never returns keeps a worker busy, and DefaultController's pre-flight wait for its "
          + "ready functions ignores both until its readyTimeout. Fix: make the reconciler return "
          + "(or time out), and give withReadyTimeout(..) a bound shorter than 10s in tests.");
    }
  }

  private void stop() {
    try {
      controller.shutdown();
    } finally {
      factories.forEach(SharedInformerFactory::stopAllRegisteredInformers);
      probe.stopped();
    }
    try {
      thread.join(STOP_TIMEOUT.toMillis());
      if (thread.isAlive()) {
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(5));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String description() {
    return "Kubernetes Java client controller \"" + probe.name() + "\" ("
        + controller.getClass().getSimpleName() + ")";
  }

  @Override
  public String toString() {
    return description();
  }
}
