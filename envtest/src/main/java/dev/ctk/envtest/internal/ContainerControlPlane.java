package dev.ctk.envtest.internal;

import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * etcd and kube-apiserver as two containers on one private Docker network, like a control plane
 * node: etcd keeps its data on a tmpfs, kube-apiserver reaches it by address, serves TLS with a
 * certificate it makes itself and accepts the admin token of {@link AdminCredentials}; its secure
 * port is published on a free host port.
 *
 * <pre>{@code
 * ContainerCluster cluster = ContainerControlPlane.start(
 *     docker, spec, apiServerImage, etcdImage, null, new ContainerStart());
 * }</pre>
 *
 * <p>The client trusts the certificate kube-apiserver wrote to {@code /ctk/certs/apiserver.crt}
 * (its names cover {@code localhost}) when the Docker host is this machine; for a remote Docker
 * host it trusts any certificate. No GC, no namespace controller: a bare API server, unless a
 * kube-controller-manager image is given; it then runs in a third container with only those two
 * controllers, reaching kube-apiserver by its address on the network with the admin token (and
 * without verifying its certificate: the network is private to these containers).
 */
public final class ContainerControlPlane implements ContainerCluster {

  /** The secure port inside the container. */
  public static final int SECURE_PORT = 6443;

  private static final Logger LOG = LoggerFactory.getLogger(ContainerControlPlane.class);
  private static final String AUTH_DIR = "/ctk/auth";
  private static final String CERT_DIR = "/ctk/certs";
  private static final String KCM_DIR = "/ctk/kcm";
  private static final int CONTROLLER_MANAGER_PORT = 10257;

  private final ContainerDocker docker;
  private final String networkId;
  private final List<ContainerRun> containers;
  private final AdminCredentials admin;
  private final String url;
  private final String caCertPem;
  private final String version;
  private final String description;
  private final boolean controllers;
  private boolean closed;

  private ContainerControlPlane(
      ContainerDocker docker,
      String networkId,
      List<ContainerRun> containers,
      AdminCredentials admin,
      String url,
      String caCertPem,
      String version,
      String description,
      boolean controllers) {
    this.docker = docker;
    this.networkId = networkId;
    this.containers = containers;
    this.admin = admin;
    this.url = url;
    this.caCertPem = caCertPem;
    this.version = version;
    this.description = description;
    this.controllers = controllers;
  }

  /**
   * Starts etcd, then kube-apiserver, and waits until the server is ready. On any failure removes
   * what it created before throwing.
   *
   * @param docker the engine
   * @param spec timeouts, flags, log lines
   * @param apiServerImage the kube-apiserver image (present)
   * @param etcdImage the etcd image (present)
   * @param controllerManagerImage the kube-controller-manager image (present), or null for none
   * @param progress records the network and the containers; cancelling it makes the start give up
   * @return the running control plane
   * @throws EnvtestException if a container exits, readiness times out, or the start was cancelled
   */
  public static ContainerControlPlane start(
      ContainerDocker docker,
      ContainerSpec spec,
      String apiServerImage,
      String etcdImage,
      String controllerManagerImage,
      ContainerStart progress) {
    long start = System.nanoTime();
    String serverId = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    String prefix = "ctk-envtest-" + serverId;
    List<ContainerRun> containers = new ArrayList<>();
    String networkId = null;
    String cleanupNote = " The containers and the network were removed.";
    try {
      networkId =
          docker
              .client()
              .createNetworkCmd()
              .withName(prefix)
              .withDriver("bridge")
              .withLabels(docker.labels(serverId, "network"))
              .exec()
              .getId();
      progress.network(docker, networkId);
      String network = prefix;
      String createdNetwork = networkId;
      ContainerRun etcd =
          ContainerRun.create(
              docker,
              "etcd",
              prefix + "-etcd",
              etcdImage,
              docker.labels(serverId, "etcd"),
              host -> host.withNetworkMode(createdNetwork).withTmpFs(Map.of("/var/lib/etcd", "rw")),
              cmd -> cmd.withEntrypoint(ContainerLocalImage.BIN + "etcd").withCmd(etcdCommand()));
      containers.add(etcd);
      progress.container(etcd);
      etcd.start();
      Runnable etcdAlive =
          () -> {
            progress.throwIfCancelled();
            etcd.throwIfExited(spec.logLines(), "Check the etcd image." + cleanupNote);
          };
      String etcdAddress = etcd.ipOn(network, etcdAlive);

      AdminCredentials admin = AdminCredentials.generate();
      ContainerRun apiServer =
          ContainerRun.create(
              docker,
              "kube-apiserver",
              prefix + "-kube-apiserver",
              apiServerImage,
              docker.labels(serverId, "kube-apiserver"),
              host ->
                  host.withNetworkMode(createdNetwork)
                      .withPortBindings(
                          new PortBinding(Ports.Binding.empty(), ExposedPort.tcp(SECURE_PORT))),
              cmd ->
                  cmd.withEntrypoint(ContainerLocalImage.BIN + "kube-apiserver")
                      .withCmd(
                          apiServerCommand(
                              etcdAddress, admin.apiServerFlags(AUTH_DIR), spec.apiServerFlags()))
                      .withExposedPorts(ExposedPort.tcp(SECURE_PORT)));
      containers.add(apiServer);
      progress.container(apiServer);
      apiServer.copyIn(credentialsTar(admin));
      apiServer.start();

      String fix =
          "Check the image and the flags given with withApiServerFlags(..)." + cleanupNote;
      Runnable stillAlive =
          () -> {
            progress.throwIfCancelled();
            apiServer.throwIfExited(spec.logLines(), fix);
            etcdAlive.run();
          };
      stillAlive.run();
      int port = apiServer.hostPort(SECURE_PORT, stillAlive);
      String host = docker.host();
      boolean local = isLocal(host);
      String url = "https://" + (local ? "localhost" : bracketed(host)) + ":" + port;
      String gitVersion =
          Readiness.awaitReady(
              admin.clientConfig(url, null),
              spec.startTimeout(),
              start,
              stillAlive,
              () ->
                  "Last "
                      + spec.logLines()
                      + " lines of the kube-apiserver container's log:\n"
                      + apiServer.lastLines(spec.logLines())
                      + "\n"
                      + "The containers and the network were removed.");
      String caCertPem = local ? servingCertificate(apiServer) : null;
      checkTrust(admin.clientConfig(url, caCertPem), url);
      if (controllerManagerImage != null) {
        String apiServerAddress = apiServer.ipOn(network, stillAlive);
        ContainerRun controllerManager =
            startControllerManager(
                docker, prefix, serverId, createdNetwork, controllerManagerImage, admin,
                apiServerAddress, progress, containers);
        awaitControllerManager(docker, spec, start, controllerManager, stillAlive, cleanupNote);
      }
      String description =
          "kube-apiserver "
              + gitVersion
              + " in container "
              + apiServer.name()
              + " (image "
              + apiServerImage
              + ", etcd image "
              + etcdImage
              + (controllerManagerImage == null
                  ? ""
                  : ", kube-controller-manager image " + controllerManagerImage)
              + ") at "
              + url;
      LOG.info("started {} in {}", description, DurationText.since(start));
      return new ContainerControlPlane(
          docker,
          networkId,
          containers,
          admin,
          url,
          caCertPem,
          gitVersion,
          description,
          controllerManagerImage != null);
    } catch (DockerException e) {
      removeAll(docker, containers, networkId);
      progress.throwIfCancelled();
      throw dockerFailed("the etcd and kube-apiserver containers", e, cleanupNote);
    } catch (RuntimeException | Error e) {
      removeAll(docker, containers, networkId);
      throw e;
    }
  }

  private static ContainerRun startControllerManager(
      ContainerDocker docker,
      String prefix,
      String serverId,
      String networkId,
      String image,
      AdminCredentials admin,
      String apiServerAddress,
      ContainerStart progress,
      List<ContainerRun> containers) {
    // certificate not verified (no CA data): kube-apiserver's self-made certificate names localhost, and the
    // address is on a network private to these containers
    String kubeconfig =
        admin.kubeconfig(
            "https://" + bracketed(apiServerAddress) + ":" + SECURE_PORT, null, "ctk-container");
    ContainerRun controllerManager =
        ContainerRun.create(
            docker,
            ControllerManagerBinary.NAME,
            prefix + "-" + ControllerManagerBinary.NAME,
            image,
            docker.labels(serverId, ControllerManagerBinary.NAME),
            host ->
                host.withNetworkMode(networkId)
                    .withPortBindings(
                        new PortBinding(Ports.Binding.empty(), ExposedPort.tcp(CONTROLLER_MANAGER_PORT))),
            cmd ->
                cmd.withEntrypoint(ContainerLocalImage.BIN + ControllerManagerBinary.NAME)
                    .withCmd(
                        LocalFlags.controllerManager(
                            KCM_DIR + "/kubeconfig", KCM_DIR + "/certs", "0.0.0.0", CONTROLLER_MANAGER_PORT))
                    .withExposedPorts(ExposedPort.tcp(CONTROLLER_MANAGER_PORT)));
    progress.container(controllerManager);
    containers.add(controllerManager);   // removed with the others if copying in or starting it fails
    controllerManager.copyIn(
        ContainerTar.archive(
            Map.of(KCM_DIR.substring(1) + "/kubeconfig", kubeconfig.getBytes(StandardCharsets.UTF_8)), 0600));
    controllerManager.start();
    return controllerManager;
  }

  private static void awaitControllerManager(
      ContainerDocker docker,
      ContainerSpec spec,
      long start,
      ContainerRun controllerManager,
      Runnable apiServerAlive,
      String cleanupNote) {
    Runnable alive =
        () -> {
          apiServerAlive.run();
          controllerManager.throwIfExited(
              spec.logLines(),
              "Check that the image's kube-controller-manager is of kube-apiserver's version." + cleanupNote);
        };
    int port = controllerManager.hostPort(CONTROLLER_MANAGER_PORT, alive);
    String host = bracketed(docker.host());
    ControllerManagerHealth health = new ControllerManagerHealth(host, port);
    Poll.until(
        "kube-controller-manager in container " + controllerManager.name() + " (https://" + host + ":" + port + ")",
        spec.startTimeout(),
        start,
        () -> "GET /healthz never answered ok",
        health::check,
        alive,
        () ->
            "Last "
                + spec.logLines()
                + " lines of its log:\n"
                + controllerManager.lastLines(spec.logLines())
                + "\n"
                + cleanupNote.strip());
  }

  static EnvtestException dockerFailed(String what, DockerException e, String cleanupNote) {
    return new EnvtestException(
        "Docker failed while starting "
            + what
            + ": "
            + ContainerDocker.rootMessage(e)
            + " (HTTP "
            + e.getHttpStatus()
            + "). Check the Docker engine (docker info; docker network ls for address pools used up"
            + " by old networks)."
            + cleanupNote,
        e);
  }

  /**
   * etcd's command line inside its container: one member, clients on port 2379 of every interface,
   * peers on loopback only.
   *
   * @return the arguments
   */
  public static List<String> etcdCommand() {
    return List.of(
        "--name=default",
        "--data-dir=/var/lib/etcd",
        "--listen-client-urls=http://0.0.0.0:2379",
        "--advertise-client-urls=http://127.0.0.1:2379",
        "--listen-peer-urls=http://127.0.0.1:2380",
        "--initial-advertise-peer-urls=http://127.0.0.1:2380",
        "--initial-cluster=default=http://127.0.0.1:2380");
  }

  /**
   * kube-apiserver's command line inside its container.
   *
   * @param etcdAddress etcd's IP on the private network
   * @param credentialFlags the flags of {@link AdminCredentials#apiServerFlags}
   * @param extraFlags the user's flags; one with the same {@code --name} as a default replaces it
   * @return the arguments
   */
  public static List<String> apiServerCommand(
      String etcdAddress, List<String> credentialFlags, List<String> extraFlags) {
    List<String> defaults = new ArrayList<>();
    defaults.add("--etcd-servers=http://" + etcdAddress + ":2379");
    defaults.add("--bind-address=0.0.0.0");
    defaults.add("--secure-port=" + SECURE_PORT);
    defaults.add("--cert-dir=" + CERT_DIR);
    defaults.addAll(credentialFlags);
    defaults.add("--endpoint-reconciler-type=none");   // as in local mode: no Endpoints controller for a test server
    defaults.add("--authorization-mode=RBAC");
    defaults.add("--service-cluster-ip-range=10.0.0.0/24");
    defaults.add("--allow-privileged=true");
    defaults.add("--disable-admission-plugins=ServiceAccount");
    return FlagList.merge(defaults, extraFlags);
  }

  @Override
  public String url() {
    return url;
  }

  @Override
  public Config clientConfig() {
    return admin.clientConfig(url, caCertPem);
  }

  @Override
  public String kubeconfig() {
    return admin.kubeconfig(url, caCertPem, "ctk-container");
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
    return controllers;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    removeAll(docker, containers, networkId);
    LOG.info("stopped {}", description);
  }

  static void removeAll(ContainerDocker docker, List<ContainerRun> containers, String networkId) {
    for (int i = containers.size() - 1; i >= 0; i--) {
      containers.get(i).remove();
    }
    docker.removeNetwork(networkId);
  }

  static boolean isLocal(String host) {
    return Set.of("localhost", "127.0.0.1", "::1", "0:0:0:0:0:0:0:1").contains(host);
  }

  static String bracketed(String host) {
    return host.contains(":") ? "[" + host + "]" : host;
  }

  private static byte[] credentialsTar(AdminCredentials admin) {
    Path dir = null;
    try {
      dir = Files.createTempDirectory("ctk-container-auth");
      admin.writeTo(dir);
      Map<String, byte[]> files = new LinkedHashMap<>();
      for (String name :
          List.of(
              AdminCredentials.TOKEN_FILE,
              AdminCredentials.SERVICE_ACCOUNT_KEY_FILE,
              AdminCredentials.SERVICE_ACCOUNT_PUBLIC_KEY_FILE)) {
        files.put(AUTH_DIR.substring(1) + "/" + name, Files.readAllBytes(dir.resolve(name)));
      }
      return ContainerTar.archive(files, 0600);
    } catch (IOException e) {
      throw new EnvtestException(
          "Could not write the admin credentials for the kube-apiserver container to a temporary"
              + " folder ("
              + (dir == null ? "creating it in " + System.getProperty("java.io.tmpdir") : dir)
              + "): "
              + e
              + ". Check that java.io.tmpdir is writable and has space (it is set with"
              + " -Djava.io.tmpdir=<folder>). The containers and the network were removed.",
          e);
    } finally {
      deleteQuietly(dir);
    }
  }

  private static String servingCertificate(ContainerRun apiServer) {
    Optional<byte[]> pem = apiServer.readFile(CERT_DIR + "/apiserver.crt");
    if (pem.isEmpty()) {
      throw new EnvtestException(
          "kube-apiserver in container "
              + apiServer.name()
              + " is ready but wrote no "
              + CERT_DIR
              + "/apiserver.crt, so the client has no certificate to trust. Do not replace"
              + " --cert-dir with withApiServerFlags(..); the containers and the network were"
              + " removed.");
    }
    return new String(pem.get(), StandardCharsets.UTF_8);
  }

  private static void checkTrust(Config config, String url) {
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      client.getKubernetesVersion();
    } catch (RuntimeException e) {
      throw new EnvtestException(
          "The API server at "
              + url
              + " answered while trusting any certificate, but not with the certificate it wrote"
              + " to "
              + CERT_DIR
              + "/apiserver.crt: "
              + ContainerDocker.rootMessage(e)
              + ". Its names must cover localhost (kube-apiserver adds localhost when it binds"
              + " 0.0.0.0); do not replace --bind-address. The containers and the network were"
              + " removed.",
          e);
    }
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      LOG.debug("could not delete {}", dir, e);
    }
  }
}
