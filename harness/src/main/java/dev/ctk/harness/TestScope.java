package dev.ctk.harness;

import dev.ctk.controller.VirtualTime;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.internal.ClusterSpec;
import dev.ctk.harness.internal.Resolved;
import dev.ctk.harness.internal.realserver.RealServers;
import dev.ctk.harness.internal.realserver.ResourceLocation;
import dev.ctk.harness.internal.realserver.ServerConfig;
import dev.ctk.harness.internal.timeline.FailureReport;
import dev.ctk.harness.internal.timeline.TimelineRecorder;
import dev.ctk.harness.values.FailureContext;
import dev.ctk.harness.values.HarnessConfigurationException;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import dev.ctk.harness.values.TestCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;


/**
 * What one test, or one class of a per-class scope, holds: a {@link TestCluster} (a fake cluster or a namespace on a
 * real server; owned, or borrowed from the enclosing class scope) and a {@link ControllerHarness} whose parent is the
 * enclosing scope's harness. Closing it closes first the harness's controllers, then an owned cluster; a borrowed
 * cluster stays open for the scope that owns it.
 *
 * <p>This is ctk without a test framework: JUnit's {@code @ControllerTest} makes one per test, and any other framework
 * (Spock, TestNG, a plain {@code main}) can make its own with {@link #builder()}:
 *
 * <pre>{@code
 * try (TestScope scope = TestScope.builder().withCrds("crds/webapp.yaml").start()) {
 *   ControllerHarness harness = scope.harness();
 *   Controller controller = harness.start(WebAppController.create(harness.client()));
 *   ...
 *   assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
 * } catch (AssertionError e) {   // or wherever the framework learns that the test failed
 *   ...
 * }
 * }</pre>
 *
 * <p>{@link #reportFailure(FailureContext)} prints what the JUnit extension reports for a failed test: where it ran,
 * each controller's state and the failure timeline (with its HTML page).
 *
 * @since 0.1.0
 */
public final class TestScope implements AutoCloseable {

  private final TestCluster cluster;
  private final boolean ownsCluster;
  private final ControllerHarness harness;
  private final TimelineRecorder timeline;
  /** The real-server run this scope opened itself (builder scopes in a real mode), closed with it. */
  private RealServers.Run run;

  private TestScope(TestCluster cluster, boolean ownsCluster, TestScope enclosing) {
    this.cluster = cluster;
    this.ownsCluster = ownsCluster;
    this.harness = new ControllerHarness(cluster, enclosing == null ? null : enclosing.harness);
    this.timeline = new TimelineRecorder(cluster, enclosing == null ? null : enclosing.timeline);
    harness.onStart(timeline::attach);
  }

  /**
   * A scope that owns a cluster and closes it after its controllers (for test-framework adapters).
   *
   * @param cluster the cluster
   * @return the scope
   */
  public static TestScope owning(TestCluster cluster) {
    return new TestScope(cluster, true, null);
  }

  /**
   * A scope inside {@code enclosing}: same cluster, its own harness listing the enclosing one's (for test-framework
   * adapters: a test inside a class that shares one cluster).
   *
   * @param enclosing the enclosing scope
   * @return the scope
   */
  public static TestScope borrowing(TestScope enclosing) {
    return new TestScope(enclosing.cluster, false, enclosing);
  }

  /**
   * What the scope runs against.
   *
   * @return the cluster
   */
  public TestCluster cluster() {
    return cluster;
  }

  /**
   * The scope's harness: start controllers here; they are closed with the scope.
   *
   * @return the harness
   */
  public ControllerHarness harness() {
    return harness;
  }

  /** What this scope records for its failure timeline. */
  TimelineRecorder timeline() {
    return timeline;
  }

  /**
   * Reports this scope for a failed test, as the JUnit extension does: where it ran, each controller's state and the
   * failure timeline, as report entries of {@code context} and on standard error, with the HTML timeline written to
   * {@link FailureContext#reportFile()}. Call it before {@link #close()}. Never throws for a view or a source that
   * cannot be read.
   *
   * @param context the failed test
   */
  public void reportFailure(FailureContext context) {
    FailureReport.publish(context, cluster(), harness().views(), timeline);
  }

  /**
   * Starts building a scope that owns a cluster of its own: a fake cluster by default.
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Closes the harness's controllers and resources, then the cluster if this scope owns it, then the real-server run
   * it opened: each even if an earlier one failed, whatever it threw (an {@link Error} such as a failed assertion
   * too). The first failure is thrown as it is, the later ones added to it as suppressed.
   */
  @Override
  public void close() {
    Throwable failure = closing(null, harness::close);
    if (ownsCluster) {
      failure = closing(failure, cluster::close);
    }
    if (run != null) {
      failure = closing(failure, run::close);
    }
    ControllerHarness.rethrow(failure);
  }

  /** Runs one step of {@link #close()}; returns the first failure so far, a later one added to it as suppressed. */
  private static Throwable closing(Throwable failure, Runnable step) {
    try {
      step.run();
      return failure;
    } catch (Throwable e) {
      if (failure == null) {
        return e;
      }
      if (e != failure) {
        failure.addSuppressed(e);
      }
      return failure;
    }
  }

  /**
   * Builds a {@link TestScope} without a test framework. Files are paths, or {@code classpath:} resources; CRDs are
   * installed before objects are seeded. Not thread-safe.
   *
   * @since 0.1.0
   */
  public static final class Builder {

    private Mode mode = Mode.FAKE;
    private ServerConfig server;
    private final List<ResourceLocation> crds = new ArrayList<>();
    private final List<ResourceLocation> resources = new ArrayList<>();
    private final List<CustomResourceDefinition> crdObjects = new ArrayList<>();
    private final List<HasMetadata> objects = new ArrayList<>();
    private UnaryOperator<FakeCluster.Builder> customizer = UnaryOperator.identity();
    private boolean virtualTime;
    private String name = "scope";

    private Builder() {}

    /**
     * Runs against a fake cluster (the default), or a real server found as JUnit's modes find it with default
     * settings: {@link Mode#ENVTEST} (binaries from {@code KUBEBUILDER_ASSETS} or the envtest cache), {@link
     * Mode#CONTAINER} (the default images), {@link Mode#EXISTING_CLUSTER} (the default kubeconfig's current context).
     *
     * @param mode the mode; not {@link Mode#DEFAULT}
     * @return this builder
     */
    public Builder withMode(Mode mode) {
      Objects.requireNonNull(mode, "mode");
      if (mode == Mode.DEFAULT) {
        throw new IllegalArgumentException("Mode.DEFAULT is JUnit's 'not set here'; a TestScope needs a mode: "
            + "FAKE, ENVTEST, CONTAINER or EXISTING_CLUSTER.");
      }
      this.mode = mode;
      this.server = mode.isReal()
          ? new ServerConfig(mode, null, null, null, null, null, null, null, null, false, false) : null;
      return this;
    }

    /**
     * CRD files to install first: paths, or {@code classpath:} resources.
     *
     * @param locations the files
     * @return this builder
     */
    public Builder withCrds(String... locations) {
      for (String location : locations) {
        crds.add(ResourceLocation.parse(location, "TestScope.builder().withCrds", ResourceLocation.defaultLoader(),
            HarnessConfigurationException::new));
      }
      return this;
    }

    /**
     * CRDs to install first.
     *
     * @param definitions the CRDs; copied
     * @return this builder
     */
    public Builder withCrds(CustomResourceDefinition... definitions) {
      crdObjects.addAll(ClusterSpec.copies(List.of(definitions)));
      return this;
    }

    /**
     * Object files to seed: paths, or {@code classpath:} resources.
     *
     * @param locations the files
     * @return this builder
     */
    public Builder withResources(String... locations) {
      for (String location : locations) {
        resources.add(ResourceLocation.parse(location, "TestScope.builder().withResources",
            ResourceLocation.defaultLoader(), HarnessConfigurationException::new));
      }
      return this;
    }

    /**
     * Objects to seed.
     *
     * @param seeded the objects; copied
     * @return this builder
     */
    public Builder withObjects(HasMetadata... seeded) {
      objects.addAll(ClusterSpec.copies(List.of(seeded)));
      return this;
    }

    /**
     * Changes the fake cluster's builder last (fake mode only), e.g. {@code b -> b.withKubernetesVersion("1.34")}.
     *
     * @param customizer returns the builder it was given
     * @return this builder
     */
    public Builder customizeFakeCluster(UnaryOperator<FakeCluster.Builder> customizer) {
      this.customizer = Objects.requireNonNull(customizer, "customizer");
      return this;
    }

    /**
     * Gives the scope a fresh {@link VirtualTime} ({@link TestCluster#virtualTime()}).
     *
     * @return this builder
     */
    public Builder withVirtualTime() {
      this.virtualTime = true;
      return this;
    }

    /**
     * Names the scope: a real mode's namespace is named after it.
     *
     * @param scopeName e.g. the test's name
     * @return this builder
     */
    public Builder withName(String scopeName) {
      this.name = Objects.requireNonNull(scopeName, "scopeName");
      return this;
    }

    /**
     * Starts the cluster (or, in a real mode, the shared server and a fresh namespace on it), seeds it, and returns
     * the scope that owns it.
     *
     * @return the scope; close it when the test ends
     * @throws HarnessConfigurationException for a file that cannot be read or an object that cannot be seeded
     * @throws dev.ctk.envtest.values.EnvtestException when a real mode's server cannot be had
     */
    public TestScope start() {
      String origin = "TestScope.builder() (" + name + ")";
      ClusterSpec spec = new ClusterSpec(new Resolved<>(mode, origin), server,
          new Resolved<>(Isolation.PER_METHOD, origin), crds, resources, crdObjects, objects, customizer,
          virtualTime, origin);
      RealServers.Run[] opened = new RealServers.Run[1];
      TestCluster cluster;
      try {
        cluster = spec.start(name, () -> opened[0] = RealServers.openRun());
      } catch (RuntimeException e) {
        if (opened[0] != null) {
          opened[0].close();
        }
        throw e;
      }
      TestScope scope = owning(cluster);
      scope.run = opened[0];
      return scope;
    }
  }
}
