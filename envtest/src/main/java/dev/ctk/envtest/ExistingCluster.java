package dev.ctk.envtest;

import dev.ctk.envtest.internal.KubeconfigFile;
import dev.ctk.envtest.internal.Poll;
import dev.ctk.envtest.values.EnvtestException;
import dev.ctk.envtest.values.EnvtestUnavailableException;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * A cluster that already runs somewhere (kind, minikube, a shared test cluster), reached through a
 * kubeconfig context, for suites that outgrow one machine or need a full cluster. Nothing is
 * started or stopped: {@link #close()} releases nothing remote. Give each test its own namespace
 * with {@link TestNamespaces}; the identity needs cluster-admin-like rights for that and for
 * CRDs.
 *
 * <pre>{@code
 * ApiServer cluster = ExistingCluster.fromKubeconfig(Path.of("/home/me/.kube/config"), "kind-ctk");
 * try (TestNamespaces namespaces = TestNamespaces.forServer(cluster);
 *      KubernetesClient client = cluster.newClient()) {
 *   String namespace = namespaces.create("WidgetTest#reconciles()");
 *   // ...
 * }
 * }</pre>
 *
 * <p>{@link #clientConfig()} is fabric8's {@code Config.fromKubeconfig} for the chosen context,
 * with nothing read from the environment or system properties. {@link #kubeconfig()} is the file
 * reduced to that context (its cluster and user), with relative file paths made absolute. {@link
 * #version()} asks the server ({@code /version}) on first use. {@link #runsClusterControllers()}
 * is {@code true} unless {@link #withClusterControllers(boolean)} says otherwise (e.g. for a bare
 * kube-apiserver someone else started). Immutable and thread-safe.
 *
 * @since 0.1.0
 */
public final class ExistingCluster implements ApiServer {

  private final KubeconfigFile file;
  private final boolean clusterControllers;
  private volatile String version;

  private ExistingCluster(KubeconfigFile file, boolean clusterControllers) {
    this.file = file;
    this.clusterControllers = clusterControllers;
  }

  /**
   * A context of a kubeconfig file.
   *
   * @param kubeconfig the file
   * @param context the context name, or {@code null} for the file's current context
   * @return the cluster
   * @throws EnvtestException if the file does not exist or cannot be parsed, or has no such
   *     context (the message lists the contexts it has)
   */
  public static ExistingCluster fromKubeconfig(Path kubeconfig, String context) {
    Objects.requireNonNull(kubeconfig, "kubeconfig");
    return new ExistingCluster(KubeconfigFile.read(kubeconfig, context, null), true);
  }

  /**
   * The current context of the first file in {@code KUBECONFIG} (a path list) that exists, or of
   * {@code ~/.kube/config}, as kubectl finds it (files are not merged).
   *
   * @return the cluster
   * @throws EnvtestException if no kubeconfig is found (the message lists where it looked) or it
   *     has no current context
   */
  public static ExistingCluster fromDefaultKubeconfig() {
    return fromDefaultKubeconfig((String) null);
  }

  /**
   * A named context of the first file in {@code KUBECONFIG} (a path list) that exists, or of
   * {@code ~/.kube/config} (files are not merged): a context without a path.
   *
   * <pre>{@code
   * ApiServer cluster = ExistingCluster.fromDefaultKubeconfig("kind-ctk");
   * }</pre>
   *
   * @param context the context name, or {@code null} for the file's current context
   * @return the cluster
   * @throws EnvtestException if no kubeconfig is found (the message lists where it looked), or it
   *     has no such context (the message lists the contexts it has), or no current context
   */
  public static ExistingCluster fromDefaultKubeconfig(String context) {
    return fromDefaultKubeconfig(System.getenv(), Path.of(System.getProperty("user.home")), context);
  }

  static ExistingCluster fromDefaultKubeconfig(Map<String, String> environment, Path home) {
    return fromDefaultKubeconfig(environment, home, null);
  }

  static ExistingCluster fromDefaultKubeconfig(
      Map<String, String> environment, Path home, String context) {
    return new ExistingCluster(KubeconfigFile.findDefault(environment, home, context), true);
  }

  /**
   * The same cluster, saying whether garbage collection and namespace deletion happen there.
   *
   * @param clusterControllers {@code false} for a bare kube-apiserver
   * @return a new instance
   */
  public ExistingCluster withClusterControllers(boolean clusterControllers) {
    return new ExistingCluster(file, clusterControllers);
  }

  /**
   * The kubeconfig file this cluster was read from.
   *
   * @return the path
   */
  public Path kubeconfigFile() {
    return file.path();
  }

  /**
   * The context used.
   *
   * @return the context name
   */
  public String context() {
    return file.context();
  }

  @Override
  public Config clientConfig() {
    return Config.fromKubeconfig(file.context(), new File(file.path().toString()));
  }

  @Override
  public String url() {
    return file.server();
  }

  @Override
  public String kubeconfig() {
    return file.singleContextYaml();
  }

  /**
   * Asks the server on first use.
   *
   * @return the server's gitVersion
   * @throws EnvtestUnavailableException if the server cannot be reached
   * @throws EnvtestException if it answers with an error (e.g. 401 with expired credentials)
   */
  @Override
  public String version() {
    String known = version;
    if (known != null) {
      return known;
    }
    Config probe = new ConfigBuilder(clientConfig()).withRequestRetryBackoffLimit(0).build();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(probe).build()) {
      known = client.getKubernetesVersion().getGitVersion();
    } catch (KubernetesClientException e) {
      if (e.getCode() > 0) {   // it answered, with an error (expired credentials, 403, 5xx): not to be skipped
        throw new EnvtestException(
            "The existing cluster of context \"" + file.context() + "\" (" + file.path() + ") at " + file.server()
                + " answered GET /version with " + e.getCode() + ": " + Poll.describe(e) + ". Check the "
                + "credentials of that context (kubectl --context " + file.context() + " version).",
            e);
      }
      throw unreachable(e);
    } catch (RuntimeException e) {
      throw unreachable(e);
    }
    version = known;
    return known;
  }

  private EnvtestUnavailableException unreachable(RuntimeException e) {
    return new EnvtestUnavailableException(
        "Could not reach the existing cluster of context \""
          + file.context()
          + "\" ("
          + file.path()
          + ") at "
          + file.server()
          + ": "
          + Poll.describe(e)
          + ". Check that the cluster runs and that kubectl --context "
          + file.context()
          + " version works.",
        e);
  }

  @Override
  public String description() {
    return "existing cluster, context \"" + file.context() + "\" (" + file.path() + ") at " + file.server();
  }

  @Override
  public boolean runsClusterControllers() {
    return clusterControllers;
  }

  /** Releases nothing remote: the cluster keeps running. */
  @Override
  public void close() {
    // nothing was started
  }

  @Override
  public String toString() {
    return "ExistingCluster[" + description() + "]";
  }
}
