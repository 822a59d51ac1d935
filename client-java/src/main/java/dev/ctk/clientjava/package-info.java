/**
 * ctk for controllers built with the official Kubernetes Java client ({@code
 * io.kubernetes:client-java-extended}): an {@code ApiClient} for the test's cluster in every mode,
 * and a probe that shows a client-java controller's work queue, reconciles and informers to ctk's
 * assertions, in client-java's words ("Kubernetes Java client controller", {@code requeue}, {@code
 * requeueAfter}).
 *
 * <pre>{@code
 * @ControllerTest
 * @AcrossModes
 * class ConfigMapChecksumControllerTest {
 *   @Test
 *   void stamps_the_checksum(KubernetesClient client, ControllerHarness harness) {
 *     ApiClient apiClient = ApiClients.forHarness(harness);
 *     SharedInformerFactory informers = new SharedInformerFactory(apiClient);
 *     ClientJavaProbe probe = ClientJavaProbe.create("configmap-checksum").watch(informers);
 *     probe.start(harness, ConfigMapChecksumController.create(apiClient, informers,
 *         harness.namespace(), probe.rateLimitingQueue(), probe::reconciler));
 *     client.resource(configMap("app")).create();
 *     assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully(harness.namespace() + "/app");
 *   }
 * }
 * }</pre>
 *
 * <ul>
 *   <li>{@link dev.ctk.clientjava.ApiClients}: a client-java {@code ApiClient} from the harness or
 *       from a fabric8 {@code Config} (URL, CA, client certificate, token, basic auth).
 *   <li>{@link dev.ctk.clientjava.ClientJavaProbe}: a work queue and a reconciler wrapper to hand to
 *       {@code ControllerBuilder}, the informers to report, and {@code start(harness, controller)}
 *       to run the controller for one test.
 * </ul>
 *
 * <p>{@code ClientJavaProbe.startRestartable} builds the controller from a factory, each instance on an {@code
 * ApiClient} and a probe of its own, so that it can be crash-restarted by hand or by {@code @Perturbed}.
 * client-java's {@code DefaultController.run()} never returns when {@code shutdown()} comes before all its workers
 * started (its pool cancels the worker that never ran, and {@code run()} waits for it): ctk has the pools of the
 * controllers it runs (a {@code ControllerManager}'s too, read from a private field) run such a worker once after
 * shutdown, so a stop once the workers are scheduled returns at once. A stop during {@code DefaultController}'s
 * pre-flight wait for its ready functions is not seen by that wait, which goes on until its {@code readyTimeout} (30 s
 * by default); ctk gives up on it after 10 s and interrupts the thread.
 *
 * <p>Add {@code dev.ctk:ctk-client-java} with test scope. client-java itself is a {@code provided}
 * dependency of this artifact: the project brings its own {@code client-java-extended} (ctk is built
 * and tested with 25.0.0). client-java's {@code DefaultController} needs {@code
 * io.prometheus:simpleclient} at run time (an optional dependency in client-java's POM): a project
 * that runs client-java controllers has it already; tests need it too.
 *
 * <p><b>What it does not do.</b>
 * <ul>
 *   <li>It cannot instrument a controller that is already built: {@code DefaultController} keeps its
 *       work queue and reconciler in final fields. Production code has to let a test pass them in
 *       ({@code withWorkQueue} before {@code watch}, and {@code withReconciler}). A {@code
 *       ControllerManager} hides its controllers, so {@code start} cannot check that a manager's
 *       controller uses the probe.
 *   <li>The probe's view of the queue is a mirror built from the calls it sees; client-java's queue
 *       exposes only its length. A key re-added while a worker takes it can be missing from the
 *       queued keys until its next reconcile, and a delayed key is shown queued from its deadline,
 *       give or take client-java's delay loop.
 *   <li>Informers tell only whether they synced and started: ctk shows a started informer as
 *       running even after it stopped, and as watching once synced (client-java does not expose the
 *       watch).
 *   <li>Real time only: client-java's queues and rate limiters read the system clock, so a virtual
 *       {@code TimeSource} does not drive them.
 *   <li>{@code ApiClients} reads a token once (no refresh), carries no default namespace, and refuses
 *       impersonation, proxies, custom headers, key and trust stores and TLS server names.
 *   <li>No special support for {@code LeaderElectingController}, client-java's {@code
 *       ControllerWatch} predicates, or its Prometheus metrics.
 * </ul>
 */
package dev.ctk.clientjava;
