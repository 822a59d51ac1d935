package dev.ctk.contract;

import dev.ctk.envtest.ApiServer;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A real API server the suite compares the fake with: started on first use and shared by every scenario of the JVM
 * (each scenario gets its own namespace). It is either unavailable (nothing to run it with on this machine: the
 * real side skips with the reason), failed to start (a failure), or running.
 *
 * <pre>{@code
 * RealServer envtest = new RealServer("local binaries", RealServers::localUnavailableReason, RealServers::local);
 * ApiServer server = envtest.server();   // null when unavailable or failed: see envtest.problem()
 * }</pre>
 */
final class RealServer implements AutoCloseable {

  private final String variant;
  private final String lineSuffix;
  private final Supplier<String> unavailableReason;
  private final Supplier<ApiServer> starter;
  private ApiServer server;
  private String problem;
  private boolean unavailable;
  private boolean tried;

  /**
   * @param variant e.g. {@code local binaries}
   * @param lineSuffix what the fidelity line adds after the version, e.g. {@code " in containers"}, or {@code ""}
   * @param unavailableReason why the server cannot run here, {@code null} when it can
   * @param starter starts it (called at most once)
   */
  RealServer(String variant, String lineSuffix, Supplier<String> unavailableReason, Supplier<ApiServer> starter) {
    this.variant = Objects.requireNonNull(variant, "variant");
    this.lineSuffix = Objects.requireNonNull(lineSuffix, "lineSuffix");
    this.unavailableReason = Objects.requireNonNull(unavailableReason, "unavailableReason");
    this.starter = Objects.requireNonNull(starter, "starter");
  }

  /** E.g. {@code local binaries}. */
  String variant() {
    return variant;
  }

  /** The server, started on first call; {@code null} when unavailable or failed (see {@link #problem()}). */
  synchronized ApiServer server() {
    if (!tried) {
      tried = true;
      problem = unavailableReason.get();
      unavailable = problem != null;
      if (!unavailable) {
        try {
          server = starter.get();
        } catch (RuntimeException e) {
          problem = e.getMessage() == null ? e.toString() : e.getMessage();
        }
      }
    }
    return server;
  }

  /** E.g. {@code kube-apiserver v1.20.2 in containers}: how the fidelity line names this server. */
  synchronized String fidelityName() {
    return "kube-apiserver " + (server == null ? "" : server.version()) + lineSuffix;
  }

  /** Whether {@link #server()} was called (so the server was started, or found missing, or failed). */
  synchronized boolean asked() {
    return tried;
  }

  /** Whether the server is missing from this machine (rather than failing to start). */
  synchronized boolean unavailable() {
    return unavailable;
  }

  /** Why {@link #server()} is {@code null}. */
  synchronized String problem() {
    return problem;
  }

  /** E.g. {@code kube-apiserver v1.20.2 (local binaries)}, without the version while not running. */
  synchronized String displayName() {
    return server == null ? "kube-apiserver (" + variant + ")"
        : "kube-apiserver " + server.version() + " (" + variant + ")";
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.close();
    }
  }
}
