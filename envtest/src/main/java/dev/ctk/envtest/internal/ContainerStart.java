package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one container-mode start has created so far, so that {@code ContainerApiServer.close()} or
 * the JVM shutdown hook can remove it while the start is still under way (pulling or building an
 * image, starting a container, waiting for readiness). After {@link #cancel()} the start gives up
 * at its next step, and anything it creates after that is removed at once.
 *
 * <pre>{@code
 * ContainerStart progress = new ContainerStart();
 * ContainerCluster cluster = ContainerClusters.start(spec, progress);   // the starting thread
 * progress.cancel();                                                    // close() or the shutdown hook
 * }</pre>
 *
 * <p>Limits: a pull in progress is not interrupted (the start gives up when it returns); when the
 * JVM halts right after its shutdown hooks, an object Docker created in that instant but the start
 * had not yet recorded stays, and the next container start on this host removes it ({@link
 * ContainerOrphans}). Thread-safe.
 */
public final class ContainerStart {

  private final List<ContainerRun> containers = new ArrayList<>();
  private ContainerDocker docker;
  private String networkId;
  private boolean cancelled;

  /**
   * Records the network a start created; removes it and throws if the start was cancelled.
   *
   * @param docker the engine
   * @param id the network id
   * @throws EnvtestException if {@link #cancel()} was called
   */
  public void network(ContainerDocker docker, String id) {
    synchronized (this) {
      if (!cancelled) {
        this.docker = docker;
        this.networkId = id;
        return;
      }
    }
    docker.removeNetwork(id);
    throw cancelledFailure();
  }

  /**
   * Records a container a start created; removes it and throws if the start was cancelled.
   *
   * @param container the container (created, maybe not started)
   * @throws EnvtestException if {@link #cancel()} was called
   */
  public void container(ContainerRun container) {
    synchronized (this) {
      if (!cancelled) {
        containers.add(container);
        return;
      }
    }
    container.remove();
    throw cancelledFailure();
  }

  /**
   * Throws if the start was cancelled; called between the steps of a start and while it waits.
   *
   * @throws EnvtestException if {@link #cancel()} was called
   */
  public synchronized void throwIfCancelled() {
    if (cancelled) {
      throw cancelledFailure();
    }
  }

  /**
   * Makes the start give up and removes what it created so far, newest first. Never throws;
   * idempotent.
   */
  public void cancel() {
    List<ContainerRun> toRemove;
    ContainerDocker engine;
    String network;
    synchronized (this) {
      if (cancelled) {
        return;
      }
      cancelled = true;
      toRemove = new ArrayList<>(containers);
      engine = docker;
      network = networkId;
    }
    for (int i = toRemove.size() - 1; i >= 0; i--) {
      toRemove.get(i).remove();
    }
    if (engine != null) {
      engine.removeNetwork(network);
    }
  }

  private static EnvtestException cancelledFailure() {
    return new EnvtestException(
        "ContainerApiServer.close() was called while the server was starting (by the caller or the"
            + " JVM shutdown hook); start() gave up and removed the containers and the network it had"
            + " created.");
  }
}
