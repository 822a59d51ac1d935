package dev.ctk.envtest.internal;

import io.fabric8.kubernetes.client.Config;

/**
 * A started container-mode API server, as {@code ContainerApiServer} sees it. Its signature holds
 * no Testcontainers or docker-java type, so {@code ContainerApiServer} can load without
 * Testcontainers on the classpath; {@link ContainerClusters#start} makes one.
 *
 * <pre>{@code
 * ContainerCluster cluster = ContainerClusters.start(spec, new ContainerStart());
 * Config admin = cluster.clientConfig();
 * cluster.close();
 * }</pre>
 */
public interface ContainerCluster extends AutoCloseable {

  /**
   * The URL that reaches the API server from this JVM.
   *
   * @return e.g. {@code https://localhost:32771}
   */
  String url();

  /**
   * A new admin client configuration.
   *
   * @return the configuration
   */
  Config clientConfig();

  /**
   * An admin kubeconfig with one context.
   *
   * @return the YAML
   */
  String kubeconfig();

  /**
   * The server's gitVersion.
   *
   * @return e.g. {@code v1.20.2}
   */
  String version();

  /**
   * What runs where, for logs.
   *
   * @return one line
   */
  String description();

  /**
   * Whether garbage collection and namespace deletion happen.
   *
   * @return true for k3s
   */
  boolean runsClusterControllers();

  /** Removes the containers and the network; idempotent, never throws. */
  @Override
  void close();
}
