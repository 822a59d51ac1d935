/**
 * AssertJ assertions for controllers, work queues and informers, from one entry point: {@link
 * dev.ctk.assertions.ControllerAssertions#assertThat(dev.ctk.controller.ControllerView)} and its
 * overloads.
 *
 * <pre>{@code
 * assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
 * assertThat(controller).workQueue().within(ofSeconds(5)).isEmpty();
 * assertThat(informer).within(ofSeconds(5)).containsKey("default/web");
 * assertThat(controller).within(ofSeconds(10)).reachesFixedPoint(harness.requests());
 * assertThat(controller).isIdempotent(harness.requests()).hasNoHotLoop(harness.requests(), 5);
 * }</pre>
 *
 * <p>Controller and queue assertions read a {@link dev.ctk.controller.ControllerView} (and its
 * {@link dev.ctk.controller.WorkQueueView}), so the same checks serve ctk's {@code Controller}, a
 * {@link dev.ctk.controller.ControllerProbe} attached to a hand-written controller, and the views
 * that ctk-josdk and ctk-client-java give of Java Operator SDK and Kubernetes Java client
 * controllers. Messages speak the view's {@link dev.ctk.controller.Vocabulary}:
 *
 * <pre>
 * Expecting Java Operator SDK controller "webapp"
 *   to have reconciled default/web successfully
 * but its last reconcile failed:
 *   ERROR IllegalStateException: backend down
 * ...
 * pending events: queued [], in flight [], waiting [default/web]
 * </pre>
 *
 * <p>Checks are immediate; {@code within(timeout)} returns a new assertion that re-runs each check
 * with Awaitility (every 10ms) until it passes, then fails with the last failure's message, printed
 * once. ctk's waits ignore Awaitility's global defaults (poll interval, ignored exceptions, fail-fast
 * conditions, listeners), so a project's own Awaitility settings do not change them. Failure messages
 * list what did happen to a key (its last five reconciles, with outcome and the first line of each
 * error) and what the work queue holds. The reconcile errors a message names go with the failure
 * whole (message, cause chain, stack trace): the most recent as its cause, any other that differs as
 * a suppressed exception. Messages are deterministic (no measured durations), except for a key in
 * flight far longer than its reconciles usually take: the message then says for how long
 * ({@code default/web in flight for 12.3s (its reconciles usually take 4ms)}).
 *
 * <p>{@code hasReconciledSuccessfully} counts {@code Result.done()} and {@code
 * Result.requeueAfter(..)} as success (not a rate-limited {@code Result.requeue()}); for any view,
 * that is {@code SUCCESS} and {@code REQUEUE_AFTER} (a Java Operator SDK reschedule, for one). It also
 * requires the key to be settled: not queued, in flight or waiting again. {@code hasFailedToReconcile} counts
 * any failure the log holds, even if the key succeeded later.
 *
 * <p>What it does NOT do:
 *
 * <ul>
 *   <li><b>{@code within(..)} cannot wait for "nothing happened".</b> {@code isIdle()}, {@code
 *       hasEmptyWorkQueue()}, {@code isEmpty()} and {@code doesNotContainKey(..)} hold before the
 *       informer delivered the event you are testing, so under {@code within(..)} they pass at once.
 *       Wait on an effect first: an object the reconcile writes, or the reconcile count ({@code
 *       within(..).hasReconciledAtLeast(key, before + 1)}). {@code hasReconciled(key)} and {@code
 *       hasReconciledSuccessfully(key)} wait only for a key never reconciled before: after a change to
 *       a key that was, they pass at once on its earlier reconcile.
 *       {@code hasReconciledAtMost(..)} refuses {@code within(..)} with an {@code
 *       IllegalStateException} for that reason.
 *   <li>No assertions on cluster objects themselves (use the client and AssertJ) or on the failure
 *       timeline; request-journal and convergence checks need fake mode (a real API server keeps no
 *       journal ctk can read).
 *   <li>Reconcile checks read the controller's bounded reconcile log: once a controller has dropped
 *       old records, the outcomes of a key's early reconciles are gone (its counts stay exact).
 *   <li><b>A view is only as exact as what feeds it.</b> A {@code ControllerProbe} knows only what
 *       its framework's hooks (or the user's two lines) tell it: a key queued without telling the
 *       probe is not seen, so {@code isIdle()} and {@code workQueue().isEmpty()} can pass while the
 *       framework still holds work. A probe's waiting key stops waiting once its delay passed, even
 *       if the framework has not re-added it yet, which can make the probe look idle for that
 *       moment. An observed {@code BlockingQueue} counts inserts, not the controller's
 *       de-duplication: {@code hasDepth(..)} counts duplicates.
 *   <li>Outcomes are ctk's four ({@code SUCCESS}, {@code REQUEUE}, {@code REQUEUE_AFTER}, {@code
 *       ERROR}); a framework's richer results (a status patch, a retry with a changed spec) are
 *       mapped onto them and only the mapped outcome can be checked.
 *   <li>"Within" and the quiet period of {@code reachesFixedPoint} are measured in real time, also
 *       when the controller runs on a {@code VirtualTime}: they bound threads, not the simulated
 *       world.
 *   <li><b>Convergence checks need fake mode.</b> {@code reachesFixedPoint}, {@code isIdempotent},
 *       {@code hasNoHotLoop} and the churn checks ({@link dev.ctk.assertions.ConvergenceAssert}) read
 *       the fake cluster's {@code RequestJournal}; a real API server keeps no journal. A write is the
 *       controller's "own" when the server received it while one of the controller's reconciles ran,
 *       whoever sent it: a test writing while a reconcile runs, or a second controller whose
 *       reconciles overlap, blurs the line; two controllers that trigger each other are each seen as
 *       reacting to outside changes, so a ping-pong between them is no hot loop to either. Reconcile
 *       times are exact (real time) for controllers started through {@code ControllerHarness.start};
 *       for other views they come from the view's own records, which must then be real time. The
 *       journal is bounded (10,000 entries) and so is the reconcile log: a very long history loses
 *       its start. {@code isIdempotent} works on ctk's {@code Controller} only. The status and write
 *       churn checks count changing writes, not what they changed; {@code hasNoGenerationChurn}
 *       counts the writes that raised {@code metadata.generation} as the fake stored it, so it
 *       sees nothing for kinds that keep no generation (ConfigMap, Secret, Pod, Service) and
 *       cannot tell which field caused a bump.
 *   <li>Informer keys are compared as {@code "namespace/name"} text: a namespaced object looked up
 *       by {@code "name"} alone is not found.
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.assertions;
