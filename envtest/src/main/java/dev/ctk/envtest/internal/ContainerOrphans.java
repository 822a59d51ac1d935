package dev.ctk.envtest.internal;

import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Network;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which JVM owns a container: labels with the host name, the pid and the JVM's start time, and
 * the removal of what a JVM on this host left behind when it was killed (SIGKILL: no close(), no
 * shutdown hook) on a machine without Ryuk.
 *
 * <pre>{@code
 * labels.putAll(ContainerOrphans.ownerLabels());
 * ContainerOrphans.removeOrphans(docker);   // at the next start
 * }</pre>
 *
 * <p>Limits: only containers created on the same host (same host name, same pid namespace) are
 * judged; a container created by a JVM in another container, or on another machine sharing the
 * Docker engine, is left alone; a host without a name ({@code HOSTNAME} unset and no
 * {@code /proc/sys/kernel/hostname}, as on macOS) judges none. A JVM's start time is compared within 2 s.
 */
public final class ContainerOrphans {

  /** Label naming the host of the JVM that created a container or network. */
  public static final String HOST_LABEL = "dev.ctk.envtest.host";

  /** Label holding the pid of the JVM that created a container or network. */
  public static final String PID_LABEL = "dev.ctk.envtest.pid";

  /** Label holding when that JVM started (epoch milliseconds), to tell a reused pid apart. */
  public static final String JVM_STARTED_LABEL = "dev.ctk.envtest.jvm-started";

  private static final Logger LOG = LoggerFactory.getLogger(ContainerOrphans.class);
  private static final String UNKNOWN = "unknown";
  private static final String HOST = hostName();
  private static final String JVM_STARTED = jvmStarted(ProcessHandle.current());

  private ContainerOrphans() {}

  /**
   * The labels that name this JVM as the owner.
   *
   * @return host, pid and start time labels
   */
  public static Map<String, String> ownerLabels() {
    return Map.of(
        HOST_LABEL, HOST,
        PID_LABEL, Long.toString(ProcessHandle.current().pid()),
        JVM_STARTED_LABEL, JVM_STARTED);
  }

  /**
   * Removes the containers and networks that a JVM on this host created and that outlived it
   * (killed with SIGKILL, so that neither close() nor a shutdown hook ran, and no Ryuk was there
   * to reap them). A container counts as orphaned when its {@link #PID_LABEL} names no live
   * process here, or a process that started at another time (a reused pid). Never throws.
   *
   * @param docker the engine
   * @return the names of the containers removed
   */
  public static List<String> removeOrphans(ContainerDocker docker) {
    List<String> removed = new ArrayList<>();
    if (UNKNOWN.equals(HOST)) {
      // every host without a name would look like this one: containers of JVMs elsewhere would be judged here
      LOG.debug("not looking for containers left behind by dead JVMs: this host has no name");
      return removed;
    }
    try {
      Set<String> orphanedServers = new LinkedHashSet<>();
      for (Container container :
          docker
              .client()
              .listContainersCmd()
              .withShowAll(true)
              .withLabelFilter(Map.of(ContainerDocker.LABEL, "true", HOST_LABEL, HOST))
              .exec()) {
        Map<String, String> labels = container.getLabels();
        if (labels == null || !isOrphan(labels.get(PID_LABEL), labels.get(JVM_STARTED_LABEL))) {
          continue;
        }
        docker.removeContainer(container.getId());
        String[] names = container.getNames();
        removed.add(names == null || names.length == 0 ? container.getId() : names[0].replaceFirst("^/", ""));
        if (labels.get(ContainerDocker.SERVER_LABEL) != null) {
          orphanedServers.add(labels.get(ContainerDocker.SERVER_LABEL));
        }
      }
      for (Network network :
          docker
              .client()
              .listNetworksCmd()
              .withFilter("label", List.of(ContainerDocker.LABEL + "=true", HOST_LABEL + "=" + HOST))
              .exec()) {
        Map<String, String> labels = network.getLabels();
        if (labels != null
            && (orphanedServers.contains(labels.get(ContainerDocker.SERVER_LABEL))
                || isOrphan(labels.get(PID_LABEL), labels.get(JVM_STARTED_LABEL)))) {
          docker.removeNetwork(network.getId());
        }
      }
      if (!removed.isEmpty()) {
        LOG.info("removed {} left behind by JVMs that died without cleaning up", removed);
      }
    } catch (RuntimeException e) {
      LOG.warn("could not look for containers left behind by dead JVMs: {}", ContainerDocker.rootMessage(e));
    }
    return removed;
  }

  /**
   * Whether a pid label names a JVM that is gone.
   *
   * @param pid the {@link #PID_LABEL} value
   * @param started the {@link #JVM_STARTED_LABEL} value
   * @return true if no such process runs here, or one that started at another time
   */
  public static boolean isOrphan(String pid, String started) {
    if (pid == null || started == null || UNKNOWN.equals(started)) {
      return false;
    }
    long number;
    long startedMillis;
    try {
      number = Long.parseLong(pid);
      startedMillis = Long.parseLong(started);
    } catch (NumberFormatException e) {
      return false;
    }
    return ProcessHandle.of(number).map(process -> process.info().startInstant()
            .map(now -> !ProcessStarts.same(Instant.ofEpochMilli(startedMillis), now)).orElse(false))
        .orElse(true);
  }

  private static String jvmStarted(ProcessHandle process) {
    return process.info().startInstant().map(i -> Long.toString(i.toEpochMilli())).orElse(UNKNOWN);
  }

  private static String hostName() {
    String fromEnvironment = System.getenv("HOSTNAME");
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return fromEnvironment.strip();
    }
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    } catch (IOException | RuntimeException e) {
      return UNKNOWN;
    }
  }
}
