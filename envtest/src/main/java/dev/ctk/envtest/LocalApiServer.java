package dev.ctk.envtest;

import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.internal.AssetsSearch;
import dev.ctk.envtest.internal.ControllerManagerBinary;
import dev.ctk.envtest.internal.FlagList;
import dev.ctk.envtest.internal.HostEnvironment;
import dev.ctk.envtest.internal.LocalControlPlane;
import dev.ctk.envtest.internal.LocalFlags;
import dev.ctk.envtest.internal.ShutdownHook;
import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.client.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * etcd and kube-apiserver run from local binaries as children of this JVM, the way
 * controller-runtime's envtest runs them: found as {@link EnvtestAssets} describes, on free ports
 * of {@code 127.0.0.1}, in a private temporary folder, ready when {@code /readyz} says {@code ok}
 * and namespace {@code default} exists.
 *
 * <pre>{@code
 * try (LocalApiServer server = LocalApiServer.builder().withVersion("1.20").build().start();
 *      KubernetesClient client = server.newClient()) {
 *   client.configMaps().resource(configMap).create();
 * }
 * }</pre>
 *
 * <p><b>Identity and TLS.</b> Clients act as user {@code admin} in group {@code system:masters}
 * with a random bearer token (no client certificate). kube-apiserver generates its own serving
 * certificate in its {@code --cert-dir}; clients trust exactly that certificate (no {@code
 * trustCerts}, no openssl needed). It names {@code 127.0.0.1}, not {@code localhost}, so {@link
 * #url()} is {@code https://127.0.0.1:<port>}.
 *
 * <p><b>Never a process left behind.</b> {@link #close()} sends TERM to kube-apiserver, then to
 * etcd, and KILL to whichever still runs after the stop timeout (10 s). A JVM shutdown hook closes
 * servers that were not closed. If the JVM itself is killed (SIGKILL, a crash), a watchdog shell
 * beside each binary notices within a second and stops it (TERM, KILL 3 s later); this needs a
 * POSIX {@code /bin/sh}, so local binaries run on Linux and macOS only.
 *
 * <p>Limits: a bare API server runs no controllers ({@link #runsClusterControllers()} is {@code
 * false}: no garbage collection, namespaces never finish deleting, no service-account tokens) unless
 * {@link Builder#withControllerManager()} adds the garbage collector and the namespace controller; the
 * admission plugin {@code ServiceAccount} is off. Startup costs about 5-7 s (etcd under a second).
 *
 * @since 0.1.0
 */
public final class LocalApiServer implements ApiServer {

  private static final Logger LOG = LoggerFactory.getLogger(LocalApiServer.class);

  private enum State {
    NEW,
    STARTING,
    RUNNING,
    CLOSED
  }

  private final Settings settings;
  private volatile State state = State.NEW;
  private volatile boolean closeRequested;
  private volatile EnvtestAssets assets;
  private volatile LocalControlPlane plane;

  private LocalApiServer(Settings settings) {
    this.settings = settings;
  }

  private record Settings(
      Path assetsDirectory,
      String version,
      Duration startTimeout,
      Duration stopTimeout,
      List<String> apiServerFlags,
      List<String> etcdFlags,
      int securePort,
      int logLines,
      boolean controllerManager,
      HostEnvironment host) {}

  /**
   * A builder with the defaults: any version, a start timeout of 60 s, a free secure port, the
   * last 50 log lines in failure messages.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Finds the binaries, starts etcd and kube-apiserver and waits until the API server is ready.
   * On any failure everything started so far is stopped before the exception leaves, and the
   * server is closed (build a new one to try again).
   *
   * @return this server
   * @throws EnvtestException when the binaries are missing, a process exits, a port is taken or
   *     the start timeout passes; the message holds the last log lines and the fix
   * @throws IllegalStateException when called twice or after {@link #close()}
   */
  public synchronized LocalApiServer start() {
    if (state != State.NEW) {
      throw new IllegalStateException(
          "LocalApiServer.start() cannot run: the server is "
              + (state == State.CLOSED ? "closed" : "already running")
              + ". Build a new server with LocalApiServer.builder() to start another one.");
    }
    long startNanos = System.nanoTime();
    state = State.STARTING;
    try {
      assets = EnvtestAssets.find(settings.assetsDirectory, settings.version, settings.host);
      ShutdownHook.register(this);
      plane =
          new LocalControlPlane(
              new LocalControlPlane.Options(
                  assets.etcd(),
                  assets.kubeApiServer(),
                  settings.startTimeout,
                  settings.stopTimeout,
                  settings.apiServerFlags,
                  settings.etcdFlags,
                  settings.securePort,
                  settings.logLines,
                  settings.controllerManager
                      ? ControllerManagerBinary.beside(assets.kubeApiServer(), assets.version()) : null),
              () -> closeRequested);
      plane.start(startNanos);
    } catch (RuntimeException | Error e) {
      try {
        stopAndClean();
      } catch (RuntimeException stopFailure) {
        e.addSuppressed(stopFailure);
      }
      throw e;
    }
    state = State.RUNNING;
    LOG.info(
        "started {} in {} (etcd healthy after {}; binaries from {})",
        description(),
        DurationText.since(startNanos),
        plane.etcdHealthyAfter(),
        assets.foundIn());
    return this;
  }

  /** Process ids of all binaries started so far (etcd first), for tests. */
  List<Long> processIds() {
    LocalControlPlane current = plane;
    return current == null ? List.of() : current.startedPids();
  }

  /** The temporary work folder, or null before start, for tests. */
  Path workDirectory() {
    LocalControlPlane current = plane;
    return current == null ? null : current.workDirectory();
  }

  @Override
  public Config clientConfig() {
    requireRunning("clientConfig()");
    return plane.credentials().clientConfig(plane.url(), plane.caCertPem());
  }

  @Override
  public String url() {
    requireRunning("url()");
    return plane.url();
  }

  @Override
  public String kubeconfig() {
    requireRunning("kubeconfig()");
    return plane.credentials().kubeconfig(plane.url(), plane.caCertPem(), "ctk-envtest");
  }

  @Override
  public String version() {
    requireRunning("version()");
    return plane.version();
  }

  @Override
  public String description() {
    LocalControlPlane current = plane;
    String url = current == null ? null : current.url();
    String version = current == null ? null : current.version();
    String where = assets == null ? "" : " (" + assets.directory() + ")";
    String at = url == null ? " (not started)" : " at " + url;
    String v = version == null ? "" : " " + version;
    return "local kube-apiserver" + v + where + at;
  }

  /**
   * The first of etcd, kube-apiserver and kube-controller-manager that has exited since the server started, with
   * its exit code, run time and last log lines.
   *
   * @return the reason, or empty while all run (and before start, and after close)
   */
  @Override
  public synchronized Optional<String> exited() {
    return state == State.RUNNING ? plane.exited() : Optional.empty();
  }

  /**
   * {@code false}: a bare kube-apiserver runs no garbage collector and no namespace controller.
   *
   * @return {@code false}
   */
  @Override
  public boolean runsClusterControllers() {
    return settings.controllerManager;
  }

  /**
   * Stops kube-apiserver, then etcd (TERM, KILL after the stop timeout), and deletes the work
   * folder. Idempotent; a server never started is just marked closed. Called while {@link
   * #start()} runs in another thread, it makes that start fail at its next poll and then waits
   * for it to clean up.
   *
   * @throws EnvtestException when a process survives even KILL (the message names its pid)
   */
  @Override
  public void close() {
    closeRequested = true; // a start() in progress sees it at its next poll and gives up
    synchronized (this) {
      if (state == State.CLOSED) {
        return;
      }
      boolean wasRunning = state == State.RUNNING;
      long stopNanos = System.nanoTime();
      stopAndClean();
      if (wasRunning) {
        LOG.info("stopped {} in {}", description(), DurationText.since(stopNanos));
      }
    }
  }

  private void stopAndClean() {
    state = State.CLOSED;
    try {
      if (plane != null) {
        plane.stop();
      }
    } finally {
      ShutdownHook.deregister(this);
    }
  }

  private void requireRunning(String method) {
    if (state != State.RUNNING) {
      throw new IllegalStateException(
          "LocalApiServer."
              + method
              + " needs a running server, but it is "
              + (state == State.CLOSED ? "closed" : "not started: call start() first")
              + ".");
    }
  }

  @Override
  public String toString() {
    return description();
  }

  /**
   * Settings of a {@link LocalApiServer}; {@link #build()} may be called once.
   *
   * <pre>{@code
   * LocalApiServer server = LocalApiServer.builder()
   *     .withVersion("1.20")
   *     .withStartTimeout(Duration.ofSeconds(90))
   *     .withApiServerFlags("--v=4")
   *     .build();
   * }</pre>
   *
   * @since 0.1.0
   */
  public static final class Builder {

    private Path assetsDirectory;
    private String version;
    private Duration startTimeout = Duration.ofSeconds(60);
    private Duration stopTimeout = Duration.ofSeconds(10);
    private final List<String> apiServerFlags = new ArrayList<>();
    private final List<String> etcdFlags = new ArrayList<>();
    private int securePort;
    private int logLines = 50;
    private boolean controllerManager;
    private HostEnvironment host = HostEnvironment.current();
    private boolean built;

    private Builder() {}

    /**
     * A folder holding {@code kube-apiserver} and {@code etcd}, searched before every other place.
     *
     * @param directory the folder
     * @return this builder
     */
    public Builder withAssetsDirectory(Path directory) {
      this.assetsDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /**
     * The wanted version: {@code 1.20} (highest 1.20.x found), {@code 1.20.x}, or {@code 1.20.2}.
     *
     * @param version the version
     * @return this builder
     * @throws IllegalArgumentException when it is not a version
     */
    public Builder withVersion(String version) {
      AssetsSearch.parseWanted(Objects.requireNonNull(version, "version"));
      this.version = version;
      return this;
    }

    /**
     * How long {@link LocalApiServer#start()} may take in all (default 60 s).
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder withStartTimeout(Duration timeout) {
      this.startTimeout = positive("withStartTimeout", timeout);
      return this;
    }

    /**
     * Extra kube-apiserver flags, each one {@code --name=value} string; a flag replaces ctk's flag
     * of the same name, and a later call's flag an earlier one. Flags that ctk needs to own (such
     * as {@code --secure-port}, {@code --etcd-servers}, {@code --cert-dir}, {@code
     * --token-auth-file}) are refused.
     *
     * @param flags the flags
     * @return this builder
     * @throws IllegalArgumentException for a malformed or refused flag
     */
    public Builder withApiServerFlags(String... flags) {
      List<String> list = Arrays.asList(flags);
      FlagList.check("withApiServerFlags", list, LocalFlags.API_SERVER_OWNED);
      apiServerFlags.addAll(list);
      return this;
    }

    /**
     * Extra etcd flags, as {@link #withApiServerFlags}; ctk owns the data folder and the URLs.
     *
     * @param flags the flags
     * @return this builder
     * @throws IllegalArgumentException for a malformed or refused flag
     */
    public Builder withEtcdFlags(String... flags) {
      List<String> list = Arrays.asList(flags);
      FlagList.check("withEtcdFlags", list, LocalFlags.ETCD_OWNED);
      etcdFlags.addAll(list);
      return this;
    }

    /**
     * A fixed HTTPS port for kube-apiserver (default: a free port).
     *
     * @param port 1 to 65535
     * @return this builder
     */
    public Builder withSecurePort(int port) {
      if (port < 1 || port > 65_535) {
        throw new IllegalArgumentException(
            "withSecurePort(" + port + "): a TCP port is between 1 and 65535.");
      }
      this.securePort = port;
      return this;
    }

    /**
     * How many last log lines a startup failure message shows (default 50).
     *
     * @param lines at least 1
     * @return this builder
     */
    public Builder withLogLines(int lines) {
      if (lines < 1) {
        throw new IllegalArgumentException("withLogLines(" + lines + "): at least 1 line.");
      }
      this.logLines = lines;
      return this;
    }

    /**
     * Also starts {@code kube-controller-manager} from the folder of {@code kube-apiserver}, with only its
     * garbage-collector and namespace controllers, so that dependents of a deleted owner (and of an owner that
     * never existed) are collected and a deleted namespace is emptied and removed, as in a cluster. A bare
     * kube-apiserver does neither. {@code .ci/provision-envtest} builds the binary beside kube-apiserver where it
     * can; setup-envtest's archives do not have it.
     *
     * <pre>{@code
     * LocalApiServer server = LocalApiServer.builder().withVersion("1.37").withControllerManager().build().start();
     * }</pre>
     *
     * @return this builder
     * @since 0.1.0
     */
    public Builder withControllerManager() {
      this.controllerManager = true;
      return this;
    }

    Builder withStopTimeout(Duration timeout) {
      this.stopTimeout = positive("withStopTimeout", timeout);
      return this;
    }

    Builder withHost(HostEnvironment host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /**
     * The server, not started yet.
     *
     * @return a new server
     * @throws IllegalStateException on a second call
     */
    public LocalApiServer build() {
      if (built) {
        throw new IllegalStateException(
            "LocalApiServer.Builder.build() was already called; call LocalApiServer.builder()"
                + " again for another server.");
      }
      built = true;
      return new LocalApiServer(
          new Settings(
              assetsDirectory,
              version,
              startTimeout,
              stopTimeout,
              List.copyOf(apiServerFlags),
              List.copyOf(etcdFlags),
              securePort,
              logLines,
              controllerManager,
              host));
    }

    private static Duration positive(String method, Duration duration) {
      if (duration == null || duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException(
            method + "(" + duration + "): the duration must be positive.");
      }
      return duration;
    }
  }
}
