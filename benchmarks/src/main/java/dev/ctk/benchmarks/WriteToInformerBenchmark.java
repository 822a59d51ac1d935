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
 * Benchmark 2, write to informer: sequential ConfigMap creates through the client, each awaited until a synced
 * ConfigMap informer's handler has seen its ADDED event, in runs of {@code n} creates on a fresh server.
 *
 * <ul>
 *   <li>{@link #createSeenByInformer} (SampleTime, ms): the latency of one create-and-see, sampled over runs of
 *       {@code n} creates; a fresh server and informer replace the old one after every {@code n}-th create,
 *       outside the timed region. JMH prints p50/p99 and the mean.
 *   <li>{@link #nCreatesSeenByInformer} (SingleShotTime, s): the wall time of all {@code n} creates on a fresh
 *       server (started and synced outside the timed region), and the secondary result
 *       {@code :createsPerSecond} (n / that time, through {@link MeasuredFigures}): the ops/s of the run.
 * </ul>
 *
 * <p>{@link Target#FABRIC8_CLIENT_FLOOR} is the floor under the other targets: the same fabric8 client and informer
 * against a server that does no work (the create is echoed and its ADDED event handed to the watch on the writer's
 * thread before the answer), so its figure is what fabric8's client, fabric8's informer and the thread hand-offs
 * cost; no fake reached through fabric8's client and informer can beat it. {@link Target#FABRIC8_CLIENT_FLOOR_HANDOFF}
 * is the same floor with the event handed to the watch on a thread of the server's own, as a real API server and ctk's
 * fake deliver it: the floor of a fake that keeps the informer's cache apart from the write.
 * {@link Target#FABRIC8_CLIENT_FLOOR_KUBE_OBJECTS} is that floor answering and announcing each create with the
 * metadata kube adds ({@code uid}, {@code creationTimestamp}, {@code managedFields}, as ctk's fake gives them), so
 * that the client decodes objects of kube's size: the floor of a fake that answers as kube does.
 * {@link Target#FABRIC8_CLIENT_FLOOR_HTTP} is that last floor over loopback HTTP, under {@link Target#CTK_FAKE_HTTP}.
 * This is the only benchmark that accepts those four targets.
 *
 * <p>{@code n = 10000} on fabric8's CRUD mock takes minutes per shot (its create cost grows with the stored
 * objects); select one with {@code -p n=1000}.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar WriteToInformerBenchmark -p n=1000
 * }</pre>
 *
 * @since 0.1.0
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class WriteToInformerBenchmark {

  /** The cycling state of {@link #createSeenByInformer}. */
  @State(Scope.Thread)
  public static class Cycling {

    /** Which server. */
    @Param({"CTK_FAKE", "CTK_FAKE_HTTP", "FABRIC8_CRUD_MOCK", "FABRIC8_CLIENT_FLOOR", "FABRIC8_CLIENT_FLOOR_HANDOFF",
        "FABRIC8_CLIENT_FLOOR_KUBE_OBJECTS", "FABRIC8_CLIENT_FLOOR_HTTP"})
    public Target target;

    /** Creates per fresh server. */
    @Param({"1000", "10000"})
    public int n;

    private InformedCluster cluster;
    private int created;

    /** Starts the first server. */
    @Setup(Level.Trial)
    public void start() {
      cluster = InformedCluster.start(target, 1);
    }

    /** After every n-th create, a fresh server (not timed). */
    @Setup(Level.Invocation)
    public void freshServerEveryN() {
      if (created == n) {
        cluster.close();
        cluster = InformedCluster.start(target, 1);
        created = 0;
      }
    }

    /** Stops the server. */
    @TearDown(Level.Trial)
    public void stop() {
      cluster.close();
    }
  }

  /** The per-shot state of {@link #nCreatesSeenByInformer}. */
  @State(Scope.Thread)
  public static class PerShot {

    /** Which server. */
    @Param({"CTK_FAKE", "CTK_FAKE_HTTP", "FABRIC8_CRUD_MOCK", "FABRIC8_CLIENT_FLOOR", "FABRIC8_CLIENT_FLOOR_HANDOFF",
        "FABRIC8_CLIENT_FLOOR_KUBE_OBJECTS", "FABRIC8_CLIENT_FLOOR_HTTP"})
    public Target target;

    /** Creates per shot. */
    @Param({"1000", "10000"})
    public int n;

    private InformedCluster cluster;

    /** A fresh server and synced informer per shot (not timed). */
    @Setup(Level.Invocation)
    public void start() {
      cluster = InformedCluster.start(target, 1);
    }

    /** Stops it (not timed). */
    @TearDown(Level.Invocation)
    public void stop() {
      cluster.close();
    }
  }

  /**
   * One create, awaited until the informer saw it. The warm-up is 60 s: after 15 s (3 x 5 s) ctk's fake was still warming
   * up, its mean per iteration falling from 0.435 ms (the last warm-up iteration) to 0.244 and 0.193 ms in the measured
   * ones (BENCHMARKS.md, "Write → informer on an AMD EPYC machine"); from about 30 s on it no longer trends.
   *
   * @param state the server
   * @return the created ConfigMap
   */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @Warmup(iterations = 6, time = 10)
  @Measurement(iterations = 5, time = 10)
  public ConfigMap createSeenByInformer(Cycling state) {
    return state.cluster.createAndAwait(++state.created);
  }

  /**
   * {@code n} creates, each awaited until the informer saw it.
   *
   * @param state the server
   * @return the last created ConfigMap
   */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @Warmup(iterations = 1)
  @Measurement(iterations = 3)
  public ConfigMap nCreatesSeenByInformer(PerShot state) {
    long start = System.nanoTime();
    ConfigMap last = null;
    for (int i = 1; i <= state.n; i++) {
      last = state.cluster.createAndAwait(i);
    }
    MeasuredFigures.record("createsPerSecond", state.n * 1e9 / (System.nanoTime() - start), "ops/s");
    return last;
  }
}
