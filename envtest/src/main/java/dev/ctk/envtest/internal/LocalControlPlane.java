package dev.ctk.envtest.internal;

import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * etcd and kube-apiserver as child processes on {@code 127.0.0.1}, in a private work folder: the
 * start sequence (free ports, admin identity, etcd until healthy, kube-apiserver until its serving
 * certificate exists and it is ready), its failure messages, and the stop. Not thread-safe: its
 * owner serialises {@link #start} and {@link #stop}.
 *
 * <pre>{@code
 * LocalControlPlane plane = new LocalControlPlane(options, () -> closing);
 * plane.start(System.nanoTime());
 * Config admin = plane.credentials().clientConfig(plane.url(), plane.caCertPem());
 * plane.stop();
 * }</pre>
 */
public final class LocalControlPlane {

  /**
   * What to start and how.
   *
   * @param etcd the etcd binary
   * @param kubeApiServer the kube-apiserver binary
   * @param startTimeout the bound of the whole start
   * @param stopTimeout how long each process may take after TERM before it gets KILL
   * @param apiServerFlags extra kube-apiserver flags (already checked)
   * @param etcdFlags extra etcd flags (already checked)
   * @param securePort a fixed HTTPS port, or 0 for a free one
   * @param logLines how many last log lines a failure message shows
   * @param controllerManager the kube-controller-manager binary to start after the API server, or {@code null}
   */
  public record Options(
      Path etcd,
      Path kubeApiServer,
      Duration startTimeout,
      Duration stopTimeout,
      List<String> apiServerFlags,
      List<String> etcdFlags,
      int securePort,
      int logLines,
      Path controllerManager) {}

  private static final Logger LOG = LoggerFactory.getLogger(LocalControlPlane.class);
  private static final String HOST = "127.0.0.1";
  private static final String PORT_TAKEN = "address already in use";
  private static final int PORT_ATTEMPTS = 3;

  private final Options options;
  private final BooleanSupplier closeRequested;
  private final List<ChildProcess> processes = new CopyOnWriteArrayList<>();
  private final List<Long> startedPids = new CopyOnWriteArrayList<>();
  private volatile WorkDirectory work;
  /** Whether {@link #start} succeeded (and {@link #stop} has not run since). */
  private volatile boolean started;
  private volatile AdminCredentials credentials;
  private volatile String url;
  private volatile String caCertPem;
  private volatile String version;
  private volatile String etcdHealthyAfter;
  private volatile int[] pickedPorts;

  /**
   * A control plane, not started.
   *
   * @param options what to start
   * @param closeRequested true once the owner is being closed: a start in progress then gives up
   */
  public LocalControlPlane(Options options, BooleanSupplier closeRequested) {
    this.options = options;
    this.closeRequested = closeRequested;
  }

  /**
   * Starts both processes and waits until the API server is ready. When another process took a
   * picked free port before etcd or kube-apiserver bound it (the race that every free-port scheme
   * has), it tries again with new ports, three times in all; a taken secure port set with {@code
   * withSecurePort} is not tried again. On failure the caller must {@link #stop()}.
   *
   * @param startNanos when the start began ({@link System#nanoTime()}); the timeout counts from it
   * @throws EnvtestException with the failing process' exit code and last log lines, or on timeout
   */
  public void start(long startNanos) {
    for (int attempt = 1; ; attempt++) {
      try {
        startOnce(startNanos);
        started = true;
        return;
      } catch (PortTakenException e) {
        boolean fixedPort = options.securePort() > 0 && e.name.equals(AssetsSearch.KUBE_APISERVER);
        if (fixedPort || attempt == PORT_ATTEMPTS || closeRequested.getAsBoolean()) {
          throw new EnvtestException(e.getMessage() + "\n" + portTakenFix(e.name, fixedPort, attempt));
        }
        LOG.info("a port picked for {} was taken before it bound it; trying other ports", e.name);
        stop();
      }
    }
  }

  private void startOnce(long startNanos) {
    int[] ports = FreePorts.pick(3);
    pickedPorts = ports;
    int securePort = options.securePort() > 0 ? options.securePort() : ports[2];
    if (options.securePort() > 0 && !FreePorts.isFree(securePort)) {
      throw new EnvtestException(portInUseMessage(securePort));
    }
    work = WorkDirectory.create();
    Path dir = work.path();
    credentials = AdminCredentials.generate();
    credentials.writeTo(dir);
    url = "https://" + HOST + ":" + securePort;

    ChildProcess etcd =
        launch(
            AssetsSearch.ETCD,
            options.etcd(),
            FlagList.merge(
                LocalFlags.etcd(dir.resolve("etcd-data"), ports[0], ports[1]), options.etcdFlags()),
            dir.resolve("etcd.log"));
    EtcdHealth health = new EtcdHealth(ports[0]);
    Poll.until(
        "etcd at http://" + HOST + ":" + ports[0],
        options.startTimeout(),
        startNanos,
        () -> "GET /health never answered {\"health\":\"true\"}",
        health::check,
        this::throwIfAnyExited,
        etcd::describeLog);
    etcdHealthyAfter = DurationText.since(startNanos);
    LOG.debug("etcd (pid {}) healthy after {}", etcd.pid(), etcdHealthyAfter);

    Path certDir = dir.resolve("cert-dir");
    ChildProcess apiServer =
        launch(
            AssetsSearch.KUBE_APISERVER,
            options.kubeApiServer(),
            FlagList.merge(
                LocalFlags.apiServer(dir, certDir, securePort, ports[0], credentials),
                options.apiServerFlags()),
            dir.resolve("kube-apiserver.log"));
    Path certFile = certDir.resolve(ServingCertificate.FILE_NAME);
    String[] pem = new String[1];
    Poll.until(
        "kube-apiserver at " + url,
        options.startTimeout(),
        startNanos,
        () -> "it wrote no serving certificate to " + certFile,
        () -> {
          pem[0] = ServingCertificate.read(certFile);
          return pem[0] == null ? "no such file" : null;
        },
        this::throwIfAnyExited,
        apiServer::describeLog);
    ServingCertificate.requireName(pem[0], HOST, certFile);
    caCertPem = pem[0];
    version =
        Readiness.awaitReady(
            credentials.clientConfig(url, caCertPem),
            options.startTimeout(),
            startNanos,
            this::throwIfAnyExited,
            apiServer::describeLog);
    if (options.controllerManager() != null) {
      startControllerManager(dir, startNanos);
    }
  }

  private void startControllerManager(Path dir, long startNanos) {
    Path kubeconfig = dir.resolve("controller-manager.kubeconfig");
    try {
      Files.writeString(kubeconfig, credentials.kubeconfig(url, caCertPem, "ctk-envtest"));
    } catch (IOException e) {
      throw new EnvtestException("could not write " + kubeconfig + " for kube-controller-manager: " + e
          + ". Check that the temporary folder is writable and not full.", e);
    }
    int port = FreePorts.pick(1)[0];
    ChildProcess controllerManager =
        launch(
            ControllerManagerBinary.NAME,
            options.controllerManager(),
            LocalFlags.controllerManager(kubeconfig, dir.resolve("controller-manager-cert"), port),
            dir.resolve("kube-controller-manager.log"));
    ControllerManagerHealth health = new ControllerManagerHealth(port);
    Poll.until(
        "kube-controller-manager at https://" + HOST + ":" + port,
        options.startTimeout(),
        startNanos,
        () -> "GET /healthz never answered ok",
        health::check,
        this::throwIfAnyExited,
        controllerManager::describeLog);
    LOG.debug("kube-controller-manager (pid {}) healthy after {}", controllerManager.pid(),
        DurationText.since(startNanos));
  }

  private ChildProcess launch(String name, Path binary, List<String> flags, Path logFile) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(flags);
    LOG.debug("starting {}: {}", name, command);
    ChildProcess process = ChildProcess.start(name, command, logFile, options.logLines());
    processes.add(process);
    startedPids.add(process.pid());
    return process;
  }

  private void throwIfAnyExited() {
    if (closeRequested.getAsBoolean()) {
      throw new EnvtestException(
          "LocalApiServer.close() was called while the server was starting; start() gave up and"
              + " stopped what it had started.");
    }
    for (ChildProcess process : processes) {
      if (!process.isAlive()) {
        if (process.logContains(PORT_TAKEN)) {
          throw new PortTakenException(process.name(), exitHead(process));
        }
        throw new EnvtestException(
            exitHead(process)
                + "\nFix what its log says (flags given with withApiServerFlags(..) and"
                + " withEtcdFlags(..) are on its command line), or run with -Dctk.mode=fake.");
      }
    }
  }

  private String portTakenFix(String name, boolean fixedPort, int attempts) {
    if (fixedPort) {
      return "The secure port "
          + options.securePort()
          + " set with withSecurePort("
          + options.securePort()
          + ") or another port kube-apiserver needs was taken by another process: leave"
          + " withSecurePort unset to get a free port, or stop the process that holds the port its"
          + " log names.";
    }
    int[] ports = pickedPorts;
    String which =
        name.equals(AssetsSearch.ETCD)
            ? "client port " + ports[0] + " or peer port " + ports[1]
            : "secure port " + ports[2] + " or another port it needs";
    return "Another process took a free port picked for "
        + name
        + " (last: "
        + which
        + ") before "
        + name
        + " could bind it, "
        + (attempts == 1 ? "in the only attempt" : "with each of " + attempts + " sets of free ports")
        + ". Stop the process that holds the port its log names, or run when fewer processes open"
        + " ports on this machine.";
  }

  private static String exitHead(ChildProcess process) {
    return exitText(process, process.name(), " while starting");
  }

  /** {@code <who> exited with code <n> after <run time><when> (<binary>). <last log lines>} */
  private static String exitText(ChildProcess process, String who, String when) {
    return who
        + " exited with code "
        + process.exitCode().orElse(-1)
        + " after "
        + DurationText.measured(process.runTime())
        + when
        + " ("
        + process.binary()
        + "). "
        + process.describeLog();
  }

  private static String portInUseMessage(int port) {
    return "Secure port "
        + port
        + " for kube-apiserver is already in use on "
        + HOST
        + " (withSecurePort("
        + port
        + ")). Leave withSecurePort unset to get a free port, or stop the process that listens on "
        + port
        + " (`ss -ltnp 'sport = :"
        + port
        + "'` names it).";
  }

  /**
   * The first process that has exited since start, said with its exit code, run time and last log lines.
   *
   * @return the text, or empty while all run
   */
  public Optional<String> exited() {
    for (ChildProcess process : List.copyOf(processes)) {
      if (!process.isAlive()) {
        return Optional.of(exitText(process, process.name() + " (pid " + process.pid() + ")",
            ", after the server had started"));
      }
    }
    return Optional.empty();
  }

  /**
   * Stops the processes, newest first (TERM, then KILL after the stop timeout), and deletes the
   * work folder. Safe to call in any state, also twice. A process that had already exited is
   * reported (WARN, with its last log lines) before the folder with its full log goes.
   *
   * @throws EnvtestException when a process survives even KILL (after all others were stopped)
   */
  public void stop() {
    if (started) {   // a start that failed has said so in its exception already
      exited().ifPresent(text -> LOG.warn("{} before close; its log in {} is deleted now", text, work == null
          ? "the work folder" : work.path()));
    }
    started = false;
    EnvtestException failure = null;
    List<ChildProcess> reversed = new ArrayList<>(processes);
    Collections.reverse(reversed);
    for (ChildProcess process : reversed) {
      try {
        if (process.stop(options.stopTimeout())) {
          LOG.warn(
              "{} ignored TERM for {}; sent KILL", process, DurationText.of(options.stopTimeout()));
        }
      } catch (EnvtestException e) {
        failure = failure == null ? e : failure;
      }
    }
    processes.clear();
    if (work != null) {
      work.delete();
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * The admin identity.
   *
   * @return it, or {@code null} before start
   */
  public AdminCredentials credentials() {
    return credentials;
  }

  /**
   * The API server's URL.
   *
   * @return e.g. {@code https://127.0.0.1:40123}, or {@code null} before start
   */
  public String url() {
    return url;
  }

  /**
   * The serving certificate (with its CA) that clients trust.
   *
   * @return the PEM text, or {@code null} before the API server wrote it
   */
  public String caCertPem() {
    return caCertPem;
  }

  /**
   * The {@code gitVersion} from {@code /version}.
   *
   * @return e.g. {@code v1.20.2}, or {@code null} before ready
   */
  public String version() {
    return version;
  }

  /**
   * When etcd became healthy, counted from the start.
   *
   * @return e.g. {@code 0.4s}, or {@code null}
   */
  public String etcdHealthyAfter() {
    return etcdHealthyAfter;
  }

  /**
   * Process ids of every binary started, over all attempts, etcd first.
   *
   * @return the pids
   */
  public List<Long> startedPids() {
    return List.copyOf(startedPids);
  }

  /**
   * The work folder of the last attempt (deleted by {@link #stop()}).
   *
   * @return its path, or {@code null} before start
   */
  public Path workDirectory() {
    WorkDirectory current = work;
    return current == null ? null : current.path();
  }

  /** A binary exited at start because a port was taken. */
  private static final class PortTakenException extends EnvtestException {
    private final String name;

    PortTakenException(String name, String message) {
      super(message);
      this.name = name;
    }
  }
}
