package dev.ctk.benchmarks;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.SharedApiServers;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Benchmark 5, envtest: the work measured on a real kube-apiserver, written once for every {@link RealServerKind}.
 * JMH runs it through the concrete subclasses, one per kind ({@link LocalApiServerBenchmark},
 * {@link ContainerApiServerBenchmark}); the states find their kind from the benchmark's name
 * ({@link RealServerKind#of(String)}).
 *
 * <ul>
 *   <li>{@link #coldStart} (SingleShotTime, seconds): start a fresh server of the kind, until {@code /readyz} and
 *       namespace {@code default} answer; the stop is not timed.
 *   <li>{@link #reusedServerPerTestSetup} (SampleTime, ms): the per-test setup on the server
 *       {@link SharedApiServers} keeps for the JVM, see {@link RealServerSetup}.
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar LocalApiServerBenchmark
 * }</pre>
 *
 * @since 0.1.0
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public abstract class ApiServerBenchmark {

  /** The server a cold start leaves behind, stopped after the shot. */
  @State(Scope.Thread)
  public static class Cold {

    private RealServerKind kind;
    private ApiServer server;

    /**
     * Finds the kind; fails with the reason when it cannot run here.
     *
     * @param params the running benchmark
     */
    @Setup(Level.Trial)
    public void requireServer(BenchmarkParams params) {
      kind = RealServerKind.of(params.getBenchmark());
      kind.require(shortName(params));
    }

    /** Stops the server (not timed). */
    @TearDown(Level.Invocation)
    public void stop() {
      if (server != null) {
        server.close();
        server = null;
      }
    }
  }

  /** One server for the whole trial. */
  @State(Scope.Thread)
  public static class Reused {

    private RealServerSetup setup;

    /**
     * Starts (or reuses) the JVM's shared server of the benchmark's kind; fails with the reason when it cannot run
     * here.
     *
     * @param params the running benchmark
     */
    @Setup(Level.Trial)
    public void start(BenchmarkParams params) {
      RealServerKind kind = RealServerKind.of(params.getBenchmark());
      kind.require(shortName(params));
      setup = new RealServerSetup(kind.shared());
    }

    /** Deletes what is left; the shared server stops with the JVM. */
    @TearDown(Level.Trial)
    public void stop() {
      setup.close();
    }
  }

  /**
   * Start etcd and kube-apiserver.
   *
   * @param state where the server goes
   * @return the server's version
   */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @Warmup(iterations = 0)
  @Measurement(iterations = 3)
  public String coldStart(Cold state) {
    state.server = state.kind.start();
    return state.server.version();
  }

  /**
   * One test's namespace, client and synced informer on the running server, and its cleanup.
   *
   * @param state the server
   * @return the namespace
   */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @Warmup(iterations = 2, time = 5)
  @Measurement(iterations = 3, time = 10)
  public String reusedServerPerTestSetup(Reused state) {
    return state.setup.oneTest();
  }

  /** E.g. {@code LocalApiServerBenchmark.coldStart}, for messages. */
  private static String shortName(BenchmarkParams params) {
    String name = params.getBenchmark();
    int method = name.lastIndexOf('.');
    return name.substring(name.lastIndexOf('.', method - 1) + 1);
  }
}
