package dev.ctk.benchmarks;

import dev.ctk.benchmarks.floor.EchoApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
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
 *   <li>{@link #list10kConfigMapsFloor}: the same LIST from a server that answers the bytes ctk's fake answered for
 *       those ConfigMaps, precomputed (the floor: fabric8's client alone).
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

  /**
   * The floor of {@link #list10kConfigMaps}: an {@link EchoApiServer} answering the exact bytes ctk's fake answered
   * for the same 10,000 ConfigMaps, so that only fabric8's client (request, transport, decoding) is timed.
   */
  @State(Scope.Thread)
  public static class Floor {

    private EchoApiServer server;
    private KubernetesClient client;

    /** Captures ctk's answer and starts the echo server with it (not timed). */
    @Setup(Level.Trial)
    public void load() {
      byte[] body;
      try (ClusterUnderTest ctk = Target.CTK_FAKE.start()) {
        for (int i = 1; i <= LISTED; i++) {
          ctk.store(ConfigMaps.numbered(i));
        }
        body = ctk.client().raw("/api/v1/namespaces/" + ctk.client().getNamespace() + "/configmaps")
            .getBytes(StandardCharsets.UTF_8);
      }
      server = EchoApiServer.start().answeringListsWith(body);
      client = server.newClient();
      int listed = client.configMaps().list().getItems().size();
      if (listed != LISTED) {
        throw new IllegalStateException("Expecting the floor to answer " + LISTED + " ConfigMaps but it listed "
            + listed + ": the captured answer of ctk's fake is not a list of them.");
      }
    }

    /** Stops it. */
    @TearDown(Level.Trial)
    public void stop() {
      client.close();
      server.close();
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
   * LIST the floor: the same answer, from precomputed bytes.
   *
   * @param state the floor
   * @return the list
   */
  @Benchmark
  public ConfigMapList list10kConfigMapsFloor(Floor state) {
    return state.client.configMaps().list();
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
