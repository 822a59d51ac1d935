package dev.ctk.envtest.internal;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.Network;
import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.values.EnvtestException;
import dev.ctk.envtest.values.EnvtestUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.ResourceReaper;

/**
 * The Docker engine as container mode uses it: the client Testcontainers found, a clear message
 * when there is none, images present or pulled, labels on everything ctk creates, last log lines,
 * and removal that never throws.
 *
 * <pre>{@code
 * ContainerDocker docker = ContainerDocker.connect();
 * docker.ensureImage("registry.k8s.io/etcd:3.5.15-0", "etcd", Duration.ofMinutes(5), "withEtcdImage(..)");
 * }</pre>
 *
 * <p>Every container and network ctk creates carries {@link #LABEL}{@code =true}, {@link
 * #SERVER_LABEL}{@code =<server id>}, the owning JVM ({@link ContainerOrphans}), Testcontainers'
 * default labels ({@code org.testcontainers=true}, its language and version) and its session
 * label: exactly the filter that Ryuk and Testcontainers' JVM shutdown hook remove by. So when
 * ctk's own cleanup does not run, Ryuk (when enabled) removes them after the JVM is gone, even
 * after a crash. With Ryuk disabled, a JVM that ends normally removes them in its shutdown hooks,
 * and what a killed JVM left is removed at the next container start on the same host ({@link
 * ContainerOrphans#removeOrphans}).
 */
public final class ContainerDocker {

  /** Label on every container and network ctk creates; value {@code true}. */
  public static final String LABEL = "dev.ctk.envtest";

  /** Label naming the server a container or network belongs to. */
  public static final String SERVER_LABEL = "dev.ctk.envtest.server";

  /** Label naming the role: {@code etcd}, {@code kube-apiserver}, {@code k3s} or {@code network}. */
  public static final String ROLE_LABEL = "dev.ctk.envtest.role";

  private static final Logger LOG = LoggerFactory.getLogger(ContainerDocker.class);

  /** Set once Testcontainers found Docker but failed to prepare it; later connects fail at once with it. */
  private static volatile String preparationFailure;

  private final DockerClient client;

  private ContainerDocker(DockerClient client) {
    this.client = client;
  }

  /**
   * The Docker client Testcontainers found.
   *
   * @return the connection
   * @throws EnvtestException if Docker is not reachable, listing what was tried
   */
  public static ContainerDocker connect() {
    String remembered = preparationFailure;
    if (remembered != null) {
      throw new EnvtestUnavailableException(remembered);
    }
    try {
      return new ContainerDocker(DockerClientFactory.instance().client());
    } catch (RuntimeException e) {
      String message = ContainerDockerSearch.current().unreachableMessage(rootMessage(e));
      if (ContainerDockerSearch.isPreparationFailure(message)) {
        // Testcontainers found Docker but could not pull its helper images (minutes of retries); it would try
        // again, just as long, for every later caller in this JVM: answer them at once with the same message
        preparationFailure = message;
      }
      throw new EnvtestUnavailableException(message, e);
    }
  }

  /**
   * Why Docker cannot be used, or null when it can. Never throws.
   *
   * @return the reason or null
   */
  public static String unavailableReason() {
    try {
      connect();
      return null;
    } catch (EnvtestException e) {
      return e.getMessage();
    }
  }

  /**
   * The raw docker-java client (Testcontainers' shared one: never close it).
   *
   * @return the client
   */
  public DockerClient client() {
    return client;
  }

  /**
   * The host name or address where published ports are reached, as Testcontainers works it out
   * ({@code TESTCONTAINERS_HOST_OVERRIDE}, the host of a {@code tcp://} Docker host, {@code
   * localhost}, or inside a container the default gateway).
   *
   * @return e.g. {@code localhost}
   */
  public String host() {
    return DockerClientFactory.instance().dockerHostIpAddress();
  }

  /**
   * Labels for a new container or network of one server.
   *
   * @param serverId the server's id
   * @param role what the object is, e.g. {@code etcd}
   * @return the labels, Testcontainers' default and session labels included
   */
  public Map<String, String> labels(String serverId, String role) {
    Map<String, String> labels = new HashMap<>(DockerClientFactory.DEFAULT_LABELS);
    labels.putAll(ResourceReaper.instance().getLabels());
    labels.put(LABEL, "true");
    labels.put(SERVER_LABEL, serverId);
    labels.put(ROLE_LABEL, role);
    labels.putAll(ContainerOrphans.ownerLabels());
    return labels;
  }

  /**
   * Makes sure {@code image} is present, pulling it if not.
   *
   * @param image the image reference
   * @param role what the image is for, e.g. {@code etcd}
   * @param pullTimeout how long a pull may take
   * @param option the builder option that chooses this image, for the message
   * @throws EnvtestException if the image is missing and cannot be pulled
   */
  public void ensureImage(String image, String role, Duration pullTimeout, String option) {
    try {
      client.inspectImageCmd(image).exec();
      return;
    } catch (NotFoundException e) {
      LOG.info("image {} ({}) is not on this machine: pulling it", image, role);
    }
    long start = System.nanoTime();
    String failure;
    try {
      boolean done =
          client
              .pullImageCmd(repository(image))
              .withTag(tag(image))
              .start()
              .awaitCompletion(pullTimeout.toMillis(), TimeUnit.MILLISECONDS);
      if (done) {
        client.inspectImageCmd(image).exec();
        return;
      }
      failure = "the pull did not finish within " + DurationText.of(pullTimeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EnvtestException("Interrupted while pulling image " + image + " (" + role + ").", e);
    } catch (RuntimeException e) {
      failure = rootMessage(e);
    }
    throw new EnvtestUnavailableException(
        "Image "
            + image
            + " ("
            + role
            + ") is not on this machine and could not be pulled after "
            + DurationText.since(start)
            + ": "
            + failure
            + ". Pull it where its registry is reachable (docker pull "
            + image
            + "; docker save | docker load to carry it over), choose another image with "
            + option
            + ", or build one offline from envtest binaries with withLocalImage(<folder with"
            + " kube-apiserver and etcd>).");
  }

  /**
   * The last lines of a container's output (stdout and stderr interleaved).
   *
   * @param containerId the container
   * @param lines how many lines at most
   * @return the lines joined by newlines, or a note when there are none
   */
  public String lastLines(String containerId, int lines) {
    StringBuilder text = new StringBuilder();
    try {
      boolean complete =
          client
              .logContainerCmd(containerId)
              .withStdOut(true)
              .withStdErr(true)
              .withTail(lines)
              .exec(
                  new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame frame) {
                      synchronized (text) {
                        text.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                      }
                    }
                  })
              .awaitCompletion(10, TimeUnit.SECONDS);
      if (!complete) {
        text.append("\n(log incomplete: Docker sent no end within 10s)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "(log not read: interrupted)";
    } catch (RuntimeException e) {
      return "(log not read: " + rootMessage(e) + ")";
    }
    synchronized (text) {
      List<String> all = text.toString().lines().toList();
      if (all.isEmpty()) {
        return "(the container wrote nothing)";
      }
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }
  }

  /**
   * Force-removes a container with its volumes; logs instead of throwing.
   *
   * @param containerId the container, or null for nothing
   */
  public void removeContainer(String containerId) {
    if (containerId == null) {
      return;
    }
    try {
      client.removeContainerCmd(containerId).withForce(true).withRemoveVolumes(true).exec();
    } catch (NotFoundException e) {
      LOG.debug("container {} was already gone", containerId);
    } catch (RuntimeException e) {
      LOG.warn(
          "could not remove container {}: {}. Remove it with: docker rm -f {}",
          containerId,
          rootMessage(e),
          containerId);
    }
  }

  /**
   * Removes a network, retrying for up to 10s while a container that is going away still holds an
   * endpoint in it; logs instead of throwing.
   *
   * @param networkId the network, or null for nothing
   */
  public void removeNetwork(String networkId) {
    if (networkId == null) {
      return;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try {
        client.removeNetworkCmd(networkId).exec();
        return;
      } catch (NotFoundException e) {
        LOG.debug("network {} was already gone", networkId);
        return;
      } catch (RuntimeException e) {
        // a container being removed at the same time (e.g. by Testcontainers' own shutdown hook)
        // still holds an endpoint for a moment
        if (rootMessage(e).contains("active endpoints") && System.nanoTime() - deadline < 0) {
          try {
            Thread.sleep(100);
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
          }
          if (!Thread.currentThread().isInterrupted()) {
            continue;
          }
        }
        LOG.warn(
            "could not remove network {}: {}. Remove it with: docker network rm {}",
            networkId,
            rootMessage(e),
            networkId);
        return;
      }
    }
  }

  /**
   * Names of the containers (running or not) that carry {@code label=value}.
   *
   * @param label the label key
   * @param value the label value
   * @return the container names, without the leading slash
   */
  public List<String> containersLabelled(String label, String value) {
    return containersLabelled(Map.of(label, value));
  }

  /**
   * Names of the containers (running or not) that carry every one of {@code labels}.
   *
   * @param labels label keys and values
   * @return the container names, without the leading slash
   */
  public List<String> containersLabelled(Map<String, String> labels) {
    List<String> names = new ArrayList<>();
    for (Container container :
        client.listContainersCmd().withShowAll(true).withLabelFilter(labels).exec()) {
      String[] containerNames = container.getNames();
      names.add(
          containerNames == null || containerNames.length == 0
              ? container.getId()
              : containerNames[0].replaceFirst("^/", ""));
    }
    return names;
  }

  /**
   * Names of the networks that carry {@code label=value}.
   *
   * @param label the label key
   * @param value the label value
   * @return the network names
   */
  public List<String> networksLabelled(String label, String value) {
    return networksLabelled(Map.of(label, value));
  }

  /**
   * Names of the networks that carry every one of {@code labels}.
   *
   * @param labels label keys and values
   * @return the network names
   */
  public List<String> networksLabelled(Map<String, String> labels) {
    List<String> filter = new ArrayList<>();
    labels.forEach((key, value) -> filter.add(key + "=" + value));
    List<String> names = new ArrayList<>();
    for (Network network : client.listNetworksCmd().withFilter("label", filter).exec()) {
      names.add(network.getName());
    }
    return names;
  }

  /**
   * The innermost message of a failure, one line; Docker's JSON error bodies unwrapped.
   *
   * @param failure the failure
   * @return the message
   */
  public static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    if (root instanceof DockerException) {
      message = message.replaceFirst("^Status \\d+: ", "");
      java.util.regex.Matcher json =
          java.util.regex.Pattern.compile("\\{\"message\":\"(.*)\"\\}\\s*$").matcher(message);
      if (json.find()) {
        message = json.group(1).replace("\\\"", "\"");
      }
    }
    return message.replace('\n', ' ').strip();
  }

  /**
   * The repository part of an image reference.
   *
   * @param image e.g. {@code registry.k8s.io/etcd:3.5.15-0}
   * @return e.g. {@code registry.k8s.io/etcd}
   */
  public static String repository(String image) {
    int at = image.indexOf('@');
    if (at >= 0) {
      return image.substring(0, at);
    }
    int colon = image.lastIndexOf(':');
    return colon > image.lastIndexOf('/') ? image.substring(0, colon) : image;
  }

  /**
   * The tag (or digest) of an image reference; {@code latest} when it has none.
   *
   * @param image e.g. {@code registry.k8s.io/etcd:3.5.15-0}
   * @return e.g. {@code 3.5.15-0}
   */
  public static String tag(String image) {
    int at = image.indexOf('@');
    if (at >= 0) {
      return image.substring(at + 1);
    }
    int colon = image.lastIndexOf(':');
    return colon > image.lastIndexOf('/') ? image.substring(colon + 1) : "latest";
  }
}
