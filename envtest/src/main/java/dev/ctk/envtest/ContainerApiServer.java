package dev.ctk.envtest;

import dev.ctk.envtest.internal.ContainerCluster;
import dev.ctk.envtest.internal.ContainerClusters;
import dev.ctk.envtest.internal.ContainerSpec;
import dev.ctk.envtest.internal.ContainerStart;
import dev.ctk.envtest.internal.FlagList;
import dev.ctk.envtest.values.EnvtestException;
import dev.ctk.envtest.values.EnvtestUnavailableException;
import io.fabric8.kubernetes.client.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A real API server in Docker containers, started through Testcontainers: etcd and kube-apiserver
 * in two containers on one private network (like a control-plane node), or one k3s container
 * that also runs the cluster's controllers.
 *
 * <pre>{@code
 * // offline: an image built on this machine from envtest binaries, no pull
 * try (ContainerApiServer server = ContainerApiServer.builder()
 *         .withLocalImage(Path.of(System.getenv("KUBEBUILDER_ASSETS")))
 *         .build()
 *         .start();
 *      KubernetesClient client = server.newClient()) {
 *   client.configMaps().resource(configMap).create();
 * }
 * }</pre>
 *
 * <p>The variants and what they need:
 *
 * <table>
 *   <caption>container variants</caption>
 *   <tr><th>variant</th><th>images</th><th>Docker needs</th><th>controllers</th></tr>
 *   <tr><td>{@link #builder()} (default)</td><td>{@value #DEFAULT_API_SERVER_IMAGE} and
 *       {@value #DEFAULT_ETCD_IMAGE}, pulled if missing</td><td>user-defined bridge networks,
 *       published ports, tmpfs</td><td>none (no GC, no namespace deletion); with {@link
 *       Builder#withControllerManager()}, a kube-controller-manager container with the garbage
 *       collector and the namespace controller</td></tr>
 *   <tr><td>{@link Builder#withLocalImage(Path)}</td><td>{@code ctk-envtest:<version>-<hash>},
 *       built {@code FROM scratch} from the kube-apiserver and etcd binaries of a folder (no
 *       registry needed)</td><td>as above, plus image builds</td><td>as above; {@code
 *       kube-controller-manager} from the same folder</td></tr>
 *   <tr><td>{@link #k3s()}</td><td>{@value #DEFAULT_K3S_IMAGE}, pulled if missing</td>
 *       <td>privileged containers, the host cgroup namespace, tmpfs</td><td>all of a cluster
 *       (GC, namespace deletion, ...)</td></tr>
 * </table>
 *
 * <p>Testcontainers ({@code org.testcontainers:testcontainers}) is an optional dependency of
 * ctk-envtest: add it (test scope, version from the ctk BOM) to use this class; without it {@link
 * #builder()} fails with a message saying so. Docker is found the way Testcontainers finds it
 * ({@code DOCKER_HOST}, {@code ~/.testcontainers.properties}, the default socket); on machines
 * that cannot pull Testcontainers' Ryuk image set {@code TESTCONTAINERS_RYUK_DISABLED=true}, and
 * where Testcontainers guesses the Docker host wrong (e.g. inside a container) set {@code
 * TESTCONTAINERS_HOST_OVERRIDE=localhost}.
 *
 * <p>Every container and the network carry the label {@code dev.ctk.envtest=true} and the labels
 * Testcontainers cleans up by: {@link #close()}, a failed start, and a JVM shutdown hook (also
 * during a pull or a start: what exists is removed) remove them; Ryuk, when enabled, removes them
 * after a crashed JVM. With Ryuk disabled, what a killed JVM left behind is removed at the next
 * container start on the same host. Thread-safe; {@link #close()} during {@link #start()} makes
 * the start give up and removes what it created.
 *
 * @since 0.1.0
 */
public final class ContainerApiServer implements ApiServer {

  /** The default kube-apiserver image. */
  public static final String DEFAULT_API_SERVER_IMAGE = "registry.k8s.io/kube-apiserver:v1.31.4";

  /** The default etcd image (the one kubeadm uses with Kubernetes 1.31). */
  public static final String DEFAULT_ETCD_IMAGE = "registry.k8s.io/etcd:3.5.15-0";

  /** The default k3s image. */
  public static final String DEFAULT_K3S_IMAGE = "rancher/k3s:v1.31.4-k3s1";

  private static final String TESTCONTAINERS_CLASS = "org.testcontainers.DockerClientFactory";
  private static final Set<ContainerApiServer> RUNNING = new LinkedHashSet<>();
  private static boolean hookAdded;

  private final ContainerSpec spec;
  private final Object startLock = new Object();
  private ContainerCluster cluster;
  private ContainerStart starting;
  private boolean closed;

  private ContainerApiServer(ContainerSpec spec) {
    this.spec = spec;
  }

  /**
   * A builder for etcd + kube-apiserver containers.
   *
   * @return a new builder
   * @throws EnvtestException if Testcontainers is not on the classpath
   */
  public static Builder builder() {
    requireTestcontainers();
    return new Builder(ContainerSpec.Variant.CONTROL_PLANE);
  }

  /**
   * A builder for one k3s container: a whole cluster whose controllers collect garbage and
   * delete namespaces ({@link #runsClusterControllers()} is {@code true}).
   *
   * @return a new builder
   * @throws EnvtestException if Testcontainers is not on the classpath
   */
  public static Builder k3s() {
    requireTestcontainers();
    return new Builder(ContainerSpec.Variant.K3S);
  }

  /**
   * Why container mode cannot run on this machine: Testcontainers missing from the classpath or
   * Docker not reachable. Does not check images. Never throws.
   *
   * <pre>{@code
   * ContainerApiServer.unavailableReason().ifPresent(reason -> Assumptions.abort(reason));
   * }</pre>
   *
   * @return the reason, or empty when Docker can be used
   */
  public static Optional<String> unavailableReason() {
    String missing = testcontainersMissing();
    if (missing != null) {
      return Optional.of(missing);
    }
    return Optional.ofNullable(ContainerClusters.unavailableReason());
  }

  /**
   * Starts the containers and waits until the API server is ready ({@code /readyz} and namespace
   * {@code default}); logs the cold start time at INFO. On failure nothing is left behind. The
   * JVM shutdown hook covers the start too: Ctrl-C or SIGTERM during a pull or a start removes what
   * exists; so does {@link #close()} from another thread, and the start then fails.
   *
   * @return this server
   * @throws EnvtestException if Docker is not reachable, an image is missing and cannot be pulled,
   *     a container exits while starting (with its exit code and last log lines), start-up takes
   *     longer than the start timeout, or {@link #close()} was called during the start
   * @throws IllegalStateException if the server was closed
   */
  public ContainerApiServer start() {
    synchronized (startLock) {
      ContainerStart progress;
      synchronized (this) {
        if (closed) {
          throw new IllegalStateException(
              "This ContainerApiServer was closed; build a new one with ContainerApiServer.builder().");
        }
        if (cluster != null) {
          return this;
        }
        requireTestcontainers();
        progress = new ContainerStart();
        starting = progress;
      }
      register(this);
      ContainerCluster started;
      try {
        started = ContainerClusters.start(spec, progress);
      } catch (RuntimeException | Error e) {
        synchronized (this) {
          starting = null;
        }
        unregister(this);
        throw e;
      }
      synchronized (this) {
        starting = null;
        if (!closed) {
          cluster = started;
          return this;
        }
      }
      started.close();
      unregister(this);
      progress.cancel();
      progress.throwIfCancelled();
      return this;
    }
  }

  @Override
  public Config clientConfig() {
    return running().clientConfig();
  }

  @Override
  public String url() {
    return running().url();
  }

  @Override
  public String kubeconfig() {
    return running().kubeconfig();
  }

  @Override
  public String version() {
    return running().version();
  }

  @Override
  public synchronized String description() {
    if (cluster != null) {
      return cluster.description();
    }
    return spec.variant() == ContainerSpec.Variant.K3S
        ? "k3s container (not started; image " + spec.k3sImage() + ")"
        : "kube-apiserver container (not started; "
            + (spec.localAssets() != null
                ? "local image from " + spec.localAssets()
                : "image " + spec.apiServerImage() + ", etcd image " + spec.etcdImage())
            + (spec.controllerManager() && spec.localAssets() == null
                ? ", kube-controller-manager image " + spec.controllerManagerImage()
                : spec.controllerManager() ? ", with kube-controller-manager" : "")
            + ")";
  }

  @Override
  public boolean runsClusterControllers() {
    return spec.variant() == ContainerSpec.Variant.K3S || spec.controllerManager();
  }

  /**
   * Removes the containers and the network; during {@link #start()} (from another thread or the
   * JVM shutdown hook) removes what the start has created so far and makes it give up.
   * Idempotent; never throws.
   */
  @Override
  public void close() {
    ContainerCluster toClose;
    ContainerStart toCancel;
    synchronized (this) {
      closed = true;
      toClose = cluster;
      toCancel = starting;
    }
    if (toCancel != null) {
      toCancel.cancel();
    }
    if (toClose != null) {
      toClose.close();
    }
    unregister(this);
  }

  @Override
  public String toString() {
    return "ContainerApiServer[" + description() + "]";
  }

  private synchronized ContainerCluster running() {
    if (cluster == null) {
      throw new IllegalStateException(
          "This ContainerApiServer is not started: call start() first ("
              + description()
              + ").");
    }
    return cluster;
  }

  private static void register(ContainerApiServer server) {
    synchronized (RUNNING) {
      RUNNING.add(server);
      if (!hookAdded) {
        hookAdded = true;
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(ContainerApiServer::closeAllRunning, "ctk-container-shutdown"));
      }
    }
  }

  private static void unregister(ContainerApiServer server) {
    synchronized (RUNNING) {
      RUNNING.remove(server);
    }
  }

  private static void closeAllRunning() {
    List<ContainerApiServer> servers;
    synchronized (RUNNING) {
      servers = new ArrayList<>(RUNNING);
    }
    for (ContainerApiServer server : servers) {
      server.close();
    }
  }

  private static void requireTestcontainers() {
    String missing = testcontainersMissing();
    if (missing != null) {
      throw new EnvtestUnavailableException(missing);
    }
  }

  private static String testcontainersMissing() {
    try {
      Class.forName(TESTCONTAINERS_CLASS, false, ContainerApiServer.class.getClassLoader());
      return null;
    } catch (ClassNotFoundException | LinkageError e) {
      return "Container mode needs Testcontainers, which is not on the classpath (class "
          + TESTCONTAINERS_CLASS
          + " not found; ctk-envtest declares it optional). Add the dependency"
          + " org.testcontainers:testcontainers with test scope (the ctk-parent BOM pins its"
          + " version), or run with -Dctk.mode=envtest for local binaries.";
    }
  }

  /**
   * Collects the configuration of a {@link ContainerApiServer}; {@link #build()} once.
   *
   * <pre>{@code
   * ContainerApiServer server = ContainerApiServer.builder()
   *     .withApiServerImage("registry.k8s.io/kube-apiserver:v1.30.8")
   *     .withEtcdImage("registry.k8s.io/etcd:3.5.15-0")
   *     .withStartTimeout(Duration.ofSeconds(90))
   *     .build();
   * }</pre>
   *
   * @since 0.1.0
   */
  public static final class Builder {

    private ContainerSpec.Variant variant;
    private String apiServerImage = DEFAULT_API_SERVER_IMAGE;
    private String etcdImage = DEFAULT_ETCD_IMAGE;
    private String k3sImage = DEFAULT_K3S_IMAGE;
    private boolean controlPlaneImageChosen;
    private Path localAssets;
    private boolean controllerManager;
    private String controllerManagerImage;
    private Duration startTimeout;
    private Duration pullTimeout = Duration.ofMinutes(5);
    private final List<String> apiServerFlags = new ArrayList<>();
    private int logLines = 50;
    private boolean built;

    private Builder(ContainerSpec.Variant variant) {
      this.variant = variant;
    }

    /**
     * The kube-apiserver image (default {@value ContainerApiServer#DEFAULT_API_SERVER_IMAGE}).
     * The binary must be at {@code /usr/local/bin/kube-apiserver}, as in the registry.k8s.io
     * images.
     *
     * @param image an image reference
     * @return this builder
     */
    public Builder withApiServerImage(String image) {
      this.apiServerImage = requireText(image, "withApiServerImage");
      this.controlPlaneImageChosen = true;
      return this;
    }

    /**
     * The etcd image (default {@value ContainerApiServer#DEFAULT_ETCD_IMAGE}); the binary must be
     * at {@code /usr/local/bin/etcd}.
     *
     * @param image an image reference
     * @return this builder
     */
    public Builder withEtcdImage(String image) {
      this.etcdImage = requireText(image, "withEtcdImage");
      this.controlPlaneImageChosen = true;
      return this;
    }

    /**
     * Runs k3s from {@code image} instead of etcd + kube-apiserver (default {@value
     * ContainerApiServer#DEFAULT_K3S_IMAGE}).
     *
     * @param image an image reference
     * @return this builder
     */
    public Builder withK3sImage(String image) {
      this.k3sImage = requireText(image, "withK3sImage");
      this.variant = ContainerSpec.Variant.K3S;
      return this;
    }

    /**
     * Builds the image on this machine, with no registry, from the {@code kube-apiserver} and
     * {@code etcd} binaries in {@code assetsDirectory} (a setup-envtest folder such as {@code
     * ~/.local/share/kubebuilder-envtest/k8s/1.31.0-linux-amd64}) and the shared libraries
     * {@code ldd} lists for them; reuses it while it exists. The binaries must be Linux
     * executables for the Docker engine's CPU.
     *
     * @param assetsDirectory the folder with the binaries
     * @return this builder
     */
    public Builder withLocalImage(Path assetsDirectory) {
      this.localAssets = Objects.requireNonNull(assetsDirectory, "assetsDirectory");
      return this;
    }

    /**
     * Also runs kube-controller-manager in a third container, with only its garbage collector and
     * namespace controller (as {@code LocalApiServer.Builder.withControllerManager()} does
     * locally): owned objects are collected, a deleted namespace is emptied and removed, and
     * {@link ContainerApiServer#runsClusterControllers()} is {@code true}. Its image is the local
     * image with {@link #withLocalImage(Path)} (then {@code kube-controller-manager} must sit in
     * that folder, of the same version), else {@link #withControllerManagerImage(String)}, by
     * default the kube-apiserver image's tag of {@code registry.k8s.io/kube-controller-manager}.
     *
     * <pre>{@code
     * ContainerApiServer server = ContainerApiServer.builder()
     *     .withLocalImage(assets).withControllerManager().build().start();
     * }</pre>
     *
     * @return this builder
     */
    public Builder withControllerManager() {
      this.controllerManager = true;
      return this;
    }

    /**
     * The kube-controller-manager image for {@link #withControllerManager()} (implied by this
     * call); the binary must be at {@code /usr/local/bin/kube-controller-manager}, as in the
     * registry.k8s.io images.
     *
     * @param image an image reference
     * @return this builder
     */
    public Builder withControllerManagerImage(String image) {
      this.controllerManagerImage = requireText(image, "withControllerManagerImage");
      this.controllerManager = true;
      return this;
    }

    private String controllerManagerImage() {
      if (!controllerManager) {
        return null;
      }
      if (controllerManagerImage != null) {
        return controllerManagerImage;
      }
      return localAssets != null ? ContainerSpec.LOCAL_IMAGE
          : apiServerImage.replaceFirst("kube-apiserver(?=[:@]|$)", "kube-controller-manager");
    }

    /**
     * How long start-up may take once the images are present (default 60s; 120s for k3s).
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder withStartTimeout(Duration timeout) {
      this.startTimeout = requirePositive(timeout, "withStartTimeout");
      return this;
    }

    /**
     * How long pulling one missing image may take (default 5 minutes).
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder withPullTimeout(Duration timeout) {
      this.pullTimeout = requirePositive(timeout, "withPullTimeout");
      return this;
    }

    /**
     * Extra kube-apiserver flags ({@code --name=value}); one with the same name as a default
     * replaces it. For k3s each is passed as {@code --kube-apiserver-arg}.
     *
     * @param flags the flags
     * @return this builder
     * @throws IllegalArgumentException for a malformed flag, or one that ctk owns ({@code
     *     --etcd-servers}, {@code --secure-port}, {@code --bind-address}, {@code --cert-dir},
     *     {@code --token-auth-file})
     */
    public Builder withApiServerFlags(String... flags) {
      List<String> list = Arrays.asList(flags);
      FlagList.check("withApiServerFlags", list, ContainerSpec.API_SERVER_OWNED);
      apiServerFlags.addAll(list);
      return this;
    }

    /**
     * How many last log lines a start-up failure message shows (default 50).
     *
     * @param lines at least 1
     * @return this builder
     */
    public Builder withLogLines(int lines) {
      if (lines < 1) {
        throw new IllegalArgumentException("withLogLines: at least 1, got " + lines);
      }
      this.logLines = lines;
      return this;
    }

    /**
     * The configured, not yet started server.
     *
     * @return the server; call {@link ContainerApiServer#start()}
     * @throws IllegalStateException if called twice, or if k3s is combined with control-plane
     *     images or a local image
     * @throws EnvtestException if the local image's folder does not exist
     */
    public ContainerApiServer build() {
      if (built) {
        throw new IllegalStateException(
            "build() was already called on this builder; start a new one with"
                + " ContainerApiServer.builder().");
      }
      if (variant == ContainerSpec.Variant.K3S && (localAssets != null || controlPlaneImageChosen)) {
        throw new IllegalStateException(
            "k3s runs from one image: it cannot be combined with "
                + (localAssets != null ? "withLocalImage(..)" : "withApiServerImage/withEtcdImage")
                + ". Use ContainerApiServer.builder() for etcd + kube-apiserver containers.");
      }
      if (variant == ContainerSpec.Variant.K3S && controllerManager) {
        throw new IllegalStateException(
            "k3s runs its own controllers: withControllerManager() is for ContainerApiServer.builder()'s"
                + " etcd + kube-apiserver containers. Drop it (k3s already collects garbage and"
                + " deletes namespaces).");
      }
      if (localAssets != null && controllerManagerImage != null) {
        throw new IllegalStateException(
            "withControllerManagerImage(..) and withLocalImage(..) both choose where"
                + " kube-controller-manager comes from; with a local image it is the folder's"
                + " kube-controller-manager. Drop one of them.");
      }
      if (localAssets != null && !Files.isDirectory(localAssets)) {
        throw new EnvtestException(
            "withLocalImage("
                + localAssets
                + "): the folder does not exist. Point it at a folder with kube-apiserver and"
                + " etcd for Linux (KUBEBUILDER_ASSETS, or what .ci/provision-envtest printed).");
      }
      built = true;
      Duration timeout =
          startTimeout != null
              ? startTimeout
              : Duration.ofSeconds(variant == ContainerSpec.Variant.K3S ? 120 : 60);
      return new ContainerApiServer(
          new ContainerSpec(
              variant,
              apiServerImage,
              etcdImage,
              k3sImage,
              localAssets == null ? null : localAssets.toAbsolutePath().normalize(),
              controllerManagerImage(),
              timeout,
              pullTimeout,
              apiServerFlags,
              logLines));
    }

    private static String requireText(String value, String option) {
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(option + ": an image reference is required, got " + value);
      }
      return value;
    }

    private static Duration requirePositive(Duration value, String option) {
      if (value == null || value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(option + ": a positive duration is required, got " + value);
      }
      return value;
    }
  }
}
