/**
 * AssertJ assertions for controllers, work queues and informers, from one entry point: {@link
 * dev.ctk.assertions.ControllerAssertions#assertThat(dev.ctk.controller.ControllerView)} and its
 * overloads.
 *
 * <pre>{@code
 * assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/web");
 * assertThat(controller).workQueue().within(ofSeconds(5)).isEmpty();
 * assertThat(informer).within(ofSeconds(5)).containsKey("default/web");
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
 * with Awaitility (every 10ms) until it passes, then fails with the last failure's message and that
 * failure as the cause. ctk's waits ignore Awaitility's global defaults (poll interval, ignored
 * exceptions, fail-fast conditions, listeners), so a project's own Awaitility settings do not change
 * them. Failure messages are deterministic (no measured durations), list what did happen to a key
 * (its last five reconciles, with outcome and error) and what the work queue holds.
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
 *       Wait on an effect (an object the reconcile writes) or on {@code hasReconciled(key)} first.
 *       {@code hasReconciledAtMost(..)} refuses {@code within(..)} with an {@code
 *       IllegalStateException} for that reason.
 *   <li>No assertions on cluster objects themselves (use the client and AssertJ), on events
 *       (issue 6 adds a timeline) or on the fake's request journal.
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
 *   <li>"Within" is measured in real time; virtual time (issue 6) is not supported yet.
 *   <li>Informer keys are compared as {@code "namespace/name"} text: a namespaced object looked up
 *       by {@code "name"} alone is not found.
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.assertions;
