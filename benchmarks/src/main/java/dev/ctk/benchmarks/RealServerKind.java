package dev.ctk.benchmarks;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.ContainerApiServer;
import dev.ctk.envtest.LocalApiServer;
import dev.ctk.envtest.SharedApiServers;
import java.util.Optional;

/**
 * How an envtest benchmark runs a real kube-apiserver: as local binaries or in containers. Each kind names the
 * benchmark class that measures it, says whether it can run on this machine, starts a fresh server (a cold start)
 * and hands out the server kept for the JVM.
 *
 * <pre>{@code
 * RealServerKind.LOCAL.require("LocalApiServerBenchmark.coldStart");
 * try (ApiServer server = RealServerKind.LOCAL.start()) {
 *   server.version();
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public enum RealServerKind {

  /** etcd + kube-apiserver child processes ({@link LocalApiServer}), found as ctk's envtest mode finds them. */
  LOCAL(LocalApiServerBenchmark.class, "ctk-benchmarks-local") {
    @Override
    public Optional<String> unavailableReason() {
      return RealServers.localUnavailableReason();
    }

    @Override
    public void require(String benchmark) {
      RealServers.requireLocal(benchmark);
    }

    @Override
    public ApiServer start() {
      return LocalApiServer.builder().build().start();
    }
  },

  /**
   * etcd + kube-apiserver containers ({@link ContainerApiServer}) from an image built on this machine from the
   * local binaries; never pulled.
   */
  CONTAINER(ContainerApiServerBenchmark.class, "ctk-benchmarks-container") {
    @Override
    public Optional<String> unavailableReason() {
      return RealServers.containerUnavailableReason();
    }

    @Override
    public void require(String benchmark) {
      RealServers.requireContainer(benchmark);
    }

    @Override
    public ApiServer start() {
      return ContainerApiServer.builder().withLocalImage(RealServers.localImageAssets()).build().start();
    }
  };

  private final Class<? extends ApiServerBenchmark> benchmark;
  private final String sharedName;

  RealServerKind(Class<? extends ApiServerBenchmark> benchmark, String sharedName) {
    this.benchmark = benchmark;
    this.sharedName = sharedName;
  }

  /**
   * The kind a benchmark measures, from its JMH name.
   *
   * @param benchmarkName JMH's {@code BenchmarkParams.getBenchmark()}, e.g.
   *     {@code dev.ctk.benchmarks.LocalApiServerBenchmark.coldStart}
   * @return the kind
   * @throws IllegalArgumentException when the name is no method of a kind's benchmark class
   */
  public static RealServerKind of(String benchmarkName) {
    for (RealServerKind kind : values()) {
      if (benchmarkName.startsWith(kind.benchmark.getName() + ".")) {
        return kind;
      }
    }
    throw new IllegalArgumentException("Benchmark " + benchmarkName + " measures no real server kind: expected a "
        + "method of " + LocalApiServerBenchmark.class.getName() + " or " + ContainerApiServerBenchmark.class.getName()
        + ". A new subclass of ApiServerBenchmark needs its own RealServerKind.");
  }

  /**
   * The benchmark class that measures this kind.
   *
   * @return e.g. {@code LocalApiServerBenchmark}
   */
  public Class<? extends ApiServerBenchmark> benchmark() {
    return benchmark;
  }

  /**
   * Why this kind cannot run here.
   *
   * @return the reason (what was looked for and the fix), or empty when it can
   */
  public abstract Optional<String> unavailableReason();

  /**
   * Fails with the reason when this kind cannot run here.
   *
   * @param benchmark the benchmark that needs it, for the message
   * @throws IllegalStateException when it cannot
   */
  public abstract void require(String benchmark);

  /**
   * Starts a fresh server of this kind, until {@code /readyz} and namespace {@code default} answer.
   *
   * @return the running server; the caller closes it
   */
  public abstract ApiServer start();

  /**
   * The server of this kind kept for the JVM ({@link SharedApiServers}), started on first call.
   *
   * @return the shared server; it stops with the JVM
   */
  public ApiServer shared() {
    return SharedApiServers.get(sharedName, this::start);
  }
}
