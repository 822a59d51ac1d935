package dev.ctk.junit;

import dev.ctk.envtest.ApiServer;
import dev.ctk.envtest.CrdInstaller;
import dev.ctk.envtest.EnvtestException;
import dev.ctk.envtest.SharedApiServers;
import dev.ctk.envtest.TestNamespaces;
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
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real API servers of this JVM, as the extension uses them: one per {@link ServerConfig#key()}
 * (through {@link SharedApiServers}, which logs cold start and reuse times at INFO), each with one
 * admin client and one {@link TestNamespaces}, each CRD installed on a server once (created, or
 * updated when it exists; uninstalled when the JVM ends only with {@code ctk.uninstall-crds=true}),
 * and whether a mode is available.
 */
final class RealServers {

  private static final Logger LOG = LoggerFactory.getLogger(RealServers.class);
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** What this JVM holds for each server, by server key. */
  private static final Map<String, Handle> HANDLES = new ConcurrentHashMap<>();

  private RealServers() {}

  /**
   * One server and what the extension keeps for it.
   *
   * @param server the shared server
   * @param admin an admin client, open until the JVM ends
   * @param namespaces creates and deletes test namespaces through {@code admin}
   * @param installed CRD sources already installed: location texts and CRD object identities
   */
  record Handle(ApiServer server, KubernetesClient admin, TestNamespaces namespaces,
      Set<String> installed) {}

  /**
   * The shared server of {@code config}, started on first use.
   *
   * @throws EnvtestException when it cannot be had (the same message for every later caller)
   */
  static ApiServer server(ServerConfig config) {
    return SharedApiServers.get(config.key(), config::start);
  }

  /** The server of {@code config} with its admin client and namespaces. */
  static Handle handle(ServerConfig config) {
    return HANDLES.computeIfAbsent(config.key(), key -> {
      ApiServer server = server(config);
      KubernetesClient admin = server.newClient();
      return new Handle(server, admin, TestNamespaces.builder(admin)
          .withClusterControllers(server.runsClusterControllers()).build(),
          ConcurrentHashMap.newKeySet());
    });
  }

  /**
   * Enabled when the server of {@code config} can be had (starting it if needed), or when it cannot
   * but {@code ctk.require-envtest=true} (the test then fails with the reason); disabled otherwise,
   * with the reason: what was tried and the fix.
   *
   * @param askShared whether to ask {@link SharedApiServers} even when this JVM already holds the
   *     server (it logs "reused" with the time: once per class, not for every test)
   */
  static ConditionEvaluationResult availability(ServerConfig config, boolean askShared) {
    Handle held = HANDLES.get(config.key());
    if (held != null && !askShared) {
      return ConditionEvaluationResult.enabled(config.mode().configName() + " mode: "
          + held.server().description());
    }
    try {
      ApiServer server = server(config);
      return ConditionEvaluationResult.enabled(config.mode().configName() + " mode: "
          + server.description());
    } catch (EnvtestException e) {
      if (config.required()) {
        return ConditionEvaluationResult.enabled(config.mode().configName() + " mode is not "
            + "available and ctk.require-envtest=true: the test fails with the reason");
      }
      return ConditionEvaluationResult.disabled(e.getMessage());
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
  static void installCrds(Handle handle, ServerConfig config, List<ResourceLocation> files,
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
        Runtime.getRuntime().addShutdownHook(new Thread(() -> uninstall(installer, handle),
            "ctk-uninstall-crds"));
      }
      installed.addAll(identities);
    }
  }

  private static void uninstall(CrdInstaller installer, Handle handle) {
    try {
      installer.uninstall();
    } catch (RuntimeException e) {
      LOG.warn("could not uninstall CRDs {} from {} (ctk.uninstall-crds=true): {}",
          installer.names(), handle.server().description(), e.getMessage());
    }
  }

  /** CRD objects (from the builder or a seed file) as one temporary YAML file for the installer. */
  private static Path writeYaml(List<CustomResourceDefinition> crds) {
    try {
      Path file = Files.createTempFile("ctk-crds-", ".yaml");
      file.toFile().deleteOnExit();
      StringBuilder yaml = new StringBuilder();
      for (CustomResourceDefinition crd : crds) {
        CustomResourceDefinition copy = ClusterSpec.copy(crd);
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
          + "installer: " + e.getMessage() + ". Fix: make java.io.tmpdir writable.", e);
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
