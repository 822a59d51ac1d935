/**
 * ctk without a test framework: what one test runs against ({@link dev.ctk.harness.TestScope}: a fake cluster, or a
 * fresh namespace on a real kube-apiserver), the {@link dev.ctk.harness.ControllerHarness} that starts controllers
 * and closes them after the test, crash-restartable controllers ({@link dev.ctk.harness.RestartableController}, and
 * {@link dev.ctk.harness.RestartableProcess} for other frameworks' controllers, each instance on a client of its own), the
 * {@link dev.ctk.harness.values.Mode modes}, and the values the perturbation engine is configured with ({@link
 * dev.ctk.harness.values.Perturbation}, {@link dev.ctk.harness.PerturbationConfig}). The AssertJ assertions are in {@code
 * dev.ctk.assertions}. JUnit Jupiter's {@code @ControllerTest} (module {@code ctk-junit}) is one adapter over this
 * package; a Spock, TestNG or plain-{@code main} user builds a {@link dev.ctk.harness.TestScope} and gets everything
 * but the annotations.
 *
 * <pre>{@code
 * try (TestScope scope = TestScope.builder().withCrds("classpath:crds/webapp.yaml").start()) {
 *   Controller controller = scope.harness().start(WebAppController.create(scope.cluster().client()));
 *   ...
 * }
 * }</pre>
 *
 * <p>What it does NOT do:
 *
 * <ul>
 *   <li>Perturbation campaigns ({@code @Perturbed}) run a test again once per perturbation, which needs the test
 *       framework to run the test body again: only the JUnit adapter does that today. The engine (plan, tracker,
 *       oracle, report) is here, in {@code internal.perturb}; a framework adapter drives it.
 *   <li>A {@link dev.ctk.harness.TestScope} built here is always per test: sharing one cluster across tests, and
 *       running one body in several modes, are the adapter's work ({@code isolation = PER_CLASS}, {@code
 *       @AcrossModes}).
 *   <li>Real modes use default settings from the builder ({@code KUBEBUILDER_ASSETS} or the envtest cache, the
 *       default images, the default kubeconfig); the JUnit adapter reads every {@code ctk.*} setting.
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.harness;
