package dev.ctk.junit;

import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against a Kubernetes API server: ctk's embedded fake (the default), a real
 * kube-apiserver from local binaries (envtest), the same in containers, or an existing cluster. Each
 * test method gets a fresh cluster in fake mode, or a fresh namespace on a shared real server (with
 * {@code isolation = PER_CLASS}, the class shares one), and test and lifecycle methods receive by
 * parameter type:
 *
 * <ul>
 *   <li>{@code io.fabric8.kubernetes.client.KubernetesClient}: a client whose default namespace is
 *       the test's namespace ({@code default} in fake mode);
 *   <li>{@link dev.ctk.fake.FakeCluster}: the fake cluster itself (fake mode only);
 *   <li>{@link dev.ctk.fake.EventInjector}: events through the API in every mode, synthetic watch
 *       events in fake mode only;
 *   <li>{@link dev.ctk.harness.ControllerHarness}: starts controllers and closes them after the test; also tells the
 *       test its {@link dev.ctk.harness.ControllerHarness#namespace() namespace} and {@link dev.ctk.harness.ControllerHarness#mode()
 *       mode}, its {@link dev.ctk.harness.ControllerHarness#time() time source} and, in fake mode, its {@link
 *       dev.ctk.harness.ControllerHarness#requests() request journal};
 *   <li>{@link dev.ctk.controller.TimeSource}: the time source for the test's controllers (a {@link
 *       dev.ctk.controller.VirtualTime} with {@link #virtualTime()}, else real time);
 *   <li>{@link dev.ctk.controller.VirtualTime}: the test's virtual time, with {@link #virtualTime()}
 *       only.
 * </ul>
 *
 * <pre>{@code
 * @ControllerTest(crds = "classpath:crds/network.yaml")
 * @AcrossModes   // every test runs in fake mode and against a real kube-apiserver
 * class NetworkControllerTest {
 *   @Test
 *   void creates_the_network(KubernetesClient client, ControllerHarness harness) {
 *     Controller controller = harness.start(NetworkController.create(client, backend));
 *     client.resource(network("blue", "10.0.0.0/24")).create();   // into the test's namespace
 *     assertThat(controller).within(ofSeconds(5))
 *         .hasReconciledSuccessfully(harness.namespace() + "/blue");
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
 *       nearest enclosing one that sets it (or the {@link ControllerTestExtension#builder() builder});
 *       for the mode, the invocation of an {@link AcrossModes @AcrossModes} class comes first</td>
 *       <td>{@code @ControllerTest(isolation = Isolation.PER_CLASS)}</td></tr>
 *   <tr><td>2</td><td>JUnit configuration parameter: {@code junit-platform.properties}, a {@code -D}
 *       system property or the launcher</td><td>{@code ctk.isolation=per_class}</td></tr>
 *   <tr><td>3</td><td>environment variable</td><td>{@code CTK_ISOLATION=per_class}</td></tr>
 *   <tr><td>4</td><td>default</td><td>{@code per_method}</td></tr>
 * </table>
 *
 * <table>
 *   <caption>Settings (values in any case; {@code -} and {@code _} are the same)</caption>
 *   <tr><th>attribute</th><th>property</th><th>environment</th><th>values</th><th>default</th></tr>
 *   <tr><td>{@link #mode()}</td><td>{@value #MODE_PROPERTY_NAME}</td><td>{@code CTK_MODE}</td>
 *       <td>{@code fake}, {@code envtest}, {@code container}, {@code existing_cluster}</td>
 *       <td>{@code fake}</td></tr>
 *   <tr><td>{@link AcrossModes#value()}</td><td>{@value #MODES_PROPERTY_NAME}</td>
 *       <td>{@code CTK_MODES}</td><td>comma-separated modes, e.g. {@code fake,container}</td>
 *       <td>{@code fake} and the real mode of {@code ctk.mode}, else {@code fake,envtest}</td>
 *       </tr>
 *   <tr><td>{@link #isolation()}</td><td>{@value #ISOLATION_PROPERTY_NAME}</td>
 *       <td>{@code CTK_ISOLATION}</td><td>{@code per_method}, {@code per_class}</td>
 *       <td>{@code per_method}</td></tr>
 *   <tr><td>{@link #crds()}</td><td>-</td><td>-</td><td>{@code classpath:} resources or file paths
 *       </td><td>none</td></tr>
 *   <tr><td>{@link #resources()}</td><td>-</td><td>-</td><td>{@code classpath:} resources or file
 *       paths</td><td>none</td></tr>
 *   <tr><td>{@link #virtualTime()}</td><td>-</td><td>-</td><td>{@code true}: each cluster gets a
 *       fresh {@link dev.ctk.controller.VirtualTime}; a {@code @Nested} class inherits it from any
 *       enclosing annotation (or {@link ControllerTestExtension.Builder#withVirtualTime()})</td>
 *       <td>{@code false}: real time</td></tr>
 *   <tr><td>-</td><td>{@value #REQUIRE_ENVTEST_PROPERTY_NAME}</td><td>{@code CTK_REQUIRE_ENVTEST}
 *       </td><td>{@code true}: a real mode that is not available fails the test instead of skipping
 *       it</td><td>{@code false}</td></tr>
 *   <tr><td>-</td><td>{@value #ENVTEST_ASSETS_PROPERTY_NAME}</td><td>{@code CTK_ENVTEST_ASSETS}
 *       (read by {@code LocalApiServer} itself, after {@code KUBEBUILDER_ASSETS})</td><td>folder
 *       holding {@code kube-apiserver} and {@code etcd}</td><td>discovery: {@code
 *       KUBEBUILDER_ASSETS}, {@code CTK_ENVTEST_ASSETS}, setup-envtest's folders, ctk's cache,
 *       {@code PATH}</td></tr>
 *   <tr><td>-</td><td>{@value #ENVTEST_VERSION_PROPERTY_NAME}</td><td>{@code CTK_ENVTEST_VERSION}
 *       </td><td>{@code 1.20}, {@code 1.20.x} or {@code 1.20.2}</td><td>any: the first place in
 *       discovery order that has the binaries wins (within setup-envtest's and ctk's cache folders,
 *       the highest matching version)</td></tr>
 *   <tr><td>-</td><td>{@value #FAKE_KUBERNETES_VERSION_PROPERTY_NAME}</td>
 *       <td>{@code CTK_FAKE_KUBERNETES_VERSION}</td><td>the minor the fake emulates, {@code 1.32} to
 *       {@code 1.37}</td><td>{@code 1.32}</td></tr>
 *   <tr><td>-</td><td>{@value #CONTAINER_LOCAL_IMAGE_PROPERTY_NAME}</td>
 *       <td>{@code CTK_CONTAINER_LOCAL_IMAGE}</td><td>an assets folder, or {@code auto} for the
 *       binaries envtest mode would use (same discovery, and {@code ctk.envtest.version}):
 *       container mode builds an image from those binaries (offline, no pull)</td><td>unset: pull
 *       the images below</td></tr>
 *   <tr><td>-</td><td>{@value #CONTAINER_APISERVER_IMAGE_PROPERTY_NAME}</td>
 *       <td>{@code CTK_CONTAINER_APISERVER_IMAGE}</td><td>an image name</td><td>{@code
 *       ContainerApiServer}'s default</td></tr>
 *   <tr><td>-</td><td>{@value #CONTAINER_ETCD_IMAGE_PROPERTY_NAME}</td>
 *       <td>{@code CTK_CONTAINER_ETCD_IMAGE}</td><td>an image name</td><td>{@code
 *       ContainerApiServer}'s default</td></tr>
 *   <tr><td>-</td><td>{@value #CONTAINER_K3S_IMAGE_PROPERTY_NAME}</td>
 *       <td>{@code CTK_CONTAINER_K3S_IMAGE}</td><td>a k3s image: one full cluster (garbage collector,
 *       namespace deletion) instead of apiserver + etcd</td><td>unset</td></tr>
 *   <tr><td>-</td><td>{@value #KUBECONFIG_PROPERTY_NAME}</td><td>{@code CTK_KUBECONFIG}</td><td>a
 *       kubeconfig file, for {@code existing_cluster}</td><td>{@code KUBECONFIG}, else {@code
 *       ~/.kube/config}</td></tr>
 *   <tr><td>-</td><td>{@value #KUBE_CONTEXT_PROPERTY_NAME}</td><td>{@code CTK_KUBE_CONTEXT}</td>
 *       <td>a context of that kubeconfig</td><td>its current context</td></tr>
 *   <tr><td>-</td><td>{@value #UNINSTALL_CRDS_PROPERTY_NAME}</td><td>{@code CTK_UNINSTALL_CRDS}</td>
 *       <td>{@code true}: delete the CRDs ctk installed when the test run ends</td>
 *       <td>{@code false}</td></tr>
 *   <tr><td>{@link Perturbed @Perturbed}</td><td>{@value Perturbed#ENABLED_PROPERTY_NAME},
 *       {@value Perturbed#MAX_RUNS_PROPERTY_NAME}, {@value Perturbed#SEED_PROPERTY_NAME},
 *       {@value Perturbed#REPLAY_PROPERTY_NAME}</td><td>{@code CTK_PERTURB}, {@code
 *       CTK_PERTURB_MAX_RUNS}, {@code CTK_PERTURB_SEED}, {@code CTK_PERTURB_REPLAY}</td><td>perturbation
 *       campaigns: on/off, the most runs, the sample's seed, one point to replay</td><td>{@code on},
 *       24, from the test's id, every planned point</td></tr>
 * </table>
 *
 * <p>An invalid value fails the test class with a message that names the value, where it came from
 * and the values allowed. Settings are resolved once per class that carries the annotation (the
 * owner), when its first test needs them (once per mode with {@code @AcrossModes}).
 *
 * <h2>Modes</h2>
 *
 * <table>
 *   <caption>What each mode runs against</caption>
 *   <tr><th>mode</th><th>API server</th><th>per test</th><th>garbage collector, namespace
 *       deletion</th></tr>
 *   <tr><td>{@link Mode#FAKE}</td><td>ctk's embedded fake, started in milliseconds</td><td>a new
 *       fake cluster; namespace {@code default}</td><td>yes (the fake's own)</td></tr>
 *   <tr><td>{@link Mode#ENVTEST}</td><td>local {@code etcd} + {@code kube-apiserver} processes
 *       ({@code dev.ctk.envtest.LocalApiServer})</td><td>a new namespace on one server per JVM</td>
 *       <td>no (a bare apiserver)</td></tr>
 *   <tr><td>{@link Mode#CONTAINER}</td><td>the same in Docker containers, or k3s ({@code
 *       dev.ctk.envtest.ContainerApiServer})</td><td>a new namespace on one server per JVM</td>
 *       <td>only with k3s</td></tr>
 *   <tr><td>{@link Mode#EXISTING_CLUSTER}</td><td>the cluster of a kubeconfig context ({@code
 *       dev.ctk.envtest.ExistingCluster})</td><td>a new namespace</td><td>usually yes</td></tr>
 * </table>
 *
 * <p>In the real modes every test class of the JVM that asks for the same configuration (mode,
 * version, images, kubeconfig and context) shares one API server: there is no per-class server and
 * no opt-out. It is started on first use and stopped when the JVM ends; the log says "cold start"
 * and "reused" with the time each took. Isolation is by namespace only: cluster-scoped objects
 * (CRDs, cluster roles, namespaces a test creates itself) are seen by every class, and a CRD
 * installed by one class stays for the next. CRDs are installed once per server (created, or
 * updated when they exist), waiting until each is Established. Every test (or class, with {@code
 * PER_CLASS})
 * gets a fresh namespace {@code ctk-<test name>-<random>}, deleted afterwards; the injected client's
 * default namespace is that namespace, and {@link #resources()} are seeded into it: a namespaced
 * object without a namespace, or with {@code default}, goes into the test's namespace; an object
 * that names another namespace is created there as written (and not cleaned up). Write tests
 * against {@link dev.ctk.harness.ControllerHarness#namespace()} (or {@code client.getNamespace()}) instead of
 * {@code "default"} so that one body runs in every mode.
 *
 * <p>When a real mode is not available (no binaries, Docker not running, no kubeconfig), its tests
 * are skipped with the reason (the message lists what was tried and the fix); with {@value
 * #REQUIRE_ENVTEST_PROPERTY_NAME}{@code =true} (as CI sets it) they fail with that message
 * instead. {@link EnabledIfEnvtestAvailable @EnabledIfEnvtestAvailable} does the same for tests
 * that do not use {@code @ControllerTest}.
 *
 * <h2>Virtual time</h2>
 *
 * <p>Real time is the default. With {@code virtualTime = true} every new cluster (each test's with
 * {@code PER_METHOD}, the class's with {@code PER_CLASS}) gets a fresh {@link
 * dev.ctk.controller.VirtualTime} at {@code 2030-01-01T00:00:00Z}, which the test advances. Build the
 * controllers on it ({@code Controller.builder(..).withTimeSource(harness.time())}): their work
 * queue delays, backoff and {@code requeueAfter} then wait for {@code advance(..)}, so a one-hour
 * requeue takes milliseconds.
 *
 * <pre>{@code
 * @ControllerTest(virtualTime = true)
 * class RenewalTest {
 *   @Test
 *   void renews_every_hour(ControllerHarness harness, VirtualTime time) {
 *     Controller controller = harness.start(RenewalController.create(harness.client(), time));
 *     ...
 *     time.advance(Duration.ofHours(1));   // the requeueAfter(1h) fires now
 *   }
 * }
 * }</pre>
 *
 * <table>
 *   <caption>What follows the virtual clock</caption>
 *   <tr><th>mode</th><th>controllers built on {@code harness.time()}</th><th>server
 *       timestamps ({@code creationTimestamp}, {@code deletionTimestamp})</th><th>the namespace
 *       controller's 5-second grace period after a namespace is deleted</th></tr>
 *   <tr><td>{@link Mode#FAKE}</td><td>virtual</td><td>virtual: the fake cluster is built with
 *       {@code withTimeSource(VirtualTime)}</td><td>virtual: advance 5 seconds, then
 *       {@code FakeCluster.awaitGarbageCollection(..)}</td></tr>
 *   <tr><td>real modes</td><td>virtual</td><td>real: a real kube-apiserver stamps objects with its
 *       own clock</td><td>real (where a kube-controller-manager runs at all)</td></tr>
 * </table>
 *
 * <p>Timeouts that bound real threads (cache sync, {@code within(..)} of ctk's assertions, the
 * request journal's times) stay in real time.
 *
 * <h2>Isolation, {@code @Nested} and parallel execution</h2>
 *
 * <p>{@link Isolation#PER_METHOD} (the default) starts a fresh cluster (fake) or namespace (real) for
 * every test method, seeded with {@link #crds()} and {@link #resources()}; the fake starts in
 * milliseconds. {@link Isolation#PER_CLASS} starts one for the class, seeds it once, and every test
 * method of the class and of its {@code @Nested} classes shares it (and sees what earlier tests left
 * behind). It is closed when the class ends; a per-method one when its test ends. Controllers started
 * through a {@link dev.ctk.harness.ControllerHarness} are always closed before their cluster.
 *
 * <p>A {@code @Nested} class that carries its own {@code @ControllerTest} starts a new scope: its own
 * cluster(s), with settings merged from the annotations of the chain. Each attribute the nested
 * annotation leaves unset ({@code mode = DEFAULT}, {@code isolation = DEFAULT}, {@code crds = {}},
 * {@code resources = {}}) is taken from the nearest enclosing {@code @ControllerTest} that sets it;
 * only then do the configuration parameter, the environment and the default apply to the mode and
 * the isolation. So
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
   * The JUnit configuration parameter that sets the mode when no annotation (and no {@link
   * AcrossModes @AcrossModes} invocation) does; values {@code fake}, {@code envtest}, {@code
   * container}, {@code existing_cluster}. The environment variable {@code CTK_MODE} is read after
   * it.
   */
  String MODE_PROPERTY_NAME = "ctk.mode";

  /**
   * The JUnit configuration parameter that lists the modes of an {@link AcrossModes @AcrossModes}
   * class that names none, comma-separated ({@code fake,container}); then {@code CTK_MODES}; default
   * {@code fake} plus the real mode {@value #MODE_PROPERTY_NAME} names ({@code envtest} if it names
   * none).
   */
  String MODES_PROPERTY_NAME = "ctk.modes";

  /**
   * {@code true}: a real mode that is not available fails the test with the reason instead of
   * skipping it (CI sets it). Then {@code CTK_REQUIRE_ENVTEST}; default {@code false}.
   */
  String REQUIRE_ENVTEST_PROPERTY_NAME = "ctk.require-envtest";

  /**
   * The folder holding {@code kube-apiserver} and {@code etcd} for envtest mode, searched before
   * every other place. The environment variable {@code CTK_ENVTEST_ASSETS} is read by {@code
   * LocalApiServer} itself, in its documented discovery order.
   */
  String ENVTEST_ASSETS_PROPERTY_NAME = "ctk.envtest.assets";

  /**
   * The kube-apiserver version envtest mode (and container mode with {@code
   * ctk.container.local-image=auto}) picks: {@code 1.20}, {@code 1.20.x} or {@code 1.20.2}; then
   * {@code CTK_ENVTEST_VERSION}. Unset: the first place in discovery order that has the binaries
   * wins; with a version, places holding another are skipped. Within setup-envtest's and ctk's
   * cache folders the highest matching version is taken. Any other value (e.g. {@code latest})
   * fails every class that uses it, with a message naming the value and where it came from.
   */
  String ENVTEST_VERSION_PROPERTY_NAME = "ctk.envtest.version";

  /**
   * The Kubernetes minor the fake emulates in fake mode ({@code FakeCluster.Builder.withKubernetesVersion}):
   * {@code 1.32} to {@code 1.37}; then {@code CTK_FAKE_KUBERNETES_VERSION}. Unset: 1.32. It sets {@code /version} and
   * the behaviours that changed between those minors (docs/kubernetes-versions.md); a cluster customizer's own
   * {@code withKubernetesVersion} wins. Any other value fails every class that uses it, naming the value and where it
   * came from.
   */
  String FAKE_KUBERNETES_VERSION_PROPERTY_NAME = "ctk.fake.kubernetes-version";

  /**
   * An assets folder from which container mode builds its image locally (no registry needed), or
   * {@code auto} for the folder envtest mode would find (honouring {@value
   * #ENVTEST_VERSION_PROPERTY_NAME}); then {@code CTK_CONTAINER_LOCAL_IMAGE}.
   */
  String CONTAINER_LOCAL_IMAGE_PROPERTY_NAME = "ctk.container.local-image";

  /** The kube-apiserver image of container mode; then {@code CTK_CONTAINER_APISERVER_IMAGE}. */
  String CONTAINER_APISERVER_IMAGE_PROPERTY_NAME = "ctk.container.apiserver-image";

  /** The etcd image of container mode; then {@code CTK_CONTAINER_ETCD_IMAGE}. */
  String CONTAINER_ETCD_IMAGE_PROPERTY_NAME = "ctk.container.etcd-image";

  /**
   * A k3s image: container mode runs one k3s container (a full cluster, with garbage collection and
   * namespace deletion) instead of apiserver + etcd; then {@code CTK_CONTAINER_K3S_IMAGE}.
   */
  String CONTAINER_K3S_IMAGE_PROPERTY_NAME = "ctk.container.k3s-image";

  /**
   * The kubeconfig file of existing-cluster mode; then {@code CTK_KUBECONFIG}, then {@code
   * KUBECONFIG}, then {@code ~/.kube/config}.
   */
  String KUBECONFIG_PROPERTY_NAME = "ctk.kubeconfig";

  /**
   * The kubeconfig context of existing-cluster mode; then {@code CTK_KUBE_CONTEXT}; default: the
   * file's current context.
   */
  String KUBE_CONTEXT_PROPERTY_NAME = "ctk.kube-context";

  /**
   * {@code true}: delete the CRDs ctk installed on a real server when the test run (JUnit's engine
   * execution) ends, before the servers stop (useful on an existing cluster); then {@code
   * CTK_UNINSTALL_CRDS}; default {@code false}. A run cut short (Ctrl-C, SIGTERM) tries from a JVM
   * shutdown hook, best effort. A CRD that existed before ctk updated it is left in place.
   */
  String UNINSTALL_CRDS_PROPERTY_NAME = "ctk.uninstall-crds";

  /**
   * Which API server the tests run against. {@link Mode#DEFAULT} (the sentinel) means: the mode of the
   * {@link AcrossModes @AcrossModes} invocation running the class, else of the nearest enclosing
   * {@code @ControllerTest} that sets one, else {@value #MODE_PROPERTY_NAME}, then {@code CTK_MODE},
   * then {@link Mode#FAKE}.
   *
   * @return the mode
   */
  Mode mode() default Mode.DEFAULT;

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
   * CustomResourceDefinitions to install before any object is seeded (in a real mode: once per
   * server, created or updated, and waited for until Established): {@code
   * "classpath:crds/network.yaml"} for a classpath resource, or a file path (relative to the working
   * directory). Each file may hold several YAML documents or a v1 {@code List}. A missing file fails
   * the test class at once. Empty (the default) on a {@code @Nested} class means: the enclosing
   * annotation's CRDs.
   *
   * @return the CRD files
   */
  String[] crds() default {};

  /**
   * YAML files of objects to seed into every new cluster (or the test's namespace, in a real mode):
   * before each test method with {@code PER_METHOD}, once with {@code PER_CLASS}. Same forms as
   * {@link #crds()}; CRDs found in them are installed first. Empty (the default) on a {@code @Nested}
   * class means: the enclosing annotation's resources.
   *
   * @return the object files
   */
  String[] resources() default {};

  /**
   * {@code true}: each new cluster gets a fresh {@link dev.ctk.controller.VirtualTime} (see
   * "Virtual time" above), injected as {@code VirtualTime} or {@code TimeSource} and returned by
   * {@link dev.ctk.harness.ControllerHarness#time()}. {@code false} (the default) on a {@code @Nested} class means:
   * virtual if any enclosing {@code @ControllerTest} says so; a nested class cannot turn it off.
   *
   * @return whether the tests run on virtual time
   */
  boolean virtualTime() default false;
}
