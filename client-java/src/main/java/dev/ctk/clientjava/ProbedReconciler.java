package dev.ctk.clientjava;

import dev.ctk.controller.ControllerProbe.Reconciliation;
import dev.ctk.controller.ObjectKey;
import io.kubernetes.client.extended.controller.reconciler.Reconciler;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.extended.controller.reconciler.Result;

/**
 * A Kubernetes Java client {@link Reconciler} that calls another and records each call's outcome as
 * client-java's {@code DefaultController} acts on it: {@code Result(false)} succeeded, {@code
 * Result(true)} asked for a rate-limited requeue, {@code Result(true, d)} for a requeue after {@code
 * d}, a thrown exception failed (and is rethrown unchanged). A {@code null} result is recorded as a
 * failure and returned unchanged: {@code DefaultController} dereferences it, and the worker thread
 * that called it ends.
 */
final class ProbedReconciler implements Reconciler {

  private final Reconciler reconciler;
  private final ReconcileTracker tracker;
  private final String controller;

  ProbedReconciler(Reconciler reconciler, ReconcileTracker tracker, String controller) {
    this.reconciler = reconciler;
    this.tracker = tracker;
    this.controller = controller;
  }

  @Override
  public Result reconcile(Request request) {
    ObjectKey key = ReconcileTracker.keyOf(request);
    if (key == null) {
      return reconciler.reconcile(request);
    }
    Reconciliation reconciliation = tracker.reconcileStarts(key);
    Result result;
    try {
      result = reconciler.reconcile(request);
    } catch (Throwable e) {
      reconciliation.failed(e);
      throw e;
    }
    if (result == null) {
      reconciliation.failed(new NullPointerException("the Reconciler (" + reconciler.getClass()
          .getName() + ") of Kubernetes Java client controller \"" + controller + "\" returned null "
          + "for " + key + ". DefaultController cannot handle a null Result: the worker thread "
          + "that called it ends and " + key + " stays in flight. Fix: return new Result(false) "
          + "when done, new Result(true) to retry with backoff, or new Result(true, delay)."));
    } else if (!result.isRequeue()) {
      reconciliation.succeeded();
    } else if (result.getRequeueAfter() == null) {
      reconciliation.requeued();
    } else {
      reconciliation.requeuedAfter(result.getRequeueAfter());
    }
    return result;
  }

  @Override
  public String toString() {
    return "ClientJavaProbe reconciler of " + reconciler;
  }
}
