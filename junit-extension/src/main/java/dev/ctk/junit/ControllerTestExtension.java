package dev.ctk.junit;

import dev.ctk.controller.TimeSource;
import dev.ctk.controller.VirtualTime;
import dev.ctk.fake.EventInjector;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.PerturbationConfig;
import dev.ctk.harness.TestScope;
import dev.ctk.harness.internal.ClusterSpec;
import dev.ctk.harness.internal.realserver.RealServers;
import dev.ctk.harness.internal.realserver.ResourceLocation;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import dev.ctk.harness.values.TestCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeClassTemplateInvocationCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit Jupiter extension behind {@link ControllerTest @ControllerTest}: starts fake clusters (or,
 * in a real mode, fresh namespaces on a shared real kube-apiserver), injects {@code
 * KubernetesClient}, {@link FakeCluster}, {@link EventInjector}, {@link ControllerHarness}, {@link
 * TimeSource} and {@link VirtualTime} parameters, closes controllers and clusters after each test (or class), skips tests whose real
 * mode is not available (or fails them when {@code ctk.require-envtest=true}), and reports the
 * controllers' state, the mode, the server and the namespace when a test fails.
 *
 * <p>Use the annotation for plain wiring; register the extension with the {@link #builder()} when the
 * setup needs objects or lambdas:
 *
 * <pre>{@code
 * class NetworkControllerTest {
 *   @RegisterExtension
 *   static ControllerTestExtension ctk = ControllerTestExtension.builder()
 *       .withCrds("classpath:crds/network.yaml")
 *       .withObjects(new NamespaceBuilder().withNewMetadata().withName("lab").endMetadata().build())
 *       .withClusterCustomizer(cluster -> cluster.withWatchHistoryLimit(100))
 *       .build();
 *
 *   @Test
 *   void creates_the_network(KubernetesClient client, ControllerHarness harness) { ... }
 * }
 * }</pre>
 *
 * <p>Register it once per chain of test classes: either {@code @ControllerTest} or one builder-made
 * {@code @RegisterExtension} field. A builder-made extension refuses to run together with {@code
 * @ControllerTest} or with a second builder-made field in the same class or its enclosing classes.
 * Its settings belong to the class whose field holds it: put one on each of several {@code @Nested}
 * classes (and none on their enclosing class) and each gets its own clusters and settings. Either
 * form runs in several modes with {@link AcrossModes @AcrossModes}.
 * All state lives in JUnit's {@code ExtensionContext.Store}, keyed by extension instance and context;
 * the extension instance holds only its immutable settings, so one instance serves parallel tests.
 *
 * @since 0.1.0
 */
public final class ControllerTestExtension implements BeforeAllCallback,
    BeforeClassTemplateInvocationCallback, BeforeEachCallback, AfterEachCallback,
    ParameterResolver, ExecutionCondition {

  private static final Namespace NAMESPACE = ScopeResolution.NAMESPACE;
  private static final Set<Class<?>> INJECTABLE = Set.of(KubernetesClient.class,
      FakeCluster.class, EventInjector.class, ControllerHarness.class, TimeSource.class,
      VirtualTime.class);

  /** Settings from the builder; {@code null} when registered by {@code @ControllerTest}. */
  private final BuilderSettings explicit;

  /**
   * The extension as {@code @ControllerTest} (or {@code @ExtendWith}) registers it: settings from the
   * annotation, configuration and environment.
   */
  public ControllerTestExtension() {
    this.explicit = null;
  }

  private ControllerTestExtension(BuilderSettings settings) {
    this.explicit = settings;
  }

  /**
   * Starts a builder for a programmatically registered extension.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    ScopeResolution.checkRegisteredOnce(context, explicit);
    if (ScopeResolution.isTemplateContext(context)) {
      return;   // each @AcrossModes invocation starts its own class scope
    }
    if (spec(context).perClass()) {
      classScope(context);
    }
  }

  @Override
  public void beforeClassTemplateInvocation(ExtensionContext context) {
    ScopeResolution.checkRegisteredOnce(context, explicit);
    if (ModeInvocation.of(context).isPresent() && spec(context).perClass()) {
      classScope(context);
    }
  }

  /**
   * Starts the test's scope; for a {@link Perturbed @Perturbed} test in fake mode, also attaches the perturbation
   * tracker (the reference run of a campaign, or one perturbed run of it), before the test body starts controllers.
   */
  @Override
  public void beforeEach(ExtensionContext context) {
    ScopeResolution.checkRegisteredOnce(context, explicit);
    TestScope scope = methodScope(context);
    PerturbationCampaign.attach(context, explicit, spec(context), scope).ifPresent(campaign ->
        context.getStore(NAMESPACE).put(key("perturbation", context), campaign));
  }

  /**
   * Reports a failed test (its controllers, cluster and timeline); for a perturbed test, runs the campaign (the
   * reference run) or records the run for it (a perturbed run, which reports nothing itself).
   */
  @Override
  public void afterEach(ExtensionContext context) {
    TestScope scope = context.getStore(NAMESPACE).get(key("method-scope", context),
        TestScope.class);
    PerturbationCampaign campaign = context.getStore(NAMESPACE).get(key("perturbation", context),
        PerturbationCampaign.class);
    boolean quiet = campaign != null && campaign.perturbedRun();
    if (context.getExecutionException().isPresent() && scope != null && !quiet) {
      scope.reportFailure(JUnitAdapter.failureContext(context));
    }
    if (campaign != null && scope != null) {
      campaign.afterEach(context, scope);
    }
  }

  /**
   * Skips the tests of a real mode that is not available, with the reason (what was tried, the fix),
   * unless {@code ctk.require-envtest=true}: then the test runs and fails with that message when its
   * cluster starts. Fake mode, and settings that cannot be resolved (their error is reported when
   * the class starts), are always enabled.
   */
  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (context.getTestClass().isEmpty() || ScopeResolution.isTemplateContext(context)) {
      return ConditionEvaluationResult.enabled("the mode is chosen by each @AcrossModes "
          + "invocation");
    }
    ClusterSpec spec;
    try {
      spec = spec(context);
    } catch (RuntimeException e) {
      return ConditionEvaluationResult.enabled("ctk settings are reported when the class starts");
    }
    if (!spec.mode().value().isReal()) {
      return ConditionEvaluationResult.enabled("fake mode");
    }
    return JUnitAdapter.condition(RealServers.availability(spec.server(), context.getTestMethod().isEmpty()));
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return INJECTABLE.contains(parameter.getParameter().getType());
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    TestScope scope;
    if (isTestMethod(context)) {
      scope = methodScope(context);
    } else {
      if (ScopeResolution.isTemplateContext(context)) {
        throw new ParameterResolutionException("Cannot inject " + type.getSimpleName()
            + " into " + describe(parameter.getDeclaringExecutable()) + ": it runs once for all "
            + "modes of @AcrossModes on " + context.getRequiredTestClass().getName()
            + ", before any mode's cluster exists. Fix: inject it into a @Test, @BeforeEach or "
            + "@AfterEach method, or into the @BeforeAll of a @Nested class (it runs in each "
            + "mode).");
      }
      ClusterSpec spec = spec(context);
      if (!spec.perClass()) {
        throw new ParameterResolutionException("Cannot inject " + type.getSimpleName() + " into "
            + describe(parameter.getDeclaringExecutable()) + ": with per-method isolation (from "
            + spec.isolation().source() + ") each test method gets its own cluster, and this runs "
            + "outside any test method. Fix: inject it into a @Test, @BeforeEach or @AfterEach "
            + "method, or share one cluster across the class with "
            + "@ControllerTest(isolation = Isolation.PER_CLASS).");
      }
      scope = classScope(ScopeResolution.classContext(context));
    }
    TestCluster cluster = scope.cluster();
    if (type == FakeCluster.class) {
      return cluster.fakeCluster().orElseThrow(() -> new ParameterResolutionException(
          "Cannot inject FakeCluster into " + describe(parameter.getDeclaringExecutable())
              + ": it runs in " + cluster.mode().configName() + " mode (from "
              + spec(context).mode().source() + "), against " + cluster.description()
              + ", where there is no fake cluster. Fix: use KubernetesClient to read and write "
              + "objects and EventInjector to add, update and delete them (both work in every "
              + "mode), or run this class in fake mode only (@ControllerTest(mode = Mode.FAKE))."));
    }
    if (type == KubernetesClient.class) {
      return cluster.client();
    }
    if (type == EventInjector.class) {
      return cluster.events();
    }
    if (type == TimeSource.class) {
      return cluster.time();
    }
    if (type == VirtualTime.class) {
      return cluster.virtualTime().orElseThrow(() -> new ParameterResolutionException(
          "Cannot inject VirtualTime into " + describe(parameter.getDeclaringExecutable())
              + ": " + spec(context).origin() + " runs on real time. Fix: turn virtual time on "
              + "with @ControllerTest(virtualTime = true) (or ControllerTestExtension.builder()"
              + ".withVirtualTime()), or inject TimeSource, which is real time here."));
    }
    return scope.harness();
  }

  /** Constructor parameters are resolved with the test method's context, so they get its cluster. */
  @Override
  public ExtensionContextScope getTestInstantiationExtensionContextScope(
      ExtensionContext rootContext) {
    return ExtensionContextScope.TEST_METHOD;
  }

  /** The builder's settings; {@code null} when registered by {@code @ControllerTest}. */
  BuilderSettings settings() {
    return explicit;
  }

  /**
   * The scope of one test method: its own cluster or namespace (per-method), or the cluster of the
   * class scope with a harness whose parent is the class scope's harness (per-class).
   */
  private TestScope methodScope(ExtensionContext context) {
    return context.getStore(NAMESPACE).computeIfAbsent(key("method-scope", context), key -> {
      ClusterSpec spec = spec(context);
      if (spec.perClass()) {
        return TestScope.borrowing(classScope(ScopeResolution.classContext(context)));
      }
      return TestScope.owning(JUnitAdapter.start(spec, context.getRequiredTestMethod().getName() + " in "
          + context.getRequiredTestClass().getSimpleName(), context));
    }, TestScope.class);
  }

  /**
   * The per-class scope of one class context, kept in that context's own store so that it closes
   * when that class ends: the scope root (the owner class, or its {@code @AcrossModes} invocation)
   * starts (and later closes) the cluster; a {@code @Nested} class below it borrows the cluster of
   * its enclosing class's scope and gets its own harness, so controllers started in its {@code
   * @BeforeAll} stop when it ends, not when the owner ends.
   */
  private TestScope classScope(ExtensionContext classContext) {
    return classContext.getStore(NAMESPACE).computeIfAbsent(key("class-scope", classContext),
        key -> {
          ExtensionContext root = ScopeResolution.scopeRoot(classContext, this, explicit);
          if (root.getUniqueId().equals(classContext.getUniqueId())) {
            return TestScope.owning(JUnitAdapter.start(spec(classContext),
                classContext.getRequiredTestClass().getSimpleName(), classContext));
          }
          return TestScope.borrowing(
              classScope(ScopeResolution.enclosingClassContext(classContext)));
        }, TestScope.class);
  }

  private ScopeResolution.StoreKey key(String kind, ExtensionContext context) {
    return new ScopeResolution.StoreKey(kind, this, context.getUniqueId());
  }

  private static boolean isTestMethod(ExtensionContext context) {
    return context.getTestMethod().isPresent();
  }

  private ClusterSpec spec(ExtensionContext context) {
    return ScopeResolution.spec(context, this, explicit);
  }

  private static String describe(Executable executable) {
    String declaring = executable.getDeclaringClass().getName();
    return executable instanceof Constructor
        ? "the constructor of " + declaring
        : "method " + executable.getName() + "(..) of " + declaring;
  }

  /**
   * Builds a {@link ControllerTestExtension} for {@code @RegisterExtension}. Each {@code withX} adds
   * to what was set before; {@link #build()} may be called once. Misuse (a missing file, {@code
   * null}, building twice) fails at once with a message.
   *
   * <pre>{@code
   * @RegisterExtension
   * static ControllerTestExtension ctk = ControllerTestExtension.builder()
   *     .withCrds("classpath:crds/network.yaml")
   *     .withResources("src/test/resources/networks.yaml")
   *     .withIsolation(Isolation.PER_CLASS)
   *     .build();
   * }</pre>
   *
   * @since 0.1.0
   */
  public static final class Builder {

    private Mode mode;
    private Isolation isolation;
    private final List<ResourceLocation> crds = new ArrayList<>();
    private final List<ResourceLocation> resources = new ArrayList<>();
    private final List<CustomResourceDefinition> crdObjects = new ArrayList<>();
    private final List<HasMetadata> objects = new ArrayList<>();
    private UnaryOperator<FakeCluster.Builder> customizer = UnaryOperator.identity();
    private boolean virtualTime;
    private PerturbationConfig perturbations;
    private boolean built;

    private Builder() {}

    /**
     * Sets the mode; {@link Mode#DEFAULT} leaves it to {@code @AcrossModes}, configuration and
     * environment. A fixed mode cannot be combined with {@code @AcrossModes}.
     *
     * @param mode the mode
     * @return this builder
     */
    public Builder withMode(Mode mode) {
      checkNotBuilt();
      Objects.requireNonNull(mode, "mode");
      this.mode = mode == Mode.DEFAULT ? null : mode;
      return this;
    }

    /**
     * Sets the isolation; {@link Isolation#DEFAULT} leaves it to configuration and environment.
     *
     * @param isolation the isolation
     * @return this builder
     */
    public Builder withIsolation(Isolation isolation) {
      checkNotBuilt();
      Objects.requireNonNull(isolation, "isolation");
      this.isolation = isolation == Isolation.DEFAULT ? null : isolation;
      return this;
    }

    /**
     * Adds CRD files: {@code "classpath:crds/network.yaml"} or file paths; they must exist now.
     *
     * @param locations the files
     * @return this builder
     * @throws IllegalArgumentException if a file or resource does not exist
     */
    public Builder withCrds(String... locations) {
      checkNotBuilt();
      crds.addAll(locations(locations, "withCrds"));
      return this;
    }

    /**
     * Adds CRDs, installed before any object.
     *
     * @param crds the CRDs (copied)
     * @return this builder
     */
    public Builder withCrds(CustomResourceDefinition... crds) {
      checkNotBuilt();
      crdObjects.addAll(ClusterSpec.copies(Arrays.asList(notNull(crds, "withCrds"))));
      return this;
    }

    /**
     * Adds YAML files of objects to seed: {@code "classpath:..."} or file paths; they must exist now.
     *
     * @param locations the files
     * @return this builder
     * @throws IllegalArgumentException if a file or resource does not exist
     */
    public Builder withResources(String... locations) {
      checkNotBuilt();
      resources.addAll(locations(locations, "withResources"));
      return this;
    }

    /**
     * Adds objects to seed into every new cluster (copied now, and again for every cluster).
     *
     * @param objects the objects
     * @return this builder
     */
    public Builder withObjects(HasMetadata... objects) {
      checkNotBuilt();
      this.objects.addAll(ClusterSpec.copies(Arrays.asList(notNull(objects, "withObjects"))));
      return this;
    }

    /**
     * Adds a last step to every fake cluster's {@link FakeCluster.Builder}, after the CRDs and
     * objects were added: {@code cluster -> cluster.withWatchHistoryLimit(100)}. Several customizers
     * run in the order they were added. Fake mode only: in a real mode there is no fake cluster to
     * customize, and customizers are not called.
     *
     * @param customizer returns the builder it was given (or another)
     * @return this builder
     */
    public Builder withClusterCustomizer(UnaryOperator<FakeCluster.Builder> customizer) {
      checkNotBuilt();
      Objects.requireNonNull(customizer, "withClusterCustomizer(null): pass a function b -> b");
      UnaryOperator<FakeCluster.Builder> before = this.customizer;
      this.customizer = b -> {
        FakeCluster.Builder next = before.apply(b);
        return next == null ? null : customizer.apply(next);
      };
      return this;
    }

    /**
     * Runs the tests on virtual time, as {@link ControllerTest#virtualTime() @ControllerTest(virtualTime
     * = true)} does: every new cluster gets a fresh {@link VirtualTime}, injected as {@code
     * VirtualTime} or {@code TimeSource} and returned by {@link ControllerHarness#time()}; in fake
     * mode the cluster stamps objects with its clock. {@code @Nested} classes inherit it.
     *
     * <pre>{@code
     * @RegisterExtension
     * static ControllerTestExtension ctk = ControllerTestExtension.builder().withVirtualTime().build();
     * }</pre>
     *
     * @return this builder
     */
    public Builder withVirtualTime() {
      checkNotBuilt();
      this.virtualTime = true;
      return this;
    }

    /**
     * Runs every test of the class as a perturbation campaign, as {@link Perturbed @Perturbed} on the class does:
     * a reference run, then one run per planned perturbation point (crash-restart, stale restart, stale view,
     * unobserved states), each compared with the reference. A {@code @Perturbed} on a test method or class is
     * nearer and wins for that test. Fake mode only; needs per-method isolation.
     *
     * <pre>{@code
     * @RegisterExtension
     * static ControllerTestExtension ctk = ControllerTestExtension.builder()
     *     .withPerturbations(PerturbationConfig.builder().withMaxRuns(10).build())
     *     .build();
     * }</pre>
     *
     * @param config the settings
     * @return this builder
     */
    public Builder withPerturbations(PerturbationConfig config) {
      checkNotBuilt();
      this.perturbations = Objects.requireNonNull(config,
          "withPerturbations(null): pass PerturbationConfig.builder().build() for the defaults");
      return this;
    }

    /**
     * Makes the extension.
     *
     * @return the extension, for a {@code @RegisterExtension} field
     * @throws IllegalStateException if called twice
     */
    public ControllerTestExtension build() {
      checkNotBuilt();
      built = true;
      return new ControllerTestExtension(new BuilderSettings(mode, isolation, crds, resources,
          crdObjects, objects, customizer, virtualTime, perturbations));
    }

    private void checkNotBuilt() {
      if (built) {
        throw new IllegalStateException("This ControllerTestExtension.Builder was already built. "
            + "Fix: start a new one with ControllerTestExtension.builder() for each extension.");
      }
    }

    private static <T> T[] notNull(T[] items, String method) {
      Objects.requireNonNull(items, method + "(null)");
      for (int i = 0; i < items.length; i++) {
        if (items[i] == null) {
          throw new NullPointerException(method + "(..): argument " + i + " is null");
        }
      }
      return items;
    }

    private static List<ResourceLocation> locations(String[] texts, String method) {
      notNull(texts, method);
      List<ResourceLocation> parsed = new ArrayList<>();
      for (String text : texts) {
        parsed.add(ResourceLocation.parse(text, "ControllerTestExtension.builder()." + method
            + "(..)", ResourceLocation.defaultLoader(), IllegalArgumentException::new));
      }
      return parsed;
    }
  }
}
