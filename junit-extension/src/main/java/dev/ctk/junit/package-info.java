/**
 * The JUnit Jupiter adapter over ctk's engines: {@link dev.ctk.junit.ControllerTest @ControllerTest}
 * (or {@link dev.ctk.junit.ControllerTestExtension#builder()}) starts an embedded fake API server per
 * test method (or per class), injects {@code KubernetesClient}, {@link dev.ctk.fake.FakeCluster},
 * {@link dev.ctk.fake.EventInjector} and {@link dev.ctk.junit.ControllerHarness} parameters, closes
 * harnessed controllers and then the cluster after each test, and reports the controllers' state
 * (work queue, reconcile counts, last reconcile per key) when a test fails.
 *
 * <pre>{@code
 * @ControllerTest
 * class ConfigMapControllerTest {
 *   @Test
 *   void reconciles(KubernetesClient client, ControllerHarness harness) {
 *     Controller controller = harness.start(MyController.create(client));
 *     client.configMaps().resource(configMap("web")).create();
 *     assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
 *   }
 * }
 * }</pre>
 *
 * <p>Lifecycle: a per-method cluster is closed when its test ends, a per-class cluster when its class
 * ends; controllers started through a {@link dev.ctk.junit.ControllerHarness} are closed first (in
 * reverse start order), so a reconcile still running at the end of a test can still use the client.
 * {@code ControllerHarness.start} returns once the controller's caches synced and its informers'
 * watches are open.
 *
 * <p>What it does NOT do (yet):
 *
 * <ul>
 *   <li>Fake mode only: there is no {@code ctk.mode}; a real kube-apiserver (envtest, a container or
 *       an existing cluster) comes with issue 4.
 *   <li>No field injection: only parameters of test, lifecycle methods and constructors, and only the
 *       four types above (exact types: not {@code NamespacedKubernetesClient}, not subclasses). Other
 *       parameter types are left to other resolvers.
 *   <li>With per-method isolation nothing can be injected into {@code @BeforeAll}/{@code @AfterAll}
 *       or a {@code PER_CLASS} test-instance constructor: there is no cluster outside a test method.
 *   <li>No controller report when {@code @BeforeAll}, {@code @AfterAll} or a class-level callback
 *       fails: the report is written for failed test methods only. The failure report is a short
 *       snapshot, with no timeline of events and reconciles (issue 6).
 *   <li>{@code within(..)} cannot wait for "nothing happened": {@code isIdle()}, an empty work queue or
 *       a missing key hold before the informer delivered the event, so they pass at once (see
 *       {@link dev.ctk.assertions}). Wait on an effect or on {@code hasReconciled(key)} first.
 *   <li>Closing a controller waits for its reconciles in flight up to its shutdown timeout, then
 *       interrupts them; a reconcile that ignores interrupts can leave a daemon worker thread
 *       running after its test (the controller logs it, with the fix).
 *   <li>Closing relies on JUnit closing {@code AutoCloseable} store values (on by default in JUnit 6;
 *       {@code junit.jupiter.extensions.store.close.autocloseable.enabled=false} would leak clusters).
 *   <li>A builder-made extension and {@code @ControllerTest}, or two builder-made extensions, in one
 *       chain of enclosing classes are refused, not merged.
 *   <li>No virtual time and no fault injection (issue 6); informers a test makes itself are its own
 *       to close (they stop when the cluster's client closes).
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.junit;
