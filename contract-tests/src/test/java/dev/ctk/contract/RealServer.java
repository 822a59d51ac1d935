package dev.ctk.contract;

import dev.ctk.envtest.ApiServer;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A real API server the suite compares the fake with: started on first use and shared by every scenario of the JVM
 * (each scenario gets its own namespace). It is either unavailable (nothing to run it with on this machine: the
 * real side skips with the reason), failed to start (a failure), or running.
 *
 * <p>A target has two servers of one version, each started only when a scenario needs it: a bare kube-apiserver for
 * the scenarios that observe what the API server alone does (a finalizer set, a namespace left Terminating), and
 * one with kube-controller-manager's garbage collector and namespace controller for the scenarios that
 * {@link Scenario#needsClusterControllers() need them}. One server cannot serve both: a running collector would race
 * the first kind's reads (an orphaned dependent loses its ownerReference a few milliseconds after the delete).
 *
 * <pre>{@code
 * RealServer envtest = new RealServer("local binaries", "", reason, startBare, controllersMissing, startWithControllers);
 * ApiServer server = envtest.server(scenario.needsClusterControllers()); // null: see problem(...)
 * }</pre>
 */
final class RealServer implements AutoCloseable {

  private final String variant;
  private final String lineSuffix;
  private final Slot bare;
  private final Slot withControllers;

  /**
   * @param variant e.g. {@code local binaries}
   * @param lineSuffix what the fidelity line adds after the version, e.g. {@code " in containers"}, or {@code ""}
   * @param unavailableReason why the server cannot run here, {@code null} when it can
   * @param starter starts the bare server (called at most once)
   * @param controllersMissing why this target cannot run the cluster's controllers, {@code null} when it can
   *     (asked only when {@code unavailableReason} gives {@code null})
   * @param controllersStarter starts a server with kube-controller-manager (called at most once)
   */
  RealServer(String variant, String lineSuffix, Supplier<String> unavailableReason, Supplier<ApiServer> starter,
      Supplier<String> controllersMissing, Supplier<ApiServer> controllersStarter) {
    this.variant = Objects.requireNonNull(variant, "variant");
    this.lineSuffix = Objects.requireNonNull(lineSuffix, "lineSuffix");
    this.bare = new Slot(unavailableReason, starter, null);
    Objects.requireNonNull(controllersMissing, "controllersMissing");
    this.withControllers = new Slot(unavailableReason, controllersStarter, controllersMissing);
  }

  /** E.g. {@code local binaries}. */
  String variant() {
    return variant;
  }

  /**
   * The server, started on first call; {@code null} when unavailable or failed (see {@link #problem(boolean)}).
   *
   * @param clusterControllers the server with kube-controller-manager rather than the bare one
   */
  ApiServer server(boolean clusterControllers) {
    return slot(clusterControllers).server();
  }

  /** Whether the cluster's controllers cannot run on this target (asked after {@code server(true)} gave null). */
  boolean controllersMissing() {
    return withControllers.controllersMissing();
  }

  /** E.g. {@code kube-apiserver v1.32.13 in containers}: how the fidelity line names this target. */
  String fidelityName() {
    ApiServer running = running();
    return "kube-apiserver " + (running == null ? "" : running.version()) + lineSuffix;
  }

  /** Whether either server was asked for (so it was started, or found missing, or failed). */
  boolean asked() {
    return bare.asked() || withControllers.asked();
  }

  /** Whether the server is missing from this machine (rather than failing to start). */
  boolean unavailable(boolean clusterControllers) {
    return slot(clusterControllers).unavailable();
  }

  /** Why {@link #server(boolean)} is {@code null}. */
  String problem(boolean clusterControllers) {
    return slot(clusterControllers).problem();
  }

  /** The first problem of a server that was asked for and is not running, or {@code null}. */
  String anyProblem() {
    for (Slot slot : new Slot[] {bare, withControllers}) {
      if (slot.asked() && slot.running() == null && !slot.controllersMissing()) {
        return slot.problem();
      }
    }
    return null;
  }

  /** E.g. {@code kube-apiserver v1.32.13 (local binaries)}, without the version while not running. */
  String displayName() {
    ApiServer running = running();
    return running == null ? "kube-apiserver (" + variant + ")"
        : "kube-apiserver " + running.version() + " (" + variant + ")";
  }

  private ApiServer running() {
    ApiServer running = bare.running();
    return running != null ? running : withControllers.running();
  }

  private Slot slot(boolean clusterControllers) {
    return clusterControllers ? withControllers : bare;
  }

  @Override
  public void close() {
    bare.close();
    withControllers.close();
  }

  /** One lazily started server. */
  private static final class Slot {

    private final Supplier<String> unavailableReason;
    private final Supplier<ApiServer> starter;
    private final Supplier<String> controllersMissingReason;
    private ApiServer server;
    private String problem;
    private boolean unavailable;
    private boolean controllersMissing;
    private boolean tried;

    Slot(Supplier<String> unavailableReason, Supplier<ApiServer> starter, Supplier<String> controllersMissingReason) {
      this.unavailableReason = Objects.requireNonNull(unavailableReason, "unavailableReason");
      this.starter = Objects.requireNonNull(starter, "starter");
      this.controllersMissingReason = controllersMissingReason;
    }

    synchronized ApiServer server() {
      if (!tried) {
        tried = true;
        problem = unavailableReason.get();
        unavailable = problem != null;
        if (!unavailable && controllersMissingReason != null) {
          problem = controllersMissingReason.get();
          controllersMissing = problem != null;
        }
        if (problem == null) {
          try {
            server = starter.get();
          } catch (RuntimeException e) {
            problem = e.getMessage() == null ? e.toString() : e.getMessage();
          }
        }
      }
      return server;
    }

    synchronized ApiServer running() {
      return server;
    }

    synchronized boolean asked() {
      return tried;
    }

    synchronized boolean unavailable() {
      return unavailable;
    }

    synchronized boolean controllersMissing() {
      return controllersMissing;
    }

    synchronized String problem() {
      return problem;
    }

    synchronized void close() {
      if (server != null) {
        server.close();
      }
    }
  }
}
