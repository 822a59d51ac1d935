package dev.ctk.junit;

import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.controller.Controller;
import dev.ctk.fake.EventInjector;
import dev.ctk.fake.FakeCluster;
import dev.ctk.junit.ControllerTest.Isolation;
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
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit Jupiter extension behind {@link ControllerTest @ControllerTest}: starts fake clusters,
 * injects {@code KubernetesClient}, {@link FakeCluster}, {@link EventInjector} and {@link
 * ControllerHarness} parameters, closes controllers and clusters after each test (or class), and
 * reports the controllers' state when a test fails.
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
 * classes (and none on their enclosing class) and each gets its own clusters and settings.
 * All state lives in JUnit's {@code ExtensionContext.Store}, keyed by extension instance and context;
 * the extension instance holds only its immutable settings, so one instance serves parallel tests.
 *
 * @since 0.1.0
 */
public final class ControllerTestExtension
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

  private static final Namespace NAMESPACE = ScopeResolution.NAMESPACE;
  private static final Set<Class<?>> INJECTABLE = Set.of(
      KubernetesClient.class, FakeCluster.class, EventInjector.class, ControllerHarness.class);

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
    if (spec(context).perClass()) {
      classScope(context);
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    ScopeResolution.checkRegisteredOnce(context, explicit);
    methodScope(context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (context.getExecutionException().isEmpty()) {
      return;
    }
    TestScope scope = context.getStore(NAMESPACE).get(key("method-scope", context),
        TestScope.class);
    if (scope == null) {
      return;
    }
    for (Controller controller : scope.harness().controllers()) {
      String report;
      try {
        report = StateFormat.report(controller);
      } catch (RuntimeException e) {
        report = "controller \"" + controller.name() + "\": its state could not be read: " + e;
      }
      report = report.stripTrailing();
      context.publishReportEntry("ctk.controller." + controller.name(), report);
      System.err.println("[ctk] " + context.getDisplayName() + " failed; " + report);
    }
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
    if (type == FakeCluster.class) {
      return scope.cluster();
    }
    if (type == KubernetesClient.class) {
      return scope.cluster().client();
    }
    if (type == EventInjector.class) {
      return scope.cluster().events();
    }
    return scope.harness();
  }

  /** Constructor parameters are resolved with the test method's context, so they get its cluster. */
  @Override
  public ExtensionContextScope getTestInstantiationExtensionContextScope(
      ExtensionContext rootContext) {
    return ExtensionContextScope.TEST_METHOD;
  }

  /**
   * The scope of one test method: its own cluster (per-method), or the cluster of the class scope
   * with a harness whose parent is the class scope's harness (per-class).
   */
  private TestScope methodScope(ExtensionContext context) {
    return context.getStore(NAMESPACE).computeIfAbsent(key("method-scope", context), key -> {
      ClusterSpec spec = spec(context);
      if (spec.perClass()) {
        return TestScope.borrowing(classScope(ScopeResolution.classContext(context)));
      }
      return TestScope.owning(spec.startCluster());
    }, TestScope.class);
  }

  /**
   * The per-class scope of one class context, kept in that context's own store so that it closes
   * when that class ends: the owner class starts (and later closes) the cluster; a {@code @Nested}
   * class below it borrows the cluster of its enclosing class's scope and gets its own harness, so
   * controllers started in its {@code @BeforeAll} stop when it ends, not when the owner ends.
   */
  private TestScope classScope(ExtensionContext classContext) {
    return classContext.getStore(NAMESPACE).computeIfAbsent(key("class-scope", classContext),
        key -> {
          ExtensionContext owner = ScopeResolution.ownerContext(classContext, this, explicit);
          if (owner.getUniqueId().equals(classContext.getUniqueId())) {
            return TestScope.owning(spec(classContext).startCluster());
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

    private Isolation isolation;
    private final List<ResourceLocation> crds = new ArrayList<>();
    private final List<ResourceLocation> resources = new ArrayList<>();
    private final List<CustomResourceDefinition> crdObjects = new ArrayList<>();
    private final List<HasMetadata> objects = new ArrayList<>();
    private UnaryOperator<FakeCluster.Builder> customizer = UnaryOperator.identity();
    private boolean built;

    private Builder() {}

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
     * Adds a last step to every cluster's {@link FakeCluster.Builder}, after the CRDs and objects
     * were added: {@code cluster -> cluster.withWatchHistoryLimit(100)}. Several customizers run in
     * the order they were added.
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
     * Makes the extension.
     *
     * @return the extension, for a {@code @RegisterExtension} field
     * @throws IllegalStateException if called twice
     */
    public ControllerTestExtension build() {
      checkNotBuilt();
      built = true;
      return new ControllerTestExtension(new BuilderSettings(isolation, crds, resources,
          crdObjects, objects, customizer));
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
