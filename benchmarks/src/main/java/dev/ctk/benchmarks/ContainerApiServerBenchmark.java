package dev.ctk.benchmarks;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.ContainerApiServer;
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
 * Benchmark 5, envtest in containers (etcd + kube-apiserver containers, {@link ContainerApiServer}) from an image
 * built on this machine from the local binaries ({@code withLocalImage}, tagged by their hash and reused once
 * built, so only the first cold start of a machine includes the image build). Runs only with Docker and
 * {@code ctk.container.local-image} set; {@link BenchmarksMain} skips it with the reason otherwise.
 *
 * <ul>
 *   <li>{@link #coldStart} (SingleShotTime, seconds): {@code ContainerApiServer.builder().withLocalImage(..).build().start()}, until
 *       {@code /readyz} and namespace {@code default} answer; the stop is not timed.
 *   <li>{@link #reusedServerPerTestSetup} (SampleTime, ms): the per-test setup on the server
 *       {@link SharedApiServers} keeps for the JVM, see {@link RealServerSetup}.
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar ContainerApiServerBenchmark
 * }</pre>
 *
 * @since 0.1.0
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class ContainerApiServerBenchmark {

  /** The containers a cold start leaves behind, removed after the shot. */
  @State(Scope.Thread)
  public static class Cold {

    private ContainerApiServer server;

    /** Fails with the reason when Docker or the local image setting is missing. */
    @Setup(Level.Trial)
    public void requireBinaries() {
      RealServers.requireContainer("ContainerApiServerBenchmark.coldStart");
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
      RealServers.requireContainer("ContainerApiServerBenchmark.reusedServerPerTestSetup");
      ApiServer server = SharedApiServers.get("ctk-benchmarks-container",
          () -> ContainerApiServer.builder().withLocalImage(RealServers.localImageAssets()).build().start());
      setup = new RealServerSetup(server);
    }

    /** Deletes what is left; the shared server stops with the JVM. */
    @TearDown(Level.Trial)
    public void stop() {
      setup.close();
    }
  }

  /**
   * Start the etcd and kube-apiserver containers.
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
    state.server = ContainerApiServer.builder().withLocalImage(RealServers.localImageAssets()).build().start();
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
