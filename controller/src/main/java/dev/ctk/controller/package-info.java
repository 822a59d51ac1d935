/**
 * Work queue and reconcile loop for controllers built on fabric8 informers, with client-go and
 * controller-runtime semantics, and one read-only view of any controller for ctk's assertions.
 * Production code may depend on this package: it needs only {@code kubernetes-client-api} and slf4j,
 * never JUnit or the ctk fake.
 *
 * <pre>{@code
 * try (Controller controller = Controller.builder("cm")
 *     .watch(client.configMaps().inNamespace("default").inform(), EventHandlers.enqueueObject())
 *     .withReconciler(key -> Result.done())
 *     .build()
 *     .start()) {
 *   controller.stats().queue().depth();
 * }
 * }</pre>
 *
 * <ul>
 *   <li>{@link dev.ctk.controller.WorkQueue}: de-duplicating, delaying, rate-limited queue.
 *   <li>{@link dev.ctk.controller.Controller}: informers, predicates, event handlers, N workers,
 *       a {@link dev.ctk.controller.Reconciler}; a reconcile log and statistics tests can read.
 *   <li>{@link dev.ctk.controller.ControllerView} and {@link dev.ctk.controller.WorkQueueView}: what
 *       ctk's assertions and failure reports read (name, caches, queue, reconcile log, statistics),
 *       whatever framework runs the controller; {@link dev.ctk.controller.Vocabulary} gives the
 *       framework's words for messages ("Java Operator SDK controller", "event source",
 *       {@code RESCHEDULE}).
 *   <li>{@link dev.ctk.controller.ControllerProbe}: a view fed by hand or by a framework's hooks,
 *       for controllers ctk does not run (hand-written ones, Java Operator SDK, the Kubernetes Java
 *       client):
 *       <pre>{@code
 * ControllerProbe probe = ControllerProbe.create("config-syncer").watch(informer);
 * BlockingQueue<String> queue = probe.observe(new LinkedBlockingQueue<>());
 * probe.reconcile(key, () -> reconcile(key));
 * }</pre>
 *   <li>{@link dev.ctk.controller.TimeSource}: every delay, backoff and timestamp comes from it, so a
 *       virtual clock can drive them; {@link dev.ctk.controller.VirtualTime} is that clock, moved by
 *       the test:
 *       <pre>{@code
 * VirtualTime time = VirtualTime.create();
 * Controller.builder("cm").withTimeSource(time).withResyncPeriod(Duration.ofHours(1)) ...
 * time.advance(Duration.ofHours(1));   // requeueAfter(1h) and the 1h resync happen now
 * }</pre>
 *   <li>{@link dev.ctk.controller.LeaderElection}: candidates on a coordination.k8s.io/v1 Lease, timed
 *       by a {@code TimeSource}; the leader runs the controller, the others take over when it stops
 *       renewing.
 * </ul>
 *
 * <p><b>What it does not do (yet).</b>
 * <ul>
 *   <li>Leader election is opt-in ({@code LeaderElection}); two controllers started without it both
 *       reconcile. It has no jitter on the retry period, no {@code preferredHolder}/{@code strategy}
 *       (coordinated leader election), and a candidate that lost leadership stays a candidate instead
 *       of ending its process as client-go's callers usually do. Only Leases, no ConfigMap or
 *       Endpoints locks. fabric8's own {@code LeaderElector} runs on real time and is not driven by
 *       {@code VirtualTime}.
 *   <li>No metrics export (Prometheus, Micrometer): the statistics are in-memory snapshots only.
 *   <li>The reconcile log is bounded (10,000 records by default); older records are dropped and only
 *       counted. The per-key counters keep one entry per key ever reconciled, without bound.
 *   <li>No reconcile timeout and no context cancellation: {@code close()} waits for reconciles in
 *       flight up to its shutdown timeout, then interrupts the workers; a reconcile that ignores
 *       interrupts keeps its (daemon) thread alive.
 *   <li>Informers are not created here: pass fabric8 informers; this package neither sets their resync
 *       period nor restarts one that stopped. {@code Controller.Builder.withResyncPeriod} resyncs on
 *       the controller's {@code TimeSource} (so {@code VirtualTime} drives it); a fabric8 informer's own
 *       resync period runs on real time and is not driven by {@code VirtualTime}. The controller's
 *       resync reaches only its own handler, not other handlers of a shared informer.
 *   <li>Blocking bounds (cache sync timeout, shutdown timeout, {@code poll} and
 *       {@code shutDownWithDrain} timeouts) are real time, even with a virtual {@code TimeSource}.
 *   <li>{@code VirtualTime} moves only when the test advances it; tasks with a zero or negative delay
 *       run at once on a background thread, not in a step, and reconciles still run on worker threads,
 *       so a test waits (with a bound) for their effects after {@code advance}. It does not virtualize
 *       {@code Thread.sleep}, {@code Instant.now()} or anything that reads the system clock directly
 *       (fabric8's informers, HTTP timeouts, Awaitility).
 *   <li>Events are not de-duplicated across informers beyond the work queue's key de-duplication, and
 *       the reconciler is told only the key, never the event.
 *   <li>No reference counting of shared informers: the controller that started an informer stops it
 *       on {@code close()}, even if another controller still watches it. Start a shared informer
 *       yourself, before the controllers, and stop it after closing them.
 *   <li>{@code EventHandlers.enqueueOwner} puts the owner in the object's namespace; a cluster-scoped
 *       owner of a namespaced object needs {@code EventHandlers.enqueueClusterScopedOwner}. Neither
 *       checks the owner's uid.
 *   <li>{@code EventPredicate.labelSelector} lets an update through when the old <em>or</em> the new
 *       object matches; controller-runtime's label selector predicate checks the new object only.
 *   <li>A {@code VirtualMachineError} (out of memory, stack overflow) in user code ends the worker
 *       thread it hit (after the key is recorded and done) and is not replaced; every other failure,
 *       including an {@code AssertionError}, is recorded or logged and the worker goes on.
 *   <li>{@code close()} called inside a reconcile returns before that reconcile ends: the calling
 *       worker thread stops only once its reconcile returns.
 *   <li><b>A {@code ControllerProbe} only knows what it is told.</b> It does not run, stop or
 *       inspect the controller: a key the framework queues without telling the probe is not shown,
 *       and a reconcile started but never ended stays in flight. A framework integration is as
 *       accurate as the hooks the framework offers.
 *   <li>A probe's waiting keys (added after a delay, rate-limited, or after a {@code REQUEUE_AFTER})
 *       stop waiting as soon as their delay passed, even if the framework never re-adds them; until
 *       it does, the key is in no state and the probe can look idle.
 *   <li>{@code ControllerProbe.observe(queue)} counts inserts into the queue, not the controller's
 *       de-duplication: a key put twice is counted and shown twice, even if the controller skips
 *       the second one; a probe observes one queue.
 *   <li>A probe's attempt numbers (without an explicit attempt) count the key's failures in a row
 *       ({@code ERROR} or {@code REQUEUE}), not the framework's own retry counter.
 *   <li>The framework integrations (Java Operator SDK, the Kubernetes Java client) are not here; they
 *       are separate artifacts that feed {@code ControllerProbe}s.
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.controller;
