package dev.ctk.envtest.internal;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Ports;
import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.values.EnvtestException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One container that ctk created for a server: created (not started) by {@link #create}, then
 * files copied in, started, watched for an early exit, asked for its published port and files,
 * and removed.
 *
 * <pre>{@code
 * ContainerRun etcd = ContainerRun.create(docker, "etcd", name, image, labels,
 *     host -> host.withNetworkMode(networkId), cmd -> cmd.withEntrypoint("/usr/local/bin/etcd"));
 * etcd.start();
 * etcd.throwIfExited(50, "Check the etcd image.");
 * }</pre>
 */
public final class ContainerRun {

  private final ContainerDocker docker;
  private final String role;
  private final String name;
  private final String image;
  private final String id;
  private long startNanos;

  private ContainerRun(ContainerDocker docker, String role, String name, String image, String id) {
    this.docker = docker;
    this.role = role;
    this.name = name;
    this.image = image;
    this.id = id;
  }

  /**
   * Creates (does not start) a container.
   *
   * @param docker the engine
   * @param role what it runs, e.g. {@code kube-apiserver}
   * @param name the container name
   * @param image the image
   * @param labels its labels
   * @param hostConfig adds host settings (network, ports, privileges)
   * @param command adds entrypoint, arguments and exposed ports
   * @return the created container
   */
  public static ContainerRun create(
      ContainerDocker docker,
      String role,
      String name,
      String image,
      Map<String, String> labels,
      UnaryOperator<HostConfig> hostConfig,
      UnaryOperator<CreateContainerCmd> command) {
    CreateContainerCmd create =
        docker
            .client()
            .createContainerCmd(image)
            .withName(name)
            .withLabels(labels)
            .withHostConfig(hostConfig.apply(HostConfig.newHostConfig()));
    String id = command.apply(create).exec().getId();
    return new ContainerRun(docker, role, name, image, id);
  }

  /**
   * The container's name.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * The image it runs.
   *
   * @return the image
   */
  public String image() {
    return image;
  }

  /**
   * Copies files (given as a tar archive) into the container, relative to {@code /}.
   *
   * @param tar the archive, e.g. from {@link ContainerTar#archive}
   */
  public void copyIn(byte[] tar) {
    docker
        .client()
        .copyArchiveToContainerCmd(id)
        .withRemotePath("/")
        .withTarInputStream(new ByteArrayInputStream(tar))
        .exec();
  }

  /** Starts the container. */
  public void start() {
    startNanos = System.nanoTime();
    docker.client().startContainerCmd(id).exec();
  }

  /**
   * Throws if the container is no longer running: the message has the exit code, the time since
   * start, the last log lines and {@code fix}.
   *
   * @param logLines how many log lines to show
   * @param fix the last sentence: what to do
   * @throws EnvtestException if it exited or is gone
   */
  public void throwIfExited(int logLines, String fix) {
    InspectContainerResponse.ContainerState state;
    try {
      state = docker.client().inspectContainerCmd(id).exec().getState();
    } catch (NotFoundException e) {
      throw new EnvtestException(
          role
              + " container "
              + name
              + " disappeared after "
              + DurationText.since(startNanos)
              + " while starting (someone removed it). "
              + fix,
          e);
    }
    if (Boolean.TRUE.equals(state.getRunning())) {
      return;
    }
    String oom = Boolean.TRUE.equals(state.getOOMKilled()) ? " (killed: out of memory)" : "";
    throw new EnvtestException(
        role
            + " container exited with code "
            + state.getExitCodeLong()
            + oom
            + " after "
            + DurationText.since(startNanos)
            + " while starting (container "
            + name
            + ", image "
            + image
            + "). Last "
            + logLines
            + " lines of its log:\n"
            + docker.lastLines(id, logLines)
            + "\n"
            + fix);
  }

  /**
   * The host port that Docker published for a container port.
   *
   * @param containerPort the TCP port inside the container
   * @param stillAlive run first when there is no port: an exited container has none
   * @return the host port
   * @throws EnvtestException if Docker published none
   */
  public int hostPort(int containerPort, Runnable stillAlive) {
    Ports ports = docker.client().inspectContainerCmd(id).exec().getNetworkSettings().getPorts();
    Ports.Binding[] bindings = ports.getBindings().get(ExposedPort.tcp(containerPort));
    if (bindings != null) {
      for (Ports.Binding binding : bindings) {
        if (binding.getHostPortSpec() != null && !binding.getHostPortSpec().isEmpty()) {
          return Integer.parseInt(binding.getHostPortSpec());
        }
      }
    }
    stillAlive.run();
    throw new EnvtestException(
        "Docker published no host port for port "
            + containerPort
            + " of container "
            + name
            + " (bindings: "
            + ports
            + "). Check the Docker engine's port publishing (userland-proxy, iptables).");
  }

  /**
   * The container's address on a network.
   *
   * @param networkName the network
   * @param stillAlive run first when there is no address: an exited container has none
   * @return the IP address
   * @throws EnvtestException if it has none there
   */
  public String ipOn(String networkName, Runnable stillAlive) {
    Map<String, ContainerNetwork> networks =
        docker.client().inspectContainerCmd(id).exec().getNetworkSettings().getNetworks();
    ContainerNetwork network = networks == null ? null : networks.get(networkName);
    if (network == null || network.getIpAddress() == null || network.getIpAddress().isEmpty()) {
      stillAlive.run();
      throw new EnvtestException(
          "Container "
              + name
              + " has no address on network "
              + networkName
              + " (networks: "
              + (networks == null ? "none" : networks.keySet())
              + ").");
    }
    return network.getIpAddress();
  }

  /**
   * A file's content, or empty if it does not exist (yet).
   *
   * @param path an absolute path inside the container
   * @return the content
   */
  public Optional<byte[]> readFile(String path) {
    try (InputStream tar = docker.client().copyArchiveFromContainerCmd(id, path).exec()) {
      return ContainerTar.firstFile(tar);
    } catch (NotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new EnvtestException(
          "Could not read " + path + " from container " + name + ": " + e + ".", e);
    }
  }

  /**
   * The last lines of its log.
   *
   * @param lines how many
   * @return the lines
   */
  public String lastLines(int lines) {
    return docker.lastLines(id, lines);
  }

  /** Force-removes the container; never throws. */
  public void remove() {
    docker.removeContainer(id);
  }
}
