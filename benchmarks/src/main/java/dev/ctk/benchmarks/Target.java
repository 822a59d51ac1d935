package dev.ctk.benchmarks;

import dev.ctk.benchmarks.floor.EchoApiServer;
import dev.ctk.benchmarks.floor.HttpEchoApiServer;
import dev.ctk.fake.ClientTransport;
import dev.ctk.fake.FakeCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The in-JVM API servers the benchmarks compare, each started fresh and empty, with a fabric8 7.8.0 client bound to
 * it: ctk's fake through its default client transport ({@link #CTK_FAKE}) and explicitly over loopback HTTP
 * ({@link #CTK_FAKE_HTTP}), and fabric8's CRUD mock over loopback HTTP ({@link #FABRIC8_CRUD_MOCK}). All three use
 * the same fabric8 client stack above the HTTP layer (serialization, informers, retries, interceptors).
 *
 * <p>A fourth, {@link #FABRIC8_CLIENT_FLOOR}, is no API server: a server that does almost no work, under that same
 * client stack, to measure the floor any fake used through fabric8's client and informer stands on; its variants
 * {@link #FABRIC8_CLIENT_FLOOR_HANDOFF} (events on a delivery thread) and {@link #FABRIC8_CLIENT_FLOOR_KUBE_OBJECTS}
 * (the same, with the metadata kube adds to a created object) are the floors of a fake that delivers as ctk does and
 * of one that also answers as kube does, and {@link #FABRIC8_CLIENT_FLOOR_HTTP} is the last over loopback HTTP, the
 * floor of a fake reached as {@link #CTK_FAKE_HTTP} is. They store nothing, so only {@code WriteToInformerBenchmark}
 * accepts them; the other benchmarks refuse them at setup ({@link #requireObjectStore(Class)}).
 *
 * <pre>{@code
 * try (ClusterUnderTest cluster = Target.CTK_FAKE.start()) {
 *   cluster.client().configMaps().resource(ConfigMaps.numbered(1)).create();
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public enum Target {

  /**
   * ctk's {@link FakeCluster} as {@code FakeCluster.start()} builds it, on its default {@link ClientTransport}
   * ({@code IN_PROCESS}: requests and watches handed to the fake without a socket); its shared
   * client, namespace {@code default}.
   */
  CTK_FAKE {
    @Override
    public ClusterUnderTest start() {
      return fake(this, FakeCluster.builder());
    }
  },

  /**
   * ctk's {@link FakeCluster} with {@code withClientTransport(ClientTransport.HTTP)}: its shared client talks to the
   * fake's Vert.x listener on 127.0.0.1 over HTTP, as fabric8's mock is reached; namespace {@code default}.
   */
  CTK_FAKE_HTTP {
    @Override
    public ClusterUnderTest start() {
      return fake(this, FakeCluster.builder().withClientTransport(ClientTransport.HTTP));
    }
  },

  /**
   * fabric8's {@code KubernetesMockServer} in CRUD mode ({@code KubernetesMixedDispatcher}, as
   * {@code @EnableKubernetesMockClient(crud = true)} builds it) over plain HTTP, its {@code createClient()},
   * namespace {@code test}.
   */
  FABRIC8_CRUD_MOCK {
    @Override
    @SuppressWarnings("deprecation")  // Serialization.jsonMapper(): what fabric8's own mock extension passes
    public ClusterUnderTest start() {
      QuietMockLog.apply();
      Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
      KubernetesMockServer server = new KubernetesMockServer(new Context(Serialization.jsonMapper()),
          new MockWebServer(), responses, new KubernetesMixedDispatcher(responses), false);
      server.init();
      KubernetesClient client = server.createClient();
      return new ClusterUnderTest(this, client, null, () -> {
        client.close();
        server.destroy();
      });
    }
  },

  /**
   * fabric8's client and informer against a server that does no work: an {@link EchoApiServer} (no socket; an empty
   * list; a create answered with its own body plus a resourceVersion and sent as ADDED to every watch on the
   * writer's thread before the answer), its {@code newClient()}, namespace {@code default}. What it measures is
   * fabric8's client (request building, interceptors, serialization of the request, deserialization of the
   * answer), fabric8's informer (event decoding, store update, handler dispatch on fabric8's executor) and the
   * thread hand-offs back to the waiting writer; the server's share is about zero. It is not a Kubernetes API
   * server: it stores and checks nothing, so only {@code WriteToInformerBenchmark} runs on it.
   */
  FABRIC8_CLIENT_FLOOR(false) {
    @Override
    public ClusterUnderTest start() {
      return echo(this, EchoApiServer.start());
    }
  },

  /**
   * {@link #FABRIC8_CLIENT_FLOOR} with one thread hand-off more: the echo server hands each ADDED event to the watches
   * on a delivery thread of its own ({@link EchoApiServer#startWithDeliveryThread()}) instead of the writer's, as a
   * real API server's watch events reach the client apart from the write's answer, and as ctk's fake delivers them
   * (so that an informer's cache lags the write as it does against kube). The floor of any fake that delivers that
   * way; its difference from {@link #FABRIC8_CLIENT_FLOOR} is what the hand-off costs.
   */
  FABRIC8_CLIENT_FLOOR_HANDOFF(false) {
    @Override
    public ClusterUnderTest start() {
      return echo(this, EchoApiServer.startWithDeliveryThread());
    }
  },

  /**
   * {@link #FABRIC8_CLIENT_FLOOR_HANDOFF} answering and announcing each create with the metadata kube adds: the echo
   * server splices in the {@code uid}, {@code creationTimestamp} and {@code managedFields} that ctk's fake gave the
   * benchmark's ConfigMap ({@link KubeMetadata}, captured once per JVM), so that fabric8's client decodes an object of
   * the size ctk and kube answer (twice per create: the answer and the event) instead of the request echoed. Its
   * difference from {@link #FABRIC8_CLIENT_FLOOR_HANDOFF} is what decoding kube's larger object costs the client;
   * ctk's difference from it is the fake's own work.
   */
  FABRIC8_CLIENT_FLOOR_KUBE_OBJECTS(false) {
    @Override
    public ClusterUnderTest start() {
      return echo(this, EchoApiServer.startWithDeliveryThread().answeringCreatesWithMetadata(KubeMetadata.fields()));
    }
  },

  /**
   * {@link #FABRIC8_CLIENT_FLOOR_KUBE_OBJECTS} over loopback HTTP ({@link HttpEchoApiServer}): the same answers and
   * events, from a Vert.x listener, to fabric8's Vert.x client on the client instance ctk's HTTP clients share, but
   * without a delivery thread (the event is written from the event loop that read the create). The floor of any fake
   * reached over HTTP, as {@link #CTK_FAKE_HTTP} reaches ctk's; its ratio to {@link
   * #FABRIC8_CLIENT_FLOOR_KUBE_OBJECTS} is what HTTP costs a fake that does no work (less that thread's hand-off).
   */
  FABRIC8_CLIENT_FLOOR_HTTP(false) {
    @Override
    public ClusterUnderTest start() {
      HttpEchoApiServer server = HttpEchoApiServer.start(KubeMetadata.fields());
      KubernetesClient client = server.newClient();
      return new ClusterUnderTest(this, client, null, () -> {
        client.close();
        server.close();
      });
    }
  };

  private final boolean storesObjects;

  Target() {
    this(true);
  }

  Target(boolean storesObjects) {
    this.storesObjects = storesObjects;
  }

  /**
   * Starts a fresh, empty server and a client for it.
   *
   * @return the running server; the caller closes it
   */
  public abstract ClusterUnderTest start();

  /**
   * Whether the server keeps what is written and serves it back, as an API server does: true of every target except
   * the floors ({@link #FABRIC8_CLIENT_FLOOR} and its variants).
   *
   * @return whether objects are stored
   */
  public boolean storesObjects() {
    return storesObjects;
  }

  /**
   * Refuses a target that stores nothing, for a benchmark whose result would be wrong on it (one that lists, reads,
   * updates or loads objects): called first in that benchmark's setup, so that it fails at once instead of timing
   * 404s or waiting for events that never come.
   *
   * @param benchmark the benchmark class, named in the message
   * @throws IllegalArgumentException when {@link #storesObjects()} is false
   */
  public void requireObjectStore(Class<?> benchmark) {
    if (!storesObjects()) {
      throw new IllegalArgumentException("Target " + name() + " cannot run " + benchmark.getSimpleName()
          + ": it is no API server (its echo server stores nothing: a list is always empty, a GET, update or delete "
          + "is 404), so only WriteToInformerBenchmark measures something true on it. Drop " + name()
          + " from -p target=... for " + benchmark.getSimpleName() + ", or select WriteToInformerBenchmark alone.");
    }
  }

  private static ClusterUnderTest fake(Target target, FakeCluster.Builder builder) {
    FakeCluster cluster = builder.build();
    return new ClusterUnderTest(target, cluster.client(), cluster, cluster::close);
  }

  /** An echo server and its client, closed together. */
  private static ClusterUnderTest echo(Target target, EchoApiServer server) {
    KubernetesClient client = server.newClient();
    return new ClusterUnderTest(target, client, null, () -> {
      client.close();
      server.close();
    });
  }

  /**
   * fabric8's mock logs one INFO line per request through java.util.logging to the console; at thousands of
   * requests per second that would time the console, not the server. Turned down to WARNING, once per JVM.
   */
  private static final class QuietMockLog {
    private static final Logger LOGGER = Logger.getLogger("io.fabric8.mockwebserver");

    static {
      LOGGER.setLevel(Level.WARNING);
    }

    static void apply() {
      // loading the class is the work
    }
  }
}
