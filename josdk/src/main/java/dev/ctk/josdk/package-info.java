/**
 * ctk's assertions and failure reports for operators built with Java Operator SDK (JOSDK) 5.x:
 * {@link dev.ctk.josdk.OperatorProbe} listens to an {@code Operator} through JOSDK's {@code Metrics}
 * extension point and shows each of its controllers as a {@link dev.ctk.controller.ControllerView},
 * in JOSDK's words (event source, pending events, RESCHEDULE).
 *
 * <pre>{@code
 * OperatorProbe probe = OperatorProbe.create();
 * Operator operator = new Operator(o -> o.withKubernetesClient(client)
 *     .withCloseClientOnStop(false).withMetrics(probe));
 * operator.register(new WebAppReconciler());
 * probe.start(operator, harness);
 * assertThat(probe.controller("webapp")).within(ofSeconds(10)).hasReconciledSuccessfully("shop/web");
 * }</pre>
 *
 * <p>{@link dev.ctk.josdk.RestartableOperator} builds the operator from a factory, each instance on a client and a
 * probe of its own, so that it can be crash-restarted by hand or by {@code @Perturbed}.
 *
 * <p>JOSDK itself is a {@code provided} dependency of this artifact: a project that uses it brings
 * its own {@code operator-framework-core} (tested with 5.3.2).
 *
 * <p><b>What it does not do (yet).</b>
 * <ul>
 *   <li>It sees only what JOSDK reports through {@code Metrics}: the operator must be built with
 *       {@code withMetrics(probe)} (or {@code OperatorProbe.wrapping(yourMetrics)}) before its
 *       reconcilers are registered; a controller registered earlier is unknown to the probe.
 *   <li>No fault or time control: retries, reschedules and JOSDK's timers run in real time. The
 *       delay a key waits after an error is replayed from the controller's {@code Retry}
 *       ({@code initExecution()} and {@code nextDelay()}); a {@code Retry} whose delays are not
 *       deterministic shows other delays than JOSDK really waits.
 *   <li>Pending events mirror JOSDK's event processor from the outside: an event JOSDK accepts and
 *       then ignores (for a resource whose finalizer it already removed, until the delete event
 *       arrives) shows as pending meanwhile; rate-limited submissions ({@code @RateLimited}) show as
 *       pending, not waiting; the periodic reconcile of {@code maxReconciliationInterval} is not
 *       shown as waiting; a key's waiting time lapses at the computed instant even if JOSDK's timer
 *       fires later.
 *   <li>JOSDK's execution that only adds its finalizer is not a reconcile (your code does not run);
 *       the key shows as pending during it. The cleanup of a resource marked for deletion is a
 *       reconcile of the same key; records do not say which of the two it was.
 *   <li>Controllers in {@code triggerReconcilerOnAllEvents} mode are observed, but their
 *       delete-event executions are not treated specially.
 *   <li>Caches are the informers of event sources that wrap informers (the controller's own and
 *       {@code InformerEventSource}s); polling, timer and inbound event sources are not caches here.
 *   <li>No leader election support: a controller shows as running once its informers run, even
 *       while JOSDK waits to become leader before it processes events.
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.josdk;
