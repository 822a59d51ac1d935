package dev.ctk.envtest.internal;

import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.client.Config;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * k3s in one privileged container: a whole single-node cluster, with the controllers a bare
 * kube-apiserver lacks (garbage collector, namespace controller). Its kubeconfig ({@code
 * /etc/rancher/k3s/k3s.yaml}, client-certificate identity) is read from the container and its
 * server address replaced by the published port.
 *
 * <pre>{@code
 * ContainerCluster cluster = ContainerK3s.start(docker, spec, "rancher/k3s:v1.31.4-k3s1", new ContainerStart());
 * }</pre>
 *
 * <p>Its certificate names {@code localhost}, {@code 127.0.0.1} and {@link ContainerDocker#host()}
 * ({@code --tls-san}), so the client verifies it wherever the published port is reached.
 *
 * <p>Needs from Docker: privileged containers, tmpfs mounts and the host cgroup namespace (what
 * k3s in Docker needs on cgroup v2 hosts), and the image (no offline build: k3s is not part of the
 * envtest binaries). Not run in ctk's own CI, which has no registry; its command line, kubeconfig
 * handling and missing-image message are tested offline.
 */
public final class ContainerK3s implements ContainerCluster {

  /** The port k3s serves the API on inside the container. */
  public static final int SECURE_PORT = 6443;

  /** Where k3s writes its admin kubeconfig. */
  public static final String KUBECONFIG_PATH = "/etc/rancher/k3s/k3s.yaml";

  private static final Logger LOG = LoggerFactory.getLogger(ContainerK3s.class);

  private final ContainerRun container;
  private final String url;
  private final String kubeconfig;
  private final String version;
  private final String description;
  private boolean closed;

  private ContainerK3s(
      ContainerRun container,
      String url,
      String kubeconfig,
      String version,
      String description) {
    this.container = container;
    this.url = url;
    this.kubeconfig = kubeconfig;
    this.version = version;
    this.description = description;
  }

  /**
   * Starts k3s and waits until its API server is ready; removes the container on any failure.
   *
   * @param docker the engine
   * @param spec timeouts, flags, log lines
   * @param image the k3s image (present)
   * @param progress records the container; cancelling it makes the start give up
   * @return the running cluster
   * @throws EnvtestException if the container exits, readiness times out, or the start was cancelled
   */
  public static ContainerK3s start(
      ContainerDocker docker, ContainerSpec spec, String image, ContainerStart progress) {
    long start = System.nanoTime();
    String serverId = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    String host = docker.host();
    List<ContainerRun> created = new ArrayList<>();
    try {
      ContainerRun k3s =
          ContainerRun.create(
              docker,
              "k3s",
              "ctk-envtest-" + serverId + "-k3s",
              image,
              docker.labels(serverId, "k3s"),
              hostConfig ->
                  hostConfig
                      .withPrivileged(true)
                      .withCgroupnsMode("host")
                      .withTmpFs(Map.of("/run", "", "/var/run", ""))
                      .withPortBindings(
                          new PortBinding(Ports.Binding.empty(), ExposedPort.tcp(SECURE_PORT))),
              cmd ->
                  cmd.withCmd(command(host, spec.apiServerFlags()))
                      .withExposedPorts(ExposedPort.tcp(SECURE_PORT)));
      created.add(k3s);
      progress.container(k3s);
      k3s.start();
      String fix =
          "k3s needs a privileged container and the host cgroup namespace; check that Docker"
              + " allows both, and the flags given with withApiServerFlags(..). The container was"
              + " removed.";
      Runnable stillAlive =
          () -> {
            progress.throwIfCancelled();
            k3s.throwIfExited(spec.logLines(), fix);
          };
      stillAlive.run();
      int port = k3s.hostPort(SECURE_PORT, stillAlive);
      String url =
          "https://"
              + (ContainerControlPlane.isLocal(host) ? "localhost" : ContainerControlPlane.bracketed(host))
              + ":"
              + port;
      String kubeconfig = rewriteServer(awaitKubeconfig(k3s, start, stillAlive, spec), url);
      String gitVersion =
          Readiness.awaitReady(
              Config.fromKubeconfig(kubeconfig),
              spec.startTimeout(),
              start,
              stillAlive,
              () ->
                  "Last "
                      + spec.logLines()
                      + " lines of the k3s container's log:\n"
                      + k3s.lastLines(spec.logLines())
                      + "\nThe container was removed.");
      String description =
          "k3s " + gitVersion + " in container " + k3s.name() + " (image " + image + ") at " + url;
      LOG.info("started {} in {}", description, DurationText.since(start));
      return new ContainerK3s(k3s, url, kubeconfig, gitVersion, description);
    } catch (DockerException e) {
      ContainerControlPlane.removeAll(docker, created, null);
      progress.throwIfCancelled();
      throw ContainerControlPlane.dockerFailed("the k3s container", e, " The container was removed.");
    } catch (RuntimeException | Error e) {
      ContainerControlPlane.removeAll(docker, created, null);
      throw e;
    }
  }

  /**
   * k3s's command line: a server without the bundled ingress (traefik) and metrics-server, whose
   * certificate also names {@code tlsSan}; each extra kube-apiserver flag passed through {@code
   * --kube-apiserver-arg}.
   *
   * @param tlsSan the host name or address clients use
   * @param apiServerFlags extra kube-apiserver flags ({@code --name=value})
   * @return the arguments
   */
  public static List<String> command(String tlsSan, List<String> apiServerFlags) {
    List<String> command = new ArrayList<>();
    command.add("server");
    command.add("--disable=traefik");
    command.add("--disable=metrics-server");
    command.add("--tls-san=" + tlsSan);
    command.add("--write-kubeconfig-mode=644");
    for (String flag : apiServerFlags) {
      command.add("--kube-apiserver-arg=" + flag.replaceFirst("^--", ""));
    }
    return command;
  }

  /**
   * The kubeconfig with every {@code server:} replaced by {@code url}.
   *
   * @param kubeconfig k3s's kubeconfig
   * @param url the published address
   * @return the rewritten kubeconfig
   */
  public static String rewriteServer(String kubeconfig, String url) {
    return kubeconfig.replaceAll(
        "(?m)^(\\s*server:\\s*)\\S+\\s*$", "$1" + Matcher.quoteReplacement(url));
  }

  private static String awaitKubeconfig(
      ContainerRun k3s, long startNanos, Runnable stillAlive, ContainerSpec spec) {
    String[] kubeconfig = new String[1];
    Poll.until(
        "k3s in container " + k3s.name(),
        spec.startTimeout(),
        startNanos,
        () -> "it wrote no " + KUBECONFIG_PATH,
        () -> {
          Optional<byte[]> file = k3s.readFile(KUBECONFIG_PATH);
          if (file.isEmpty()) {
            return "no such file yet";
          }
          String text = new String(file.get(), StandardCharsets.UTF_8);
          if (!text.contains("server:")) {
            return "the file has no server: line yet";
          }
          kubeconfig[0] = text;
          return null;
        },
        stillAlive,
        () ->
            "Last "
                + spec.logLines()
                + " lines of the k3s container's log:\n"
                + k3s.lastLines(spec.logLines())
                + "\nThe container was removed.");
    return kubeconfig[0];
  }

  @Override
  public String url() {
    return url;
  }

  @Override
  public Config clientConfig() {
    return Config.fromKubeconfig(kubeconfig);
  }

  @Override
  public String kubeconfig() {
    return kubeconfig;
  }

  @Override
  public String version() {
    return version;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public boolean runsClusterControllers() {
    return true;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    container.remove();
    LOG.info("stopped {}", description);
  }
}
