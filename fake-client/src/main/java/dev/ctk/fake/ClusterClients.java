package dev.ctk.fake;

import dev.ctk.fake.internal.FakeApiServer;
import dev.ctk.fake.internal.ObjectJson;
import dev.ctk.fake.internal.http.ListenException;
import dev.ctk.fake.internal.http.SharedVertx;
import dev.ctk.fake.internal.seed.SeedDocument;
import dev.ctk.fake.values.FakeClusterException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a {@link FakeCluster} makes its fabric8 clients and describes itself to other clients: the client
 * configuration, the kubeconfig, and the message when the HTTP listener cannot start; also the builder's seed
 * batch.
 *
 * <p>Every client it builds, on either transport and for every cluster, shares one JVM-wide
 * {@link KubernetesSerialization}: a fresh one per client would warm Jackson up again for each test. Its mapper
 * settings and registered resource classes are therefore shared among those clients (and only them: the fake's own
 * conversions, {@link ObjectJson}, use another one).
 */
final class ClusterClients {

  private static final KubernetesSerialization CLIENT_SERIALIZATION = new KubernetesSerialization();

  private ClusterClients() {}


  /** A client over the given transport. */
  static KubernetesClient newClient(FakeApiServer server, ClientTransport transport, Config httpConfig) {
    KubernetesClientBuilder builder = new KubernetesClientBuilder()
        .withKubernetesSerialization(CLIENT_SERIALIZATION);
    if (transport == ClientTransport.HTTP) {
      return builder.withConfig(httpConfig).withHttpClientFactory(HttpClients.FACTORY).build();
    }
    return builder.withConfig(config(server.inProcess().masterUrl()))
        .withHttpClientFactory(server.inProcess().factory())
        .build();
  }

  /**
   * The settings of every client ctk makes, from {@link Config#empty()} so that no kubeconfig file, environment
   * variable or system property of the machine leaks in.
   */
  static Config config(String masterUrl) {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(masterUrl)
        .withNamespace("default")
        .withConnectionTimeout(5_000)
        .withRequestTimeout(10_000)
        .withRequestRetryBackoffLimit(0)
        .withRequestRetryBackoffInterval(100)
        .withWatchReconnectInterval(100)
        .withWatchReconnectLimit(-1)
        .withHttp2Disable(true)
        .build();
  }

  /** A kubeconfig naming the cluster, user and context {@value FakeCluster#CONTEXT}. */
  static String kubeconfig(String url) {
    return "apiVersion: v1\n"
        + "kind: Config\n"
        + "clusters:\n"
        + "- name: " + FakeCluster.CONTEXT + "\n"
        + "  cluster:\n"
        + "    server: " + url + "\n"
        + "users:\n"
        + "- name: " + FakeCluster.CONTEXT + "\n"
        + "  user: {}\n"
        + "contexts:\n"
        + "- name: " + FakeCluster.CONTEXT + "\n"
        + "  context:\n"
        + "    cluster: " + FakeCluster.CONTEXT + "\n"
        + "    user: " + FakeCluster.CONTEXT + "\n"
        + "    namespace: default\n"
        + "current-context: " + FakeCluster.CONTEXT + "\n"
        + "preferences: {}\n";
  }

  /** Writes a kubeconfig to a file (parent directories are created). */
  static Path write(Path file, String kubeconfig) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, kubeconfig, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new FakeClusterException("Cannot write the kubeconfig to " + file.toAbsolutePath() + ": " + e
          + ". Choose a writable path.", e);
    }
  }

  /** What a builder seeds, in order: its CRDs, its objects, then its files. */
  static List<SeedDocument> seed(ObjectJson json, List<CustomResourceDefinition> crds, List<HasMetadata> objects,
      List<List<SeedDocument>> files) {
    List<SeedDocument> seed = new ArrayList<>();
    for (int i = 0; i < crds.size(); i++) {
      seed.add(new SeedDocument("withCrds(..)", i + 1, 0, json.toJson(crds.get(i))));
    }
    for (int i = 0; i < objects.size(); i++) {
      seed.add(new SeedDocument("withObjects(..)", i + 1, 0, json.toJson(objects.get(i))));
    }
    files.forEach(seed::addAll);
    return seed;
  }

  /**
   * Starts the HTTP listener of a cluster if it is not running. A closed cluster does not start one: then
   * {@code false}, also when the cluster closes while this runs.
   *
   * @throws FakeClusterException when the listener cannot start
   */
  static boolean listening(FakeApiServer server, boolean clusterClosed) {
    if (server.httpStarted()) {
      return true;
    }
    if (clusterClosed) {
      return false;
    }
    try {
      server.startHttp();
      return true;
    } catch (ListenException e) {
      throw listenFailure(e);
    } catch (IllegalStateException e) {
      if (server.isClosed()) {
        return false; // close() won the race
      }
      throw e;
    }
  }

  /** The listener could not start: what, why, and the fix. */
  static FakeClusterException listenFailure(ListenException e) {
    boolean fake = SharedVertx.IN_USE_BY_A_FAKE.equals(e.getMessage());
    return new FakeClusterException("Cannot start the fake API server on " + e.host() + ":" + e.port() + ": "
        + e.getMessage() + (e.addressInUse()
            ? (fake ? ". Close that cluster first, or choose" : ". Another process holds that port. Choose")
                + " another port with withPort(..), or withPort(0) for a free one."
            : ". The host \"" + e.host() + "\" is not an address of this machine (or does not resolve). Choose "
                + "a local one with withHost(..): 127.0.0.1 (the default), localhost, or 0.0.0.0 for every "
                + "interface."), e);
  }

  /**
   * fabric8's Vert.x HTTP client on the JVM's shared client instance, so that a client starts no threads of its own;
   * made at the first HTTP client (a holder: in-process clients never create the instance).
   */
  private static final class HttpClients {
    static final HttpClient.Factory FACTORY = new VertxHttpClientFactory(SharedVertx.clients());
  }
}
