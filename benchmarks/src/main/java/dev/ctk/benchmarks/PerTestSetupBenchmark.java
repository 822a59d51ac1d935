package dev.ctk.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Benchmark 1, the price of isolation: what every test pays before its first line in fake mode. One operation
 * starts a fresh, empty server of the {@link Target}, binds a client, starts one ConfigMap informer and waits until
 * it has synced (its list done and its watch open), then closes informer, client and server.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar PerTestSetupBenchmark
 * }</pre>
 *
 * @since 0.1.0
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class PerTestSetupBenchmark {

  /** Which server. */
  @Param({"CTK_FAKE", "CTK_FAKE_HTTP", "FABRIC8_CRUD_MOCK"})
  public Target target;

  /** Refuses a target that stores nothing (see {@link Target#requireObjectStore(Class)}). */
  @Setup(Level.Trial)
  public void requireObjectStore() {
    target.requireObjectStore(PerTestSetupBenchmark.class);
  }

  /**
   * Start, sync one informer, close.
   *
   * @return the number of ConfigMaps the informer listed (0), so that nothing is optimised away
   */
  @Benchmark
  public int freshClusterClientAndSyncedInformer() {
    try (InformedCluster cluster = InformedCluster.start(target, 1)) {
      return cluster.cluster().client().getNamespace().length();
    }
  }
}
