package dev.ctk.fake;

import dev.ctk.fake.internal.http.RequestJournal;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/** Test-only access to a cluster's internals from other test packages. */
public final class FakeClusterInternals {

  private FakeClusterInternals() {}

  /** The requests the cluster answered. */
  public static RequestJournal journal(FakeCluster cluster) {
    return cluster.server().journal();
  }

  /** A client with a test's own configuration, over the cluster's transport (its master URL is ignored in process). */
  public static KubernetesClient client(FakeCluster cluster, Config config) {
    KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(config);
    if (cluster.clientTransport() == ClientTransport.IN_PROCESS) {
      builder.withHttpClientFactory(cluster.httpClientFactory());
    }
    return builder.build();
  }
}
