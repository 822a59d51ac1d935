package dev.ctk.harness.internal.realserver;

import dev.ctk.controller.internal.ThrowableText;
import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.CrdInstaller;
import dev.ctk.envtest.SharedApiServers;
import dev.ctk.envtest.TestNamespaces;
import dev.ctk.envtest.values.EnvtestException;
import dev.ctk.envtest.values.EnvtestUnavailableException;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real API servers of this JVM, as the extension uses them: one per {@link ServerConfig#key()}
 * (through {@link SharedApiServers}, which logs cold start and reuse times at INFO), each with one
 * admin client and one {@link TestNamespaces}, each CRD installed on a server once per test run
 * (created, or updated when it exists), and whether a mode is available.
 *
 * <p>Cleanup is ordered: the admin clients, the namespaces and, with {@code
 * ctk.uninstall-crds=true}, the CRDs installed are released when the last test run using them ends: a run is
 * what {@link #openRun()} returns, held by the caller until its tests end (JUnit: a value in the root context's
 * store, which JUnit closes before the JVM exits, so before the shutdown hook of {@link SharedApiServers} stops the
 * servers). A run that
 * does not end (Ctrl-C, SIGTERM) gets a best-effort JVM shutdown hook that uninstalls the CRDs; it
 * runs alongside the servers' own hook, so on a local or container server (which goes away anyway)
 * it may fail, with a warning; on an existing cluster, whose {@code close()} stops nothing, it
 * works.
 */
public final class RealServers {

  private static final Logger LOG = LoggerFactory.getLogger(RealServers.class);
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** Guards {@link #openRuns} and changes of {@link #HANDLES}. */
  private static final Object LOCK = new Object();

  /** What this JVM holds for each server, by server key; emptied when the last run ends. */
  private static final Map<String, Handle> HANDLES = new ConcurrentHashMap<>();

  /** Test runs (JUnit engine executions) that use handles and have not ended yet. */
  private static int openRuns;

  private static boolean shutdownHookAdded;

  private RealServers() {}

  /**
   * One server and what the extension keeps for it.
   *
   * @param server the shared server
   * @param admin an admin client, open until the last test run using it ends
   * @param namespaces creates and deletes test namespaces through {@code admin}
   * @param installed CRD sources already installed: location texts and CRD object identities
   * @param toUninstall installers of CRDs to uninstall when the run ends ({@code
   *     ctk.uninstall-crds=true})
   */
  public record Handle(ApiServer server, KubernetesClient admin, TestNamespaces namespaces,
      Set<String> installed, List<CrdInstaller> toUninstall) {}

  /**
   * The shared server of {@code config}, started on first use.
   *
   * @throws EnvtestException when it cannot be had (the same message for every later caller)
   */
  public static ApiServer server(ServerConfig config) {
    return SharedApiServers.get(config.key(), config::start);
  }

  /**
   * Opens a test run that uses real servers: what {@link #handle} gives stays until the last open run is closed.
   * Call it before the first {@link #handle} of the run, and close it once when the run's tests have ended.
   *
   * @return the run; closing it twice counts once
   */
  public static Run openRun() {
    synchronized (LOCK) {
      openRuns++;
      addShutdownHook();
      return new Run();
    }
  }

  /**
   * The server of {@code config} with its admin client and namespaces, held until every open {@link Run} is closed.
   *
   * @throws EnvtestException when the server cannot be had
   */
  public static Handle handle(ServerConfig config) {
    ApiServer server = server(config);
    synchronized (LOCK) {
      return HANDLES.computeIfAbsent(config.key(), key -> {
        KubernetesClient admin = server.newClient();
        return new Handle(server, admin, TestNamespaces.builder(admin)
            .withClusterControllers(server.runsClusterControllers()).build(),
            ConcurrentHashMap.newKeySet(), new CopyOnWriteArrayList<>());
      });
    }
  }

  /** A test run that uses real servers, see {@link #openRun()}; the last one closed cleans up. */
  public static final class Run implements AutoCloseable {

    private boolean closed;

    private Run() {}

    @Override
    public void close() {
      synchronized (LOCK) {
        if (closed) {
          return;
        }
        closed = true;
        if (--openRuns > 0) {
          return;
        }
        for (Handle handle : HANDLES.values()) {
          handle.namespaces().close();   // deletes any namespace a scope left (none, normally)
          uninstall(handle);
          handle.admin().close();
        }
        HANDLES.clear();
      }
    }
  }

  private static void addShutdownHook() {
    if (!shutdownHookAdded) {
      shutdownHookAdded = true;
      Runtime.getRuntime().addShutdownHook(new Thread(
          () -> HANDLES.values().forEach(RealServers::uninstall), "ctk-uninstall-crds"));
    }
  }

  /**
   * Enabled when the server of {@code config} can be had (starting it if needed), when it is not available
   * but {@code ctk.require-envtest=true}, or when it was found but failed to start (the test then fails with the
   * reason); disabled, with the reason (what was tried and the fix), when it is not available here
   * ({@link EnvtestUnavailableException}).
   *
   * @param askShared whether to ask {@link SharedApiServers} even when this JVM already holds the
   *     server (it logs "reused" with the time: once per class, not for every test)
   */
  public static Availability availability(ServerConfig config, boolean askShared) {
    Handle held = HANDLES.get(config.key());
    if (held != null && !askShared) {
      return Availability.enabled(config.mode().configName() + " mode: "
          + held.server().description());
    }
    try {
      ApiServer server = server(config);
      return Availability.enabled(config.mode().configName() + " mode: "
          + server.description());
    } catch (EnvtestUnavailableException e) {
      if (config.required()) {
        return Availability.enabled(config.mode().configName() + " mode is not "
            + "available and ctk.require-envtest=true: the test fails with the reason");
      }
      return Availability.disabled(e.getMessage());
    } catch (RuntimeException e) {
      // found but failing (exited at start, start timeout, ports taken, a bad value): skipping would hide it
      return broken(config);
    }
  }

  /**
   * A start that failed for another reason than a missing binary, Docker, image or kubeconfig (a server that
   * exits or times out at start, ports taken, a bug, an unusable value): every class fails with it, none is
   * skipped.
   */
  private static Availability broken(ServerConfig config) {
    return Availability.enabled(config.mode().configName() + " mode's server failed "
        + "to start for a reason other than the environment: the test fails with the reason");
  }

  /**
   * Whether tests of a real mode run: enabled with what they run on (or why they fail), or disabled with the reason
   * a server cannot be had and the fix.
   *
   * @param enabled whether the tests run
   * @param reason the reason, for the test report
   */
  public record Availability(boolean enabled, String reason) {

    public static Availability enabled(String reason) {
      return new Availability(true, reason);
    }

    public static Availability disabled(String reason) {
      return new Availability(false, reason);
    }
  }

  /**
   * Installs CRDs on the server of {@code handle} unless this JVM already installed them there, and
   * waits until each is Established and served.
   *
   * @param files CRD files ({@code crds = ...})
   * @param objects CRDs given as objects or found among the seeded resources
   * @throws EnvtestException naming the CRD, its source and the server's answer
   */
  public static void installCrds(Handle handle, ServerConfig config, List<ResourceLocation> files,
      List<CustomResourceDefinition> objects) {
    if (files.isEmpty() && objects.isEmpty()) {
      return;
    }
    Set<String> installed = handle.installed();
    synchronized (installed) {
      List<String> sources = new ArrayList<>();
      List<String> identities = new ArrayList<>();
      for (ResourceLocation file : files) {
        String identity = identity(file);
        if (!installed.contains(identity)) {
          sources.add(file.file() != null ? file.file().toString()
              : ResourceLocation.CLASSPATH_PREFIX + file.classpathResource());
          identities.add(identity);
        }
      }
      List<CustomResourceDefinition> newObjects = new ArrayList<>();
      for (CustomResourceDefinition crd : objects) {
        String identity = identity(crd);
        if (!installed.contains(identity)) {
          newObjects.add(crd);
          identities.add(identity);
        }
      }
      if (sources.isEmpty() && newObjects.isEmpty()) {
        return;
      }
      if (!newObjects.isEmpty()) {
        sources.add(writeYaml(newObjects).toString());
      }
      CrdInstaller installer = CrdInstaller.builder(handle.admin())
          .withSources(sources.toArray(String[]::new)).build();
      List<String> names = installer.install();
      LOG.debug("installed CRDs {} on {}", names, handle.server().description());
      if (config.uninstallCrds()) {
        handle.toUninstall().add(installer);
      }
      installed.addAll(identities);
    }
  }

  /** Uninstalls (once) the CRDs recorded for {@code handle}; a failure is logged, never thrown. */
  private static void uninstall(Handle handle) {
    for (CrdInstaller installer : handle.toUninstall()) {
      if (!handle.toUninstall().remove(installer)) {
        continue;
      }
      try {
        installer.uninstall();
      } catch (RuntimeException e) {
        LOG.warn("could not uninstall CRDs {} from {} (ctk.uninstall-crds=true): {}",
            installer.names(), handle.server().description(), e.getMessage());
      }
    }
  }

  /** CRD objects (from the builder or a seed file) as one temporary YAML file for the installer. */
  private static Path writeYaml(List<CustomResourceDefinition> crds) {
    try {
      Path file = Files.createTempFile("ctk-crds-", ".yaml");
      file.toFile().deleteOnExit();
      StringBuilder yaml = new StringBuilder();
      for (CustomResourceDefinition crd : crds) {
        CustomResourceDefinition copy = SERIALIZATION.clone(crd);
        copy.getMetadata().setResourceVersion(null);
        copy.setStatus(null);
        String document = SERIALIZATION.asYaml(copy);
        if (!document.startsWith("---")) {
          yaml.append("---\n");
        }
        yaml.append(document).append(document.endsWith("\n") ? "" : "\n");
      }
      Files.writeString(file, yaml);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the CRDs " + crds.stream()
          .map(c -> c.getMetadata().getName()).toList() + " to a temporary file for the CRD "
          + "installer: " + ThrowableText.firstLine(e.getMessage()) + ". Fix: make java.io.tmpdir "
          + "writable.", e);
    }
  }

  private static String identity(ResourceLocation file) {
    return file.file() != null ? "file:" + file.file()
        : ResourceLocation.CLASSPATH_PREFIX + file.classpathResource();
  }

  private static String identity(CustomResourceDefinition crd) {
    return "crd:" + crd.getMetadata().getName() + ":" + SERIALIZATION.asJson(crd).hashCode();
  }
}
