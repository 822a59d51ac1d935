package dev.ctk.envtest;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.Optional;

/**
 * A running, real Kubernetes API server that tests point clients at: local etcd + kube-apiserver
 * processes ({@link LocalApiServer}), the same two in containers ({@link ContainerApiServer}), or a
 * cluster that already exists ({@link ExistingCluster}).
 *
 * <pre>{@code
 * try (ApiServer server = LocalApiServer.builder().build().start();
 *      KubernetesClient client = server.newClient()) {
 *   client.namespaces().resource(namespace("demo")).create();
 * }
 * }</pre>
 *
 * <p>Implementations are thread-safe. {@link #close()} is idempotent and never leaves a process or a
 * container behind.
 *
 * @since 0.1.0
 */
public interface ApiServer extends AutoCloseable {

  /**
   * A new fabric8 client configuration with an identity that may do anything (member of {@code
   * system:masters}); each call returns a fresh, independently mutable object.
   *
   * @return the admin client configuration
   */
  Config clientConfig();

  /**
   * A new client built from {@link #clientConfig()}; the caller closes it.
   *
   * @return a new admin client
   */
  default KubernetesClient newClient() {
    return new KubernetesClientBuilder().withConfig(clientConfig()).build();
  }

  /**
   * The base URL of the API server, e.g. {@code https://127.0.0.1:40123}.
   *
   * @return the URL
   */
  String url();

  /**
   * A kubeconfig (YAML) with one context that reaches this server as admin, for kubectl and
   * non-Java clients.
   *
   * @return the kubeconfig text
   */
  String kubeconfig();

  /**
   * The server's {@code gitVersion} as {@code /version} reports it, e.g. {@code v1.20.2}.
   *
   * @return the version
   */
  String version();

  /**
   * One line that says what this server is, for logs and failure messages, e.g. {@code local
   * kube-apiserver v1.20.2 (/home/me/.local/share/kubebuilder-envtest/k8s/1.20.2-linux-amd64) at
   * https://127.0.0.1:40123}.
   *
   * @return the description
   */
  String description();

  /**
   * Whether controllers of a full cluster run beside the API server: the garbage collector
   * (ownerReference cascading deletion) and the namespace controller (a deleted namespace empties
   * and disappears). {@code false} for a bare kube-apiserver (local binaries and the
   * apiserver + etcd containers), {@code true} for local binaries started with {@code
   * withControllerManager()}, for k3s and usually for an existing cluster.
   *
   * @return whether garbage collection and namespace deletion happen
   */
  boolean runsClusterControllers();

  /**
   * Why this server no longer serves, when a process of it has exited since it started: which one, its exit code,
   * how long it ran and the last lines of its log. {@link SharedApiServers} asks before handing a server out again,
   * so that later tests fail with this instead of "connection refused".
   *
   * @return the reason, or empty while it runs; always empty where ctk does not watch the server (containers, an
   *     existing cluster)
   */
  default Optional<String> exited() {
    return Optional.empty();
  }

  /** Stops the server (or, for an existing cluster, releases what this object holds). Idempotent. */
  @Override
  void close();
}
