/**
 * The JUnit Jupiter adapter over ctk's engines: {@link dev.ctk.junit.ControllerTest @ControllerTest}
 * (or {@link dev.ctk.junit.ControllerTestExtension#builder()}) runs a test class against an embedded
 * fake API server per test method (or per class), or, in a real mode, against a real kube-apiserver
 * (local binaries, containers or an existing cluster) shared by the JVM, with a fresh namespace per
 * test (or class). It injects {@code KubernetesClient}, {@link dev.ctk.fake.FakeCluster}, {@link
 * dev.ctk.fake.EventInjector}, {@link dev.ctk.junit.ControllerHarness}, {@code TimeSource} and
 * {@code VirtualTime} parameters (virtual time on request), closes harnessed
 * controllers and then the cluster (or namespace) after each test, and reports the controllers'
 * state (work queue, reconcile counts, last reconcile per key), the mode, the server and the
 * namespace when a test fails. {@link dev.ctk.junit.AcrossModes @AcrossModes} runs one class body
 * in several modes; {@link dev.ctk.junit.EnabledIfEnvtestAvailable @EnabledIfEnvtestAvailable}
 * skips (or, with {@code ctk.require-envtest=true}, fails) tests whose real server is not available.
 *
 * <pre>{@code
 * @ControllerTest
 * @AcrossModes   // fake, then envtest
 * class ConfigMapControllerTest {
 *   @Test
 *   void reconciles(KubernetesClient client, ControllerHarness harness) {
 *     Controller controller = harness.start(MyController.create(client));
 *     client.configMaps().resource(configMap("web")).create();   // in the test's namespace
 *     assertThat(controller).within(ofSeconds(5))
 *         .hasReconciledSuccessfully(harness.namespace() + "/web");
 *   }
 * }
 * }</pre>
 *
 * <p>Lifecycle: a per-method cluster (or namespace) is closed when its test ends, a per-class one
 * when its class (in each mode) ends; controllers started through a {@link
 * dev.ctk.junit.ControllerHarness} are closed first (in reverse start order, interleaved with what
 * was registered with {@code closeAfterTest(..)}), so a reconcile still running at the end of a test
 * can still use the client. Controllers another framework runs (Java Operator SDK, the Kubernetes
 * Java client, a hand-written one with a {@code ControllerProbe}) join the failure report through
 * {@code ControllerHarness.observe(view)}. {@code ControllerHarness.start} returns once
 * the controller's caches synced and its informers' watches are open. A real server is started once
 * per JVM and configuration and stopped when the JVM ends; every real-mode class with that
 * configuration shares it (there is no per-class server). The admin client ctk keeps per server, and
 * the CRDs to uninstall with {@code ctk.uninstall-crds=true}, are released when the JUnit test run
 * ends, before the servers stop.
 *
 * <p>What it does NOT do (yet):
 *
 * <ul>
 *   <li>Real modes are not the fake: a bare kube-apiserver (envtest, apiserver + etcd containers) runs
 *       no controllers (no garbage collector, no namespace controller, no ReplicaSets from
 *       Deployments, no default ServiceAccount); synthetic watch events ({@code EventInjector.emit*})
 *       and {@code FakeCluster} exist in fake mode only and fail with a message in the others;
 *       {@code withClusterCustomizer(..)} is not called in real modes; {@code status} in seeded
 *       objects is dropped by a real server for kinds with a status subresource (the fake keeps it).
 *   <li>Real-mode isolation is by namespace only: cluster-scoped objects a test creates (CRDs, other
 *       namespaces, ClusterRoles) stay on the shared server for later tests and classes; seeded
 *       objects that name a namespace other than {@code default} are created there and not cleaned
 *       up; controllers that watch all namespaces see the other tests' namespaces while they exist
 *       (run tests that share a real server in parallel only if they tolerate that). CRDs are
 *       installed once per server: two classes with different versions of one CRD see the last
 *       one installed.
 *   <li>Existing-cluster mode assumes the cluster runs a namespace controller: a namespace is
 *       deleted and left to it. There is no setting to say otherwise (a bare kube-apiserver reached
 *       through a kubeconfig keeps its test namespaces Terminating).
 *   <li>{@code ctk.uninstall-crds=true} after Ctrl-C or SIGTERM is best effort: the run never ends,
 *       so a JVM shutdown hook uninstalls, alongside the hook that stops local and container
 *       servers (harmless there: the server goes away; on an existing cluster it works).
 *   <li>{@code EventInjector.update} in a real mode gives up after 5 conflicts in a row with
 *       another writer.
 *   <li>In {@code @AcrossModes} classes JUnit runs {@code @BeforeAll}/{@code @AfterAll} once for all
 *       modes, so nothing is injected there; Surefire's XML names the invocations by index ({@code
 *       [1]}, {@code [2]}), only the display names say the mode.
 *   <li>No field injection: only parameters of test, lifecycle methods and constructors, and only the
 *       six types above (exact types: not {@code NamespacedKubernetesClient}, not subclasses). Other
 *       parameter types are left to other resolvers.
 *   <li>With per-method isolation nothing can be injected into {@code @BeforeAll}/{@code @AfterAll}
 *       or a {@code PER_CLASS} test-instance constructor: there is no cluster outside a test method.
 *   <li>No controller report when {@code @BeforeAll}, {@code @AfterAll} or a class-level callback
 *       fails: the report and the timeline are written for failed test methods only.
 *   <li><b>The failure timeline sees only what ctk records.</b> In fake mode it shows the API requests
 *       and injected events of the cluster's request journal (the journal keeps the last 10,000 of
 *       the cluster), fault firings and watch deliveries since the test's scope began; in real modes
 *       there is no journal and no watch log, so no request of any client (the controller's, the
 *       test's, other tests') and no watch event is shown, only the controllers' side. Work-queue
 *       changes and reconciles are recorded as they happen for controllers started through the
 *       harness (the last 20,000 of each source; older ones are dropped and counted); other views
 *       contribute their reconcile logs, placed by their records' own times (a view on a virtual
 *       clock lands at the wrong place), and nothing of their queues. Times are wall-clock
 *       milliseconds after the scope began, ordered as each source stamped them: entries of
 *       different sources within the same millisecond may show in either order (a watch delivery
 *       is stamped when the server sends it, a queue add when the controller's handler ran). The
 *       text shows the last 200 entries; the HTML page under {@code target/ctk-reports} (or {@code
 *       ctk.report-dir} / {@code CTK_REPORT_DIR}) shows all of them and is overwritten by the next
 *       failing run of the same test.
 *   <li>{@code within(..)} cannot wait for "nothing happened": {@code isIdle()}, an empty work queue or
 *       a missing key hold before the informer delivered the event, so they pass at once (see
 *       {@link dev.ctk.assertions}). Wait on an effect or on {@code hasReconciled(key)} first.
 *   <li>The harness neither starts nor stops an observed view's controller: only what was given to
 *       {@code closeAfterTest(..)} is closed, and nothing waits for another framework's watches to
 *       open (its integration's own start method does). A closing failure of one resource does not
 *       stop the others from closing; it fails the test.
 *   <li>Closing a controller waits for its reconciles in flight up to its shutdown timeout, then
 *       interrupts them; a reconcile that ignores interrupts can leave a daemon worker thread
 *       running after its test (the controller logs it, with the fix).
 *   <li>Closing relies on JUnit closing {@code AutoCloseable} store values (on by default in JUnit 6;
 *       {@code junit.jupiter.extensions.store.close.autocloseable.enabled=false} would leak clusters
 *       and namespaces).
 *   <li>A builder-made extension and {@code @ControllerTest}, or two builder-made extensions, in one
 *       chain of enclosing classes are refused, not merged.
 *   <li>Virtual time ({@code @ControllerTest(virtualTime = true)}) moves only what is built on
 *       {@code harness.time()} and, in fake mode, the fake's timestamps: a real kube-apiserver stamps
 *       objects in real time, and informers, HTTP timeouts and ctk's {@code within(..)} waits stay
 *       real. A {@code @Nested} class cannot turn virtual time off once an enclosing class turned it
 *       on. {@code harness.requests()} (the request journal) exists in fake mode only.
 *   <li>Informers a test makes itself are its own to close (they stop when the cluster's client
 *       closes).
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.junit;
