package dev.ctk.envtest;

import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.internal.NamespaceDeletion;
import dev.ctk.envtest.internal.Poll;
import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fresh namespace per test on a real API server, and its cleanup. Names look like {@code
 * ctk-<test name, sanitized, at most 40 characters>-<5 random [a-z0-9]>}, e.g. {@code
 * ctk-widgettest-creates-a-service-k3x9q}; each namespace carries the label {@code
 * app.kubernetes.io/managed-by=ctk} and the test's name in the annotation {@code ctk.dev/test}.
 *
 * <pre>{@code
 * try (TestNamespaces namespaces = TestNamespaces.forServer(server)) {
 *   String namespace = namespaces.create("WidgetTest#creates_a_service()");
 *   // ... the test, in that namespace ...
 *   namespaces.delete(namespace);          // or leave it to close()
 * }
 * }</pre>
 *
 * <p>Cleanup depends on the server. With cluster controllers ({@link
 * ApiServer#runsClusterControllers()}: k3s, a real cluster) it deletes the namespace and returns:
 * the namespace controller empties it. Without them (a bare kube-apiserver) a deleted namespace
 * would stay {@code Terminating} forever, so it deletes the namespace's contents itself (every
 * namespaced resource type that supports delete-collection, grace period 0, finalizers of what
 * is left removed), deletes the namespace, removes the {@code kubernetes} finalizer through the
 * {@code /finalize} subresource, and waits (bounded by the cleanup timeout) until it is gone.
 * Cleanup never throws: a slow or failed cleanup is logged as a warning, so that it never fails a
 * test. Thread-safe.
 *
 * @since 0.1.0
 */
public final class TestNamespaces implements AutoCloseable {

  /** The label every namespace created here carries, with value {@code ctk}. */
  public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";

  /** The annotation holding the test name a namespace was created for. */
  public static final String TEST_ANNOTATION = "ctk.dev/test";

  private static final Logger LOG = LoggerFactory.getLogger(TestNamespaces.class);
  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
  private static final int MAX_TEST_PART = 40;
  private static final RandomGenerator RANDOM = new SecureRandom();

  private final KubernetesClient client;
  private final boolean ownsClient;
  private final boolean clusterControllers;
  private final Duration cleanupTimeout;
  private final Set<String> created = new LinkedHashSet<>();
  private final NamespaceDeletion deletion;

  private TestNamespaces(
      KubernetesClient client, boolean ownsClient, boolean clusterControllers, Duration cleanupTimeout) {
    this.client = client;
    this.ownsClient = ownsClient;
    this.clusterControllers = clusterControllers;
    this.cleanupTimeout = cleanupTimeout;
    this.deletion = new NamespaceDeletion(client);
  }

  /**
   * Namespaces on {@code server}, through a client of its own (closed by {@link #close()}), with
   * the cleanup that suits {@link ApiServer#runsClusterControllers()} and a 30s cleanup timeout.
   *
   * @param server the server
   * @return the namespaces helper
   */
  public static TestNamespaces forServer(ApiServer server) {
    return new TestNamespaces(
        server.newClient(), true, server.runsClusterControllers(), Duration.ofSeconds(30));
  }

  /**
   * A builder for namespaces through {@code client} (not closed by this class).
   *
   * @param client an admin client
   * @return a new builder
   */
  public static Builder builder(KubernetesClient client) {
    return new Builder(Objects.requireNonNull(client, "client"));
  }

  /**
   * The namespace name for a test: {@code ctk-}, the test name in lower case with every run of
   * other characters than {@code [a-z0-9]} turned into one {@code -} (at most 40 characters;
   * {@code test} if nothing is left), {@code -}, and 5 random {@code [a-z0-9]}.
   *
   * @param testName e.g. {@code WidgetTest#creates_a_service()}
   * @return e.g. {@code ctk-widgettest-creates-a-service-k3x9q}
   */
  public static String nameFor(String testName) {
    return nameFor(testName, RANDOM);
  }

  static String nameFor(String testName, RandomGenerator random) {
    String sanitized =
        testName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    if (sanitized.length() > MAX_TEST_PART) {
      sanitized = sanitized.substring(0, MAX_TEST_PART).replaceAll("-+$", "");
    }
    if (sanitized.isEmpty()) {
      sanitized = "test";
    }
    StringBuilder suffix = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      suffix.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return "ctk-" + sanitized + "-" + suffix;
  }

  /**
   * Creates a new namespace for a test (a new random suffix if the name is taken).
   *
   * @param testName the test's name, e.g. its display name or {@code Class#method()}
   * @return the namespace name
   * @throws EnvtestException if the server refuses to create it
   */
  public String create(String testName) {
    Objects.requireNonNull(testName, "testName");
    KubernetesClientException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      String name = nameFor(testName);
      try {
        client
            .namespaces()
            .resource(
                new NamespaceBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .addToLabels(MANAGED_BY_LABEL, "ctk")
                    .addToAnnotations(TEST_ANNOTATION, testName)
                    .endMetadata()
                    .build())
            .create();
        synchronized (created) {
          created.add(name);
        }
        return name;
      } catch (KubernetesClientException e) {
        last = e;
        if (e.getCode() != 409) {
          break;
        }
      }
    }
    throw new EnvtestException(
        "Could not create a namespace for test \""
            + testName
            + "\" at "
            + client.getMasterUrl()
            + ": "
            + Poll.describe(last)
            + ". The identity needs permission to create namespaces (cluster-admin on an existing"
            + " cluster).",
        last);
  }

  /**
   * Deletes a namespace and what is in it; never throws (problems are logged as warnings).
   *
   * @param namespace the namespace
   */
  public void delete(String namespace) {
    long start = System.nanoTime();
    synchronized (created) {
      created.remove(namespace);
    }
    try {
      if (clusterControllers) {
        client.namespaces().withName(namespace).delete();
        LOG.debug("deleted namespace {}; the namespace controller empties it", namespace);
        return;
      }
      List<String> problems = deletion.deleteWithoutControllers(namespace);
      String left = awaitGone(namespace, start);
      if (left != null || !problems.isEmpty()) {
        LOG.warn(
            "cleanup of namespace {} incomplete after {}{}{}. Later tests are not affected (each"
                + " has its own namespace); delete it by hand if it bothers you.",
            namespace,
            DurationText.since(start),
            left == null ? "" : ": " + left,
            problems.isEmpty() ? "" : "; problems: " + String.join("; ", problems));
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "cleanup of namespace {} failed after {}: {}",
          namespace,
          DurationText.since(start),
          Poll.describe(e));
    }
  }

  /** Deletes the namespaces created here and not yet deleted; closes the own client, if any. */
  @Override
  public void close() {
    List<String> remaining;
    synchronized (created) {
      remaining = new ArrayList<>(created);
    }
    for (String namespace : remaining) {
      delete(namespace);
    }
    if (ownsClient) {
      client.close();
    }
  }

  private String awaitGone(String namespace, long start) {
    long deadline = start + cleanupTimeout.toNanos();
    while (true) {
      io.fabric8.kubernetes.api.model.Namespace current = client.namespaces().withName(namespace).get();
      if (current == null) {
        return null;
      }
      if (System.nanoTime() - deadline >= 0) {
        return "still there after the cleanup timeout "
            + DurationText.of(cleanupTimeout)
            + " (phase "
            + (current.getStatus() == null ? "?" : current.getStatus().getPhase())
            + ", finalizers "
            + (current.getSpec() == null ? "[]" : current.getSpec().getFinalizers())
            + ")";
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return "interrupted while waiting for it to disappear";
      }
    }
  }

  /**
   * Configures {@link TestNamespaces} on a client the caller owns.
   *
   * <pre>{@code
   * TestNamespaces namespaces = TestNamespaces.builder(client)
   *     .withClusterControllers(server.runsClusterControllers())
   *     .withCleanupTimeout(Duration.ofSeconds(10))
   *     .build();
   * }</pre>
   *
   * @since 0.1.0
   */
  public static final class Builder {

    private final KubernetesClient client;
    private boolean clusterControllers;
    private Duration cleanupTimeout = Duration.ofSeconds(30);
    private boolean built;

    private Builder(KubernetesClient client) {
      this.client = client;
    }

    /**
     * Whether a namespace controller runs on the server (default {@code false}: ctk empties and
     * finalizes deleted namespaces itself, which works on any server).
     *
     * @param clusterControllers as {@link ApiServer#runsClusterControllers()} says
     * @return this builder
     */
    public Builder withClusterControllers(boolean clusterControllers) {
      this.clusterControllers = clusterControllers;
      return this;
    }

    /**
     * How long {@link TestNamespaces#delete(String)} waits for a namespace to disappear on a
     * server without controllers (default 30s).
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder withCleanupTimeout(Duration timeout) {
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException(
            "withCleanupTimeout: a positive duration is required, got " + timeout);
      }
      this.cleanupTimeout = timeout;
      return this;
    }

    /**
     * The configured helper.
     *
     * @return the namespaces helper
     * @throws IllegalStateException if called twice
     */
    public TestNamespaces build() {
      if (built) {
        throw new IllegalStateException(
            "build() was already called on this builder; start a new one with TestNamespaces.builder(client).");
      }
      built = true;
      return new TestNamespaces(client, false, clusterControllers, cleanupTimeout);
    }
  }
}
