/**
 * The JUnit Jupiter adapter over ctk's engines: {@link dev.ctk.junit.ControllerTest @ControllerTest}
 * (or {@link dev.ctk.junit.ControllerTestExtension#builder()}) runs a test class against an embedded
 * fake API server per test method (or per class), or, in a real mode, against a real kube-apiserver
 * (local binaries, containers or an existing cluster) shared by the JVM, with a fresh namespace per
 * test (or class). It injects {@code KubernetesClient}, {@link dev.ctk.fake.FakeCluster}, {@link
 * dev.ctk.fake.EventInjector}, {@link dev.ctk.harness.ControllerHarness}, {@code TimeSource} and
 * {@code VirtualTime} parameters (virtual time on request), closes harnessed
 * controllers and then the cluster (or namespace) after each test, and reports the controllers'
 * state (work queue, reconcile counts, last reconcile per key, the last error of each failing key
 * whole with its cause chain and stack trace, keys in flight far longer than their reconciles
 * usually take), the mode, the server and the namespace when a test fails. {@link
 * dev.ctk.junit.AcrossModes @AcrossModes} runs one class body in several modes; {@link
 * dev.ctk.junit.EnabledIfEnvtestAvailable @EnabledIfEnvtestAvailable} skips (or, with {@code
 * ctk.require-envtest=true}, fails) tests whose real server is not available.
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
 * dev.ctk.harness.ControllerHarness} are closed first (in reverse start order, interleaved with what
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
 *       text shows the last 200 entries, a reconcile error by its first line; the HTML page under
 *       {@code target/ctk-reports} (or {@code ctk.report-dir} / {@code CTK_REPORT_DIR}) shows all of
 *       them, the test's failure and each reconcile error whole, and is overwritten by the next
 *       failing run of the same test.
 *   <li>A key is called slow in flight, in the report and in the messages of {@code isIdle()}, an
 *       empty work queue and the checks of one key, when its running reconcile has taken more than
 *       10 times the median of its finished reconciles and at least 1s, or more than 5s when none
 *       finished; only views that track their running reconciles ({@code Controller}, {@code
 *       ControllerProbe} and the framework views built on it) can say so, measured on their own time
 *       source (under virtual time, a reconcile that blocks shows only once the clock moves).
 *   <li>{@code within(..)} cannot wait for "nothing happened": {@code isIdle()}, an empty work queue or
 *       a missing key hold before the informer delivered the event, so they pass at once (see
 *       {@link dev.ctk.assertions}). Wait on an effect first; after a change to a key that was
 *       reconciled before, {@code hasReconciled(key)} passes at once on the earlier reconcile, so
 *       wait on {@code hasReconciledAtLeast(key, before + 1)} instead.
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
 *   <li><b>Perturbation campaigns ({@code @Perturbed}) are for fake mode and per-method isolation
 *       only</b>: in a real mode the test runs once, as without the annotation; with per-class
 *       isolation it fails. Each perturbed run is the whole test again (lifecycle methods, injection,
 *       a fresh fake cluster) through a nested JUnit launcher in the same JVM. By default the runs go
 *       one after the other, so a campaign costs about (runs + 1) times the test; with {@code
 *       ctk.perturb.parallel-runs} (or {@code CTK_PERTURB_PARALLEL_RUNS}) set to n, n runs go side by
 *       side, each on its own fake cluster and launcher, and the report keeps the plan's order. Static
 *       state of the test class is shared between the runs, and side by side they change it at the
 *       same time: keep one run at a time for a test that changes static state or uses a fixed port or
 *       file. Perturbed runs read system properties and {@code junit-platform.properties} as the
 *       reference run does, and get the reference run's {@code ctk.*} settings (fake mode forced,
 *       JUnit's parallel execution off inside each run); parameters a build tool hands the outer
 *       launcher explicitly (Surefire's {@code configurationParameters}, the console launcher's
 *       {@code --config}) do not reach them. In an {@code @AcrossModes} class whose modes come from
 *       {@code ctk.modes}, the perturbed runs select the fake invocation as {@code #1}. Points are
 *       counted, not timed: a test whose controllers write in a different order from run to run
 *       makes points land elsewhere (the report says "no effect" and why when a point never came or
 *       changed nothing).
 *       The end-state comparison ignores uids, resourceVersions, creationTimestamp, generation,
 *       managedFields, selfLink, owner uids, generated-name suffixes, the condition times
 *       ({@code status.conditions[*].lastTransitionTime}, {@code lastUpdateTime}, {@code
 *       lastHeartbeatTime}, {@code lastProbeTime}) and a Service's allocated {@code spec.clusterIP},
 *       {@code spec.clusterIPs} and {@code spec.ports[*].nodePort}, and nothing else unless listed in
 *       {@code ignoreFields}: other fields holding times or random values must be listed, and there
 *       is no way to ignore a whole kind. Leaks are only an orphan (an owner uid that does not exist) and
 *       a finalizer never removed from an object being deleted; ones the reference run has too are
 *       not reported.
 *   <li>A controller's writes are told apart by the thread that sends them: only requests sent on a
 *       reconcile's own thread, through the fake's in-process transport (the default), are numbered
 *       and can be crash points; requests a reconciler hands to its own executor are the test's, and a
 *       cluster built with {@code ClientTransport.HTTP} is refused. A crashed instance's later requests
 *       are refused only from inside its reconciles; its informers run on until the restart closes it.
 *       With several workers, a crash "right after write n" happens at the next request of any of the
 *       instance's workers, which may come before write n is served. Crash points need a factory
 *       ({@code harness.start(() -> ...)}); a controller given as an instance is never crashed. The
 *       fake journal names a create by its namespace only (the name is in the body), so timelines
 *       show {@code create Secret in default}. Convergence assertions on a {@link
 *       dev.ctk.harness.RestartableController} look at its current instance only.
 *   <li>A crash "before write n" refuses that request once, by dropping its connection; a client
 *       that retries on I/O errors resends it from fabric8's scheduler thread, outside any
 *       reconcile, where it is served normally: the write then happens after all, and the crashed
 *       instance's fresh successor sees it. The clients ctk hands out do not retry (the injected
 *       {@code KubernetesClient}, the fake's clients); a controller that builds its own client with
 *       retries turns crash-before points into crashes right after the write.
 *   <li><b>A perturbation counts only if it took effect</b>, otherwise the run is reported as having
 *       no effect, with the reason: a crash point needs the write to come from a controller started
 *       from a factory; a stale view needs a reconcile of a harness controller to start while the
 *       hold holds an event back; unobserved states need the coalesced release to drop at least
 *       one held event (a "burst" made of the controller's own reactions to the first event does
 *       not recur once that event is held); a stale restart needs the fresh instance to watch the
 *       kind and to be served at least one LIST as of the old resourceVersion (not when its
 *       informer was already running, nor when the fake's watch history no longer reaches back
 *       and the LIST is answered 410). A stale view or burst hold waits at most 10 minutes for its
 *       event, then is removed.
 *   <li>How narrow a stale restart is: only LISTs of the kind sent on the thread that starts the
 *       fresh instance (where fabric8 informers send their first LIST), at most one per informer,
 *       until its caches synced, are served stale; relists and other clients' LISTs are not. Its
 *       hold cannot be narrowed to the fresh instance (a watch pattern names kind, namespace and
 *       selectors, not a client): while it is in force (until the controllers are idle for 100 ms,
 *       at most 2 s) every watch of that kind waits, other controllers' and the test's included,
 *       and stale-view holds likewise hold every watch of their kind. A burst is counted over all
 *       watches of its kind together, so with two informers of one kind it is released after half
 *       of it (or when no event came for 200 ms).
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.junit;
