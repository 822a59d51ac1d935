package dev.ctk.benchmarks;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A fresh {@link ClusterUnderTest} with {@code informers} synced ConfigMap informers on the client's namespace,
 * and the one write the benchmarks time: create a ConfigMap, then wait until every informer's handler saw it.
 *
 * <pre>{@code
 * try (InformedCluster cluster = InformedCluster.start(Target.CTK_FAKE, 1)) {
 *   cluster.createAndAwait(1);
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public final class InformedCluster implements AutoCloseable {

  private final ClusterUnderTest cluster;
  private final List<SharedIndexInformer<ConfigMap>> informers = new ArrayList<>();
  private final List<SeenConfigMaps> handlers = new ArrayList<>();

  private InformedCluster(ClusterUnderTest cluster) {
    this.cluster = cluster;
  }

  /**
   * Starts a fresh server of {@code target} and {@code informers} ConfigMap informers, each synced.
   *
   * @param target which server
   * @param informers how many informers (each its own list and watch)
   * @return the cluster; the caller closes it
   */
  public static InformedCluster start(Target target, int informers) {
    InformedCluster informed = new InformedCluster(target.start());
    try {
      for (int i = 1; i <= informers; i++) {
        SeenConfigMaps handler = new SeenConfigMaps("ConfigMap informer " + i + " of " + informers + " on "
            + target);
        informed.handlers.add(handler);
        informed.informers.add(informed.cluster.client().configMaps().inform(handler));  // blocks until synced
      }
      return informed;
    } catch (RuntimeException e) {
      informed.close();
      throw e;
    }
  }

  /**
   * The server and its client.
   *
   * @return the cluster
   */
  public ClusterUnderTest cluster() {
    return cluster;
  }

  /**
   * Creates the n-th ConfigMap and waits until every informer's handler saw its ADDED event.
   *
   * @param n the ConfigMap's number, unique in this cluster
   * @return the created ConfigMap, as the server answered
   */
  public ConfigMap createAndAwait(int n) {
    String name = ConfigMaps.name(n);
    List<CompletableFuture<Void>> added = new ArrayList<>(handlers.size());
    handlers.forEach(handler -> added.add(handler.expect(name)));
    ConfigMap created = cluster.client().configMaps().resource(ConfigMaps.named(name, n)).create();
    for (int i = 0; i < handlers.size(); i++) {
      handlers.get(i).await(name, added.get(i));
    }
    return created;
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
    cluster.close();
  }
}
