package dev.ctk.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against ctk's embedded fake Kubernetes API server: each test method gets a fresh
 * {@link dev.ctk.fake.FakeCluster} (or, with {@code isolation = PER_CLASS}, the class shares one), and
 * test and lifecycle methods receive by parameter type:
 *
 * <ul>
 *   <li>{@code io.fabric8.kubernetes.client.KubernetesClient}: the cluster's shared client;
 *   <li>{@link dev.ctk.fake.FakeCluster}: the cluster itself;
 *   <li>{@link dev.ctk.fake.EventInjector}: the cluster's event injector;
 *   <li>{@link ControllerHarness}: starts controllers and closes them after the test.
 * </ul>
 *
 * <pre>{@code
 * @ControllerTest(crds = "classpath:crds/network.yaml")
 * class NetworkControllerTest {
 *   @Test
 *   void creates_the_network(KubernetesClient client, ControllerHarness harness) {
 *     Controller controller = harness.start(NetworkController.create(client, backend));
 *     client.resource(network("blue", "10.0.0.0/24")).create();
 *     assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/blue");
 *   }
 * }
 * }</pre>
 *
 * <h2>Configuration</h2>
 *
 * <p>Each setting is resolved in one place, first match wins:
 *
 * <table>
 *   <caption>Where a setting comes from, highest precedence first</caption>
 *   <tr><th>#</th><th>source</th><th>example</th></tr>
 *   <tr><td>1</td><td>annotation attribute: of the class's own {@code @ControllerTest}, else of the
 *       nearest enclosing one that sets it (or the {@link ControllerTestExtension#builder() builder})
 *       </td><td>{@code @ControllerTest(isolation = Isolation.PER_CLASS)}</td></tr>
 *   <tr><td>2</td><td>JUnit configuration parameter: {@code junit-platform.properties}, a {@code -D}
 *       system property or the launcher</td><td>{@code ctk.isolation=per_class}</td></tr>
 *   <tr><td>3</td><td>environment variable</td><td>{@code CTK_ISOLATION=per_class}</td></tr>
 *   <tr><td>4</td><td>default</td><td>{@code per_method}</td></tr>
 * </table>
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>attribute</th><th>property</th><th>environment</th><th>values</th><th>default</th></tr>
 *   <tr><td>{@link #isolation()}</td><td>{@value #ISOLATION_PROPERTY_NAME}</td>
 *       <td>{@code CTK_ISOLATION}</td><td>{@code per_method}, {@code per_class} (any case)</td>
 *       <td>{@code per_method}</td></tr>
 *   <tr><td>{@link #crds()}</td><td>-</td><td>-</td><td>{@code classpath:} resources or file paths
 *       </td><td>none</td></tr>
 *   <tr><td>{@link #resources()}</td><td>-</td><td>-</td><td>{@code classpath:} resources or file
 *       paths</td><td>none</td></tr>
 * </table>
 *
 * <p>An invalid value fails the test class with a message that names the value, where it came from
 * and the values allowed. Settings are resolved once per class that carries the annotation (the
 * owner), when its first test needs them.
 *
 * <h2>Isolation, {@code @Nested} and parallel execution</h2>
 *
 * <p>{@link Isolation#PER_METHOD} (the default) starts a fresh cluster for every test method, seeded
 * with {@link #crds()} and {@link #resources()}; the fake starts in milliseconds. {@link
 * Isolation#PER_CLASS} starts one cluster for the class, seeds it once, and every test method of the
 * class and of its {@code @Nested} classes shares it (and sees what earlier tests left behind). The
 * cluster is closed when the class ends; a per-method cluster when its test ends. Controllers started
 * through a {@link ControllerHarness} are always closed before their cluster.
 *
 * <p>A {@code @Nested} class that carries its own {@code @ControllerTest} starts a new scope: its own
 * cluster(s), with settings merged from the annotations of the chain. Each attribute the nested
 * annotation leaves unset ({@code isolation = DEFAULT}, {@code crds = {}}, {@code resources = {}})
 * is taken from the nearest enclosing {@code @ControllerTest} that sets it; only then do the
 * configuration parameter, the environment and the default apply to the isolation. So
 *
 * <pre>{@code
 * @ControllerTest(crds = "classpath:crds/network.yaml", isolation = Isolation.PER_CLASS)
 * class NetworkTest {
 *   @Nested
 *   @ControllerTest(resources = "classpath:seed/networks.yaml")
 *   class Seeded { ... }   // own per-class cluster, with the CRD and the seeded networks
 * }
 * }</pre>
 *
 * <p>An attribute cannot be "unset" in a nested class: a nested annotation cannot drop the enclosing
 * CRDs by writing {@code crds = {}}; give it a different list, or move the annotation.
 *
 * <p>Everything lives in JUnit's {@code ExtensionContext.Store}, so JUnit's parallel execution
 * (methods, classes and {@code @Nested} classes) is supported.
 *
 * @since 0.1.0
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ControllerTestExtension.class)
public @interface ControllerTest {

  /**
   * The JUnit configuration parameter ({@code junit-platform.properties}, {@code -D} or the launcher)
   * that sets the isolation when no annotation does; values {@code per_method} and {@code
   * per_class}. The environment variable {@code CTK_ISOLATION} is read after it.
   */
  String ISOLATION_PROPERTY_NAME = "ctk.isolation";

  /**
   * Whether each test method gets its own cluster or the class shares one. {@link Isolation#DEFAULT}
   * (the sentinel) means: take it from the nearest enclosing {@code @ControllerTest} that sets it,
   * else resolve it from {@value #ISOLATION_PROPERTY_NAME}, then {@code CTK_ISOLATION}, then {@link
   * Isolation#PER_METHOD}.
   *
   * @return the isolation
   */
  Isolation isolation() default Isolation.DEFAULT;

  /**
   * CustomResourceDefinitions to install before any object is seeded: {@code
   * "classpath:crds/network.yaml"} for a classpath resource, or a file path (relative to the working
   * directory). Each file may hold several YAML documents or a v1 {@code List}. A missing file fails
   * the test class at once. Empty (the default) on a {@code @Nested} class means: the enclosing
   * annotation's CRDs.
   *
   * @return the CRD files
   */
  String[] crds() default {};

  /**
   * YAML files of objects to seed into every new cluster: before each test method with {@code
   * PER_METHOD}, once with {@code PER_CLASS}. Same forms as {@link #crds()}; CRDs found in them are
   * installed first. Empty (the default) on a {@code @Nested} class means: the enclosing annotation's
   * resources.
   *
   * @return the object files
   */
  String[] resources() default {};

  /**
   * How tests share fake clusters.
   *
   * @since 0.1.0
   */
  enum Isolation {
    /** Not set here: resolve from configuration, then the environment, then {@link #PER_METHOD}. */
    DEFAULT,
    /** A fresh cluster for every test method (the default). */
    PER_METHOD,
    /** One cluster for every test method of the class and of its {@code @Nested} classes. */
    PER_CLASS
  }
}
