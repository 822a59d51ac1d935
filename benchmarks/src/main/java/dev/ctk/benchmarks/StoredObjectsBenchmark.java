package dev.ctk.benchmarks;

import io.fabric8.kubernetes.api.model.ConfigMap;
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
 * Cost per operation against the number of objects already stored: is anything on the hot path a scan of the
 * store? The server is loaded with {@code stored} ConfigMaps in the client's namespace before the trial (not
 * timed); each operation leaves the count unchanged.
 *
 * <ul>
 *   <li>{@link #createThenDelete}: CREATE a ConfigMap, then DELETE it (two requests; one score for the pair).
 *   <li>{@link #getByName}: GET one stored ConfigMap by name (a different one each time, round robin).
 *   <li>{@link #updateOneOf100Keys}: UPDATE (PUT) one more ConfigMap, of 100 data keys besides the usual one and
 *       stored with the others (not timed), one key changed each time: what a write costs that keeps managedFields for
 *       a larger object.
 * </ul>
 *
 * <p>The parameter {@code targetAndStored} pairs a {@link Target} with a count, {@code TARGET/count}: fabric8's
 * mock is loaded through its HTTP API and its create cost grows with the store, so loading 100,000 objects into it
 * does not finish in reasonable time and that pair is not in the default list (add it with
 * {@code -p targetAndStored=FABRIC8_CRUD_MOCK/100000} to try).
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar StoredObjectsBenchmark -p targetAndStored=CTK_FAKE/100000
 * }</pre>
 *
 * @since 0.1.0
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class StoredObjectsBenchmark {

  /** {@code TARGET/stored}, e.g. {@code CTK_FAKE/100000}. */
  @Param({"CTK_FAKE/1000", "CTK_FAKE/10000", "CTK_FAKE/100000", "CTK_FAKE_HTTP/1000", "CTK_FAKE_HTTP/10000",
      "CTK_FAKE_HTTP/100000", "FABRIC8_CRUD_MOCK/1000", "FABRIC8_CRUD_MOCK/10000"})
  public String targetAndStored;

  /** The number of data keys {@link #updateOneOf100Keys}'s ConfigMap has besides the usual one. */
  static final int WIDE_KEYS = 100;

  private ClusterUnderTest cluster;
  private int stored;
  private int next;
  private ConfigMap wide;
  private int updates;

  /** Starts the server and stores the ConfigMaps (not timed). */
  @Setup(Level.Trial)
  public void load() {
    String[] parts = targetAndStored.split("/", 2);
    if (parts.length != 2) {
      throw new IllegalArgumentException("Parameter targetAndStored must be TARGET/count, e.g. CTK_FAKE/1000, "
          + "but was \"" + targetAndStored + "\".");
    }
    Target target = Target.valueOf(parts[0]);
    target.requireObjectStore(StoredObjectsBenchmark.class);
    stored = Integer.parseInt(parts[1]);
    cluster = target.start();
    for (int i = 1; i <= stored; i++) {
      cluster.store(ConfigMaps.numbered(i));
    }
    ConfigMap wideMap = ConfigMaps.named("wide", 0);
    for (int k = 0; k < WIDE_KEYS; k++) {
      wideMap.getData().put(String.format("key-%03d", k), "value-" + k + "-0123456789abcdef0123456789abcdef");
    }
    wide = cluster.client().configMaps().resource(wideMap).create();
  }

  /** Stops the server. */
  @TearDown(Level.Trial)
  public void stop() {
    cluster.close();
  }

  /**
   * Create one ConfigMap and delete it again.
   *
   * @return the created ConfigMap
   */
  @Benchmark
  public ConfigMap createThenDelete() {
    ConfigMap created = cluster.client().configMaps().resource(ConfigMaps.named("transient", 0)).create();
    cluster.client().configMaps().withName("transient").delete();
    return created;
  }

  /**
   * Update the ConfigMap of 101 keys (100 besides the usual one), changing one key (the previous answer, with its
   * resourceVersion, is sent back).
   *
   * @return the updated ConfigMap
   */
  @Benchmark
  public ConfigMap updateOneOf100Keys() {
    updates++;
    wide.getData().put("key-000", "value-" + updates);
    wide = cluster.client().configMaps().resource(wide).update();
    return wide;
  }

  /**
   * Get one stored ConfigMap.
   *
   * @return it
   */
  @Benchmark
  public ConfigMap getByName() {
    next = next % stored + 1;
    return cluster.client().configMaps().withName(ConfigMaps.name(next)).get();
  }
}
