package dev.ctk.benchmarks;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.TestNamespaces;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The per-test setup of benchmark 1 on a real, already running API server, as ctk's envtest modes isolate tests:
 * a fresh namespace, a client whose default namespace it is, one ConfigMap informer synced; then informer and
 * client closed and the namespace deleted (emptied and awaited on a bare kube-apiserver, as ctk does).
 *
 * <pre>{@code
 * RealServerSetup setup = new RealServerSetup(server);
 * setup.oneTest();
 * }</pre>
 *
 * @since 0.1.0
 */
public final class RealServerSetup implements AutoCloseable {

  private final ApiServer server;
  private final TestNamespaces namespaces;

  /**
   * Prepares tests on {@code server}, which the caller owns.
   *
   * @param server a started server
   */
  public RealServerSetup(ApiServer server) {
    this.server = server;
    this.namespaces = TestNamespaces.forServer(server);
  }

  /**
   * One test's setup and cleanup.
   *
   * @return the namespace the test had
   */
  public String oneTest() {
    String namespace = namespaces.create("RealServerSetup#oneTest");
    try {
      Config config = server.clientConfig();
      config.setNamespace(namespace);
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        SharedIndexInformer<ConfigMap> informer = client.configMaps().inform(new SeenConfigMaps(
            "ConfigMap informer in " + namespace + " on " + server.description()));
        informer.close();
      }
      return namespace;
    } finally {
      namespaces.delete(namespace);
    }
  }

  @Override
  public void close() {
    namespaces.close();
  }
}
