package dev.ctk.benchmarks;

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
  };

  /**
   * Starts a fresh, empty server and a client for it.
   *
   * @return the running server; the caller closes it
   */
  public abstract ClusterUnderTest start();

  private static ClusterUnderTest fake(Target target, FakeCluster.Builder builder) {
    FakeCluster cluster = builder.build();
    return new ClusterUnderTest(target, cluster.client(), cluster, cluster::close);
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
