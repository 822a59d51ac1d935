package dev.ctk.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
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
 * The heap a server keeps for 10,000 ConfigMaps. Method: start a fresh server (no informer), run
 * {@code System.gc()} three times and read the used heap ({@code MemoryMXBean}); create 10,000 ConfigMaps through
 * the fabric8 client, as users create objects (so ctk keeps their {@code managedFields}, as kube does), on every
 * server alike; run {@code System.gc()} three times again and read the used heap. The difference,
 * in KiB, is the secondary result {@code retainedKilobytes}, reported through {@link MeasuredFigures} once per
 * iteration and as the mean of the iterations: what the server holds for those objects (the store, and for ctk the
 * watch history of their ADDED events, 10,000 by default). The JVM runs with {@code -XX:+UseSerialGC} so that
 * {@code System.gc()} is one full, stop-the-world collection.
 *
 * <p>Three forks of three shots each: quote the mean and the lowest and highest of the nine shots.
 *
 * <p>The primary score (the time of one shot: the load plus the collections) is not a figure to quote; read
 * {@code :retainedKilobytes}. It needs the {@link MeasuredFigures} profiler, which {@link BenchmarksMain} turns on.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar MemoryBenchmark
 * }</pre>
 *
 * @since 0.1.0
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 3, jvmArgsAppend = {"-Xmx4g", "-XX:+UseSerialGC"})
public class MemoryBenchmark {

  /** How many ConfigMaps are loaded. */
  public static final int LOADED = 10_000;

  /** A fresh server per shot. */
  @State(Scope.Thread)
  public static class Server {

    /** Which server. */
    @Param({"CTK_FAKE", "CTK_FAKE_HTTP", "FABRIC8_CRUD_MOCK"})
    public Target target;

    private ClusterUnderTest cluster;

    /** Starts it (not timed). */
    @Setup(Level.Invocation)
    public void start() {
      target.requireObjectStore(MemoryBenchmark.class);
      cluster = target.start();
    }

    /** Stops it (not timed). */
    @TearDown(Level.Invocation)
    public void stop() {
      cluster.close();
    }
  }

  /**
   * Load 10,000 ConfigMaps and measure the heap they take.
   *
   * @param server the fresh server
   * @return the used heap after loading, in bytes
   */
  @Benchmark
  public long usedHeapFor10kConfigMaps(Server server) {
    long before = usedHeapAfterGc();
    for (int i = 1; i <= LOADED; i++) {
      server.cluster.client().resource(ConfigMaps.numbered(i)).create();
    }
    long after = usedHeapAfterGc();
    MeasuredFigures.record("retainedKilobytes", (after - before) / 1024.0, "KiB");
    return after;
  }

  private static long usedHeapAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
