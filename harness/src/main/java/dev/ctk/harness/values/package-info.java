/**
 * What the harness's public API and its internal packages share: the mode and isolation of a test's cluster, the
 * kinds of perturbation, the cluster a test holds ({@link dev.ctk.harness.values.TestCluster}), the failed test as a
 * framework describes it ({@link dev.ctk.harness.values.FailureContext}), the configuration error, and the two
 * interfaces the perturbation engine attaches through ({@link dev.ctk.harness.values.HarnessControllers},
 * {@link dev.ctk.harness.values.Restartable}). Internal packages import this package, never {@code dev.ctk.harness}
 * itself ({@code PublicApiTest} in {@code api-tests} checks it).
 *
 * <p>Limits: a type goes here only when both sides need it; everything users start from
 * ({@code ControllerHarness}, {@code TestScope}, {@code PerturbationConfig}, {@code RestartableController}) stays in
 * {@code dev.ctk.harness}.
 */
package dev.ctk.harness.values;
