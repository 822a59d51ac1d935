package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;
import dev.ctk.envtest.values.EnvtestUnavailableException;
import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.Cluster;
import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One context of a kubeconfig file, checked when read: the file parses, the context exists (or
 * the file names a current one), and its cluster exists.
 *
 * <pre>{@code
 * KubeconfigFile kind = KubeconfigFile.read(Path.of("/home/me/.kube/config"), "kind-ctk", null);
 * kind.server();             // https://127.0.0.1:40123
 * kind.singleContextYaml();  // only kind-ctk, its cluster and user
 * }</pre>
 *
 * <p>Limits: one file, not the merge of every file in {@code KUBECONFIG} that kubectl performs.
 */
public final class KubeconfigFile {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final Path path;
  private final Config config;
  private final NamedContext context;
  private final NamedCluster cluster;

  private KubeconfigFile(Path path, Config config, NamedContext context, NamedCluster cluster) {
    this.path = path;
    this.config = config;
    this.context = context;
    this.cluster = cluster;
  }

  /**
   * Reads a context of a file.
   *
   * @param file the kubeconfig
   * @param contextName the context, or null for the current one
   * @param foundVia how the file was found (for messages), or null when it was given
   * @return the context
   * @throws EnvtestException if the file or the context cannot be used
   */
  public static KubeconfigFile read(Path file, String contextName, String foundVia) {
    Path absolute = file.toAbsolutePath().normalize();
    String origin = absolute + (foundVia == null ? "" : " (" + foundVia + ")");
    if (!Files.isRegularFile(absolute)) {
      throw new EnvtestUnavailableException(
          "kubeconfig "
              + absolute
              + " does not exist. Pass the file kubectl uses (kubectl config view --minify shows"
              + " the context) to ExistingCluster.fromKubeconfig(path, context) or the JUnit setting"
              + " ctk.kubeconfig, or run with -Dctk.mode=envtest for a local API server.");
    }
    Config config;
    try {
      config = SERIALIZATION.unmarshal(Files.readString(absolute), Config.class);
    } catch (IOException | RuntimeException e) {
      throw new EnvtestException(
          "kubeconfig " + origin + " cannot be read as a kubeconfig: " + Poll.describe(e)
              + ". Check it with kubectl --kubeconfig " + absolute + " config view.",
          e);
    }
    if (config == null) {
      throw new EnvtestException("kubeconfig " + origin + " is empty. Check it with kubectl config view.");
    }
    List<String> contextNames = new ArrayList<>();
    if (config.getContexts() != null) {
      config.getContexts().forEach(c -> contextNames.add(c.getName()));
    }
    String wanted = contextName != null ? contextName : config.getCurrentContext();
    if (wanted == null || wanted.isEmpty()) {
      throw new EnvtestUnavailableException(
          "kubeconfig "
              + origin
              + " has no current-context. Name one of "
              + contextNames
              + " with ExistingCluster.fromKubeconfig(path, \"<context>\") or"
              + " fromDefaultKubeconfig(\"<context>\"), or the JUnit settings ctk.kubeconfig /"
              + " ctk.kube-context; or kubectl config use-context <context>.");
    }
    NamedContext context =
        find(config.getContexts(), wanted)
            .orElseThrow(
                () ->
                    new EnvtestUnavailableException(
                        "kubeconfig "
                            + origin
                            + " has no context \""
                            + wanted
                            + "\"; it has "
                            + contextNames
                            + ". Pick one of those (kubectl config get-contexts lists them) in"
                            + " ExistingCluster.fromKubeconfig(path, context),"
                            + " fromDefaultKubeconfig(context) or the JUnit setting"
                            + " ctk.kube-context."));
    String clusterName = context.getContext() == null ? null : context.getContext().getCluster();
    NamedCluster cluster =
        config.getClusters() == null
            ? null
            : config.getClusters().stream()
                .filter(c -> c.getName().equals(clusterName))
                .findFirst()
                .orElse(null);
    if (cluster == null || cluster.getCluster() == null || cluster.getCluster().getServer() == null) {
      throw new EnvtestException(
          "kubeconfig "
              + origin
              + ": context \""
              + wanted
              + "\" names cluster \""
              + clusterName
              + "\", which the file does not define with a server. Fix the file (kubectl config"
              + " set-cluster).");
    }
    return new KubeconfigFile(absolute, config, context, cluster);
  }

  /**
   * A context (the current one when {@code contextName} is null) of the first existing file in
   * {@code KUBECONFIG}, else of {@code ~/.kube/config}.
   *
   * @param environment environment variables
   * @param home the user's home
   * @param contextName the context, or null for the file's current one
   * @return the context
   * @throws EnvtestException listing where it looked when no file exists, or if the context cannot
   *     be used
   */
  public static KubeconfigFile findDefault(
      Map<String, String> environment, Path home, String contextName) {
    String variable = environment.get("KUBECONFIG");
    List<String> looked = new ArrayList<>();
    if (variable != null && !variable.isBlank()) {
      List<String> states = new ArrayList<>();
      for (String entry : variable.split(File.pathSeparator)) {
        if (entry.isBlank()) {
          continue;
        }
        Path candidate = Path.of(entry);
        if (Files.isRegularFile(candidate)) {
          return read(candidate, contextName, "from KUBECONFIG");
        }
        states.add(entry + ": no such file");
      }
      looked.add("KUBECONFIG=" + variable + " (" + String.join(", ", states) + ")");
    } else {
      looked.add("KUBECONFIG=<unset>");
    }
    Path standard = home.resolve(".kube").resolve("config");
    if (Files.isRegularFile(standard)) {
      return read(standard, contextName, "~/.kube/config");
    }
    looked.add(standard + " (no such file)");
    throw new EnvtestUnavailableException(
        "No kubeconfig found. Looked in: "
            + String.join(", ", looked)
            + ". Set KUBECONFIG, pass a file to ExistingCluster.fromKubeconfig(path, context) or"
            + " the JUnit setting ctk.kubeconfig, or run with -Dctk.mode=envtest for a local API"
            + " server.");
  }

  /**
   * The file.
   *
   * @return the absolute path
   */
  public Path path() {
    return path;
  }

  /**
   * The context name.
   *
   * @return the name
   */
  public String context() {
    return context.getName();
  }

  /**
   * The cluster's server URL.
   *
   * @return the URL
   */
  public String server() {
    return cluster.getCluster().getServer();
  }

  /**
   * The file reduced to this context, its cluster and its user, as the current context, with
   * relative file paths made absolute (against the file's folder).
   *
   * @return the YAML
   */
  public String singleContextYaml() {
    Path folder = path.getParent();
    Config single = new Config();
    single.setApiVersion("v1");
    single.setKind("Config");
    NamedCluster clusterCopy = SERIALIZATION.clone(cluster);
    Cluster settings = clusterCopy.getCluster();
    settings.setCertificateAuthority(absolute(folder, settings.getCertificateAuthority()));
    single.setClusters(List.of(clusterCopy));
    single.setContexts(List.of(SERIALIZATION.clone(context)));
    String userName = context.getContext() == null ? null : context.getContext().getUser();
    List<NamedAuthInfo> users = new ArrayList<>();
    if (config.getUsers() != null) {
      config.getUsers().stream()
          .filter(u -> u.getName().equals(userName))
          .findFirst()
          .ifPresent(
              u -> {
                NamedAuthInfo copy = SERIALIZATION.clone(u);
                AuthInfo user = copy.getUser();
                if (user != null) {
                  user.setClientCertificate(absolute(folder, user.getClientCertificate()));
                  user.setClientKey(absolute(folder, user.getClientKey()));
                  user.setTokenFile(absolute(folder, user.getTokenFile()));
                }
                users.add(copy);
              });
    }
    single.setUsers(users);
    single.setCurrentContext(context.getName());
    return SERIALIZATION.asYaml(single);
  }

  private static String absolute(Path folder, String file) {
    if (file == null || file.isEmpty() || folder == null) {
      return file;
    }
    Path path = Path.of(file);
    return path.isAbsolute() ? file : folder.resolve(path).normalize().toString();
  }

  private static Optional<NamedContext> find(List<NamedContext> contexts, String name) {
    if (contexts == null) {
      return Optional.empty();
    }
    return contexts.stream().filter(c -> name.equals(c.getName())).findFirst();
  }
}
