package dev.ctk.envtest;

import dev.ctk.envtest.internal.CrdDocuments;
import dev.ctk.envtest.internal.CrdReadiness;
import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Installs CustomResourceDefinitions into a real API server and waits until they can be used:
 * condition {@code Established=True} and every served version listed by discovery (never a fixed
 * sleep). An existing CRD of the same name is updated in place, and left on uninstall: {@link
 * #uninstall()} deletes only the CRDs that {@link #install()} created and waits until they are
 * gone; {@link #close()} does so when {@link Builder#withUninstallOnClose(boolean)} asked for it.
 *
 * <pre>{@code
 * try (KubernetesClient client = server.newClient();
 *      CrdInstaller crds = CrdInstaller.builder(client)
 *          .withPaths(Path.of("src/test/resources/crds"))      // every .yaml/.yml/.json, sorted
 *          .withSources("classpath:crds/widget.yaml")
 *          .withUninstallOnClose(true)
 *          .build()) {
 *   crds.install();                                            // ["widgets.example.com", ...]
 *   // use the custom resources
 * }
 * }</pre>
 *
 * <p>{@link Builder#build()} reads and checks every document before the server is touched: a
 * missing file, YAML with a typo (the message names the file, the document and the parser's line
 * and column), or any object that is not an {@code apiextensions.k8s.io/v1
 * CustomResourceDefinition} fails there with an {@link EnvtestException}. Not thread-safe: one
 * installer per server, used from one thread.
 *
 * @since 0.1.0
 */
public final class CrdInstaller implements AutoCloseable {

  private final KubernetesClient client;
  private final List<CrdDocuments.Crd> crds;
  private final Duration timeout;
  private final boolean uninstallOnClose;
  private final List<String> created = new ArrayList<>();

  private CrdInstaller(
      KubernetesClient client, List<CrdDocuments.Crd> crds, Duration timeout, boolean uninstallOnClose) {
    this.client = client;
    this.crds = crds;
    this.timeout = timeout;
    this.uninstallOnClose = uninstallOnClose;
  }

  /**
   * A builder for CRDs installed through {@code client} (which the installer does not close).
   *
   * @param client an admin client of the target server
   * @return a new builder
   */
  public static Builder builder(KubernetesClient client) {
    return new Builder(Objects.requireNonNull(client, "client"));
  }

  /**
   * The names of the CRDs this installer holds, in source order.
   *
   * @return names such as {@code widgets.example.com}
   */
  public List<String> names() {
    return crds.stream().map(CrdDocuments.Crd::name).toList();
  }

  /**
   * Creates each CRD, or updates it in place when one of that name exists (such a CRD is not
   * deleted by {@link #uninstall()}), then waits until every one is {@code Established} and served.
   *
   * @return the names of the CRDs installed, in source order
   * @throws EnvtestException if the server refuses a CRD (the message says which, from where, and
   *     the server's reason), another CRD already uses its names, or it is not served within the
   *     timeout
   */
  public List<String> install() {
    long start = System.nanoTime();
    CrdReadiness readiness = new CrdReadiness(client, timeout);
    for (CrdDocuments.Crd crd : crds) {
      if (readiness.createOrUpdate(crd) && !created.contains(crd.name())) {
        created.add(crd.name());
      }
    }
    for (CrdDocuments.Crd crd : crds) {
      readiness.awaitServed(crd, start);
    }
    return names();
  }

  /**
   * Deletes the CRDs that {@link #install()} created (their custom resources go with them) and
   * waits until they are gone; CRDs that existed before and were only updated stay. Does nothing if
   * nothing was created.
   *
   * @throws EnvtestException if a CRD is still there after the timeout
   */
  public void uninstall() {
    if (created.isEmpty()) {
      return;
    }
    new CrdReadiness(client, timeout).deleteAndAwaitGone(List.copyOf(created));
    created.clear();
  }

  /**
   * Uninstalls when {@link Builder#withUninstallOnClose(boolean)} asked for it; otherwise leaves
   * the CRDs in place (e.g. on a server shared by several test classes).
   */
  @Override
  public void close() {
    if (uninstallOnClose) {
      uninstall();
    }
  }

  @Override
  public String toString() {
    return "CrdInstaller" + names();
  }

  /**
   * Collects CRD sources; {@link #build()} reads and checks them.
   *
   * <pre>{@code
   * CrdInstaller crds = CrdInstaller.builder(client)
   *     .withPaths(Path.of("config/crd/bases"))
   *     .withClasspathResources("crds/widget.yaml")
   *     .withTimeout(Duration.ofSeconds(60))
   *     .build();
   * }</pre>
   *
   * @since 0.1.0
   */
  public static final class Builder {

    private final KubernetesClient client;
    private final List<String> sources = new ArrayList<>();
    private Duration timeout = Duration.ofSeconds(30);
    private boolean uninstallOnClose;
    private boolean built;

    private Builder(KubernetesClient client) {
      this.client = client;
    }

    /**
     * Files, or folders whose {@code .yaml}, {@code .yml} and {@code .json} files are read in
     * name order (one level, no sub-folders).
     *
     * @param paths files or folders
     * @return this builder
     */
    public Builder withPaths(Path... paths) {
      for (Path path : paths) {
        sources.add(Objects.requireNonNull(path, "path").toString());
      }
      return this;
    }

    /**
     * Classpath resources, e.g. {@code crds/widget.yaml} (from {@code src/test/resources}).
     *
     * @param resources resource names
     * @return this builder
     */
    public Builder withClasspathResources(String... resources) {
      for (String resource : resources) {
        sources.add(CrdDocuments.CLASSPATH_PREFIX + Objects.requireNonNull(resource, "resource"));
      }
      return this;
    }

    /**
     * Sources as text: a path (file or folder), or {@code classpath:<resource>}.
     *
     * @param sources the sources
     * @return this builder
     */
    public Builder withSources(String... sources) {
      for (String source : sources) {
        this.sources.add(Objects.requireNonNull(source, "source"));
      }
      return this;
    }

    /**
     * How long installing (until every CRD is served) and uninstalling (until every CRD is gone)
     * may take (default 30s).
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder withTimeout(Duration timeout) {
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("withTimeout: a positive duration is required, got " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /**
     * Whether {@link CrdInstaller#close()} uninstalls (default {@code false}).
     *
     * @param uninstall true to uninstall on close
     * @return this builder
     */
    public Builder withUninstallOnClose(boolean uninstall) {
      this.uninstallOnClose = uninstall;
      return this;
    }

    /**
     * Reads and checks every source.
     *
     * @return the installer; nothing is installed yet
     * @throws EnvtestException if a source is missing, is not valid YAML, or holds anything but
     *     {@code apiextensions.k8s.io/v1} CRDs, or two documents define the same CRD
     * @throws IllegalStateException if called twice or without any source
     */
    public CrdInstaller build() {
      if (built) {
        throw new IllegalStateException(
            "build() was already called on this builder; start a new one with CrdInstaller.builder(client).");
      }
      if (sources.isEmpty()) {
        throw new IllegalStateException(
            "CrdInstaller has no CRDs: add files or folders with withPaths(..), classpath"
                + " resources with withClasspathResources(..), or withSources(..).");
      }
      built = true;
      Map<String, CrdDocuments.Crd> byName = new LinkedHashMap<>();
      for (String source : sources) {
        for (CrdDocuments.Crd crd : CrdDocuments.read(source)) {
          CrdDocuments.Crd earlier = byName.putIfAbsent(crd.name(), crd);
          if (earlier != null) {
            throw new EnvtestException(
                "Cannot install CRDs: CRD "
                    + crd.name()
                    + " is defined twice, in "
                    + earlier.where()
                    + " and in "
                    + crd.where()
                    + ". Keep one of them.");
          }
        }
      }
      return new CrdInstaller(client, List.copyOf(byName.values()), timeout, uninstallOnClose);
    }
  }
}
