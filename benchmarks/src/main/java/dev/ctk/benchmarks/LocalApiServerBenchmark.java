package dev.ctk.benchmarks;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.LocalApiServer;
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

/**
 * Benchmark 5, envtest with local binaries (etcd + kube-apiserver child processes, {@link LocalApiServer}).
 * Runs only where the binaries are found; {@link BenchmarksMain} skips it with the reason otherwise.
 *
 * <ul>
 *   <li>{@link #coldStart} (SingleShotTime, seconds): {@code LocalApiServer.builder().build().start()}, until
 *       {@code /readyz} and namespace {@code default} answer; the stop is not timed.
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
public class LocalApiServerBenchmark {

  /** The server a cold start leaves behind, stopped after the shot. */
  @State(Scope.Thread)
  public static class Cold {

    private LocalApiServer server;

    /** Fails with the reason when the binaries are missing. */
    @Setup(Level.Trial)
    public void requireBinaries() {
      RealServers.requireLocal("LocalApiServerBenchmark.coldStart");
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

    /** Starts (or reuses) the JVM's shared server. */
    @Setup(Level.Trial)
    public void start() {
      RealServers.requireLocal("LocalApiServerBenchmark.reusedServerPerTestSetup");
      ApiServer server = SharedApiServers.get("ctk-benchmarks-local",
          () -> LocalApiServer.builder().build().start());
      setup = new RealServerSetup(server);
    }

    /** Deletes what is left; the shared server stops with the JVM. */
    @TearDown(Level.Trial)
    public void stop() {
      setup.close();
    }
  }

  /**
   * Start local etcd and kube-apiserver.
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
    state.server = LocalApiServer.builder().build().start();
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
}
