package dev.ctk.benchmarks;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Benchmark 3, reads and watch fan-out.
 *
 * <ul>
 *   <li>{@link #list10kConfigMaps}: one unpaginated LIST of a namespace holding 10,000 ConfigMaps (loaded before
 *       the trial, not timed), decoded by the fabric8 client into a {@code ConfigMapList}.
 *   <li>{@link #oneWriteSeenBy10Informers}: one ConfigMap create, awaited until each of 10 synced ConfigMap
 *       informers (10 watches on one client) has seen it. Stored ConfigMaps grow by one per operation.
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar ListAndFanOutBenchmark
 * }</pre>
 *
 * @since 0.1.0
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class ListAndFanOutBenchmark {

  /** How many ConfigMaps the LIST returns. */
  public static final int LISTED = 10_000;

  /** How many informers see each write. */
  public static final int INFORMERS = 10;

  /** A server holding {@link #LISTED} ConfigMaps. */
  @State(Scope.Thread)
  public static class Loaded {

    /** Which server. */
    @Param({"CTK_FAKE", "CTK_FAKE_HTTP", "FABRIC8_CRUD_MOCK"})
    public Target target;

    private ClusterUnderTest cluster;

    /** Starts the server and stores the ConfigMaps (not timed). */
    @Setup(Level.Trial)
    public void load() {
      target.requireObjectStore(ListAndFanOutBenchmark.class);
      cluster = target.start();
      for (int i = 1; i <= LISTED; i++) {
        cluster.store(ConfigMaps.numbered(i));
      }
      int listed = cluster.client().configMaps().list().getItems().size();
      if (listed != LISTED) {
        throw new IllegalStateException("Expecting " + LISTED + " ConfigMaps in namespace "
            + cluster.client().getNamespace() + " of " + cluster + " after loading but listed " + listed
            + ". The load did not store every object: see the log above.");
      }
    }

    /** Stops the server. */
    @TearDown(Level.Trial)
    public void stop() {
      cluster.close();
    }
  }

  /** A server with {@link #INFORMERS} synced ConfigMap informers. */
  @State(Scope.Thread)
  public static class Watched {

    /** Which server. */
    @Param({"CTK_FAKE", "CTK_FAKE_HTTP", "FABRIC8_CRUD_MOCK"})
    public Target target;

    private InformedCluster cluster;
    private int created;

    /** Starts the server and the informers (not timed). */
    @Setup(Level.Trial)
    public void start() {
      target.requireObjectStore(ListAndFanOutBenchmark.class);
      cluster = InformedCluster.start(target, INFORMERS);
    }

    /** Stops them. */
    @TearDown(Level.Trial)
    public void stop() {
      cluster.close();
    }
  }

  /**
   * LIST the namespace.
   *
   * @param state the loaded server
   * @return the list
   */
  @Benchmark
  public ConfigMapList list10kConfigMaps(Loaded state) {
    return state.cluster.client().configMaps().list();
  }

  /**
   * One create seen by every informer.
   *
   * @param state the watched server
   * @return the created ConfigMap
   */
  @Benchmark
  public ConfigMap oneWriteSeenBy10Informers(Watched state) {
    return state.cluster.createAndAwait(++state.created);
  }
}
