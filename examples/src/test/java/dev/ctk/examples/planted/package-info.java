/**
 * Planted bugs: small controllers, each with one of the bug patterns that perturbation testing ({@link
 * dev.ctk.junit.Perturbed @Perturbed}) must find, each beside its correct version ({@link Variant}). They live in
 * the test source set only and are never shipped.
 *
 * <ul>
 *   <li>{@link TicketWorkerController}: a create that is not idempotent after a crash (a generated name, recorded by
 *       a second write); the same bug in a Java Operator SDK reconciler ({@link TicketWorkerReconciler}, started as
 *       a {@code RestartableOperator}) and in a Kubernetes Java client controller ({@link TicketWorkerClientJava},
 *       started with {@code ClientJavaProbe.startRestartable});
 *   <li>{@link SettingsCleanupController}: a delete decided from a stale cache (the Secret informer lags);
 *   <li>{@link RevisionHistoryController}: a status computed from intermediate states (the history of every event
 *       seen, not the current object);
 *   <li>{@link SecretVersionController}: a lost update (a read-modify-write from a cache that lags, written back
 *       without a resourceVersion).
 * </ul>
 *
 * <p>The {@code *Scenario} classes are ordinary {@code @ControllerTest} tests of these controllers that pass as
 * plain tests; Surefire does not run them directly ({@code PlantedBugsTest} runs them through the JUnit engine and
 * checks what the campaigns report). Limits: each controller is written for its scenario, not for production.
 */
package dev.ctk.examples.planted;
