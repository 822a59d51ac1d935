package dev.ctk.clientjava;

import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.ControllerProbe.Reconciliation;
import dev.ctk.controller.ObjectKey;
import io.kubernetes.client.extended.controller.reconciler.Request;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Pairs what the probe's work queue sees (a key handed out by {@code get}, then {@code addAfter},
 * {@code addRateLimited} or {@code forget}, then {@code done}) with what the probe's reconciler sees
 * (the call and its {@code Result}), so that each reconcile is recorded once, whichever of the two
 * the controller uses.
 *
 * <p>A key handed out by the queue opens a reconcile; the reconciler ends it with the exact outcome.
 * Without the reconciler, {@code done} ends it with the outcome the queue calls imply. Without the
 * queue, the reconciler opens and ends it itself. A work queue never hands out a key twice at once,
 * so one open reconcile per key suffices.
 */
final class ReconcileTracker {

  private final ControllerProbe probe;
  private final Map<ObjectKey, Open> open = new HashMap<>();

  ReconcileTracker(ControllerProbe probe) {
    this.probe = probe;
  }

  /** The key of a request, or {@code null} if it has none (such a request is passed on, not recorded). */
  static ObjectKey keyOf(Request request) {
    if (request == null || request.getName() == null || request.getName().isEmpty()
        || request.getName().indexOf('/') >= 0
        || (request.getNamespace() != null && request.getNamespace().indexOf('/') >= 0)) {
      return null;
    }
    return ObjectKey.of(request.getNamespace(), request.getName());
  }

  /** The work queue handed {@code key} to a worker (on that worker's thread). */
  synchronized void handedOut(ObjectKey key, int attempt) {
    Open previous = open.put(key, new Open(probe.reconcileStarted(key, attempt)));
    if (previous != null) {
      previous.end();   // a loop that never called done: end the old one before the new one
    }
  }

  /** The reconciler is called for {@code key}: the reconcile the queue opened, or a new one. */
  synchronized Reconciliation reconcileStarts(ObjectKey key) {
    Open handedOut = open.remove(key);
    return handedOut != null ? handedOut.reconciliation : probe.reconcileStarted(key);
  }

  /** The controller called addAfter, addRateLimited or forget for {@code key}. */
  synchronized void implied(ObjectKey key, Implied outcome, Duration delay) {
    Open reconcile = open.get(key);
    if (reconcile != null) {
      reconcile.implied = outcome;
      reconcile.delay = delay;
    }
  }

  /** The controller called done for {@code key}: ends its reconcile if the reconciler did not. */
  synchronized void done(ObjectKey key) {
    Open reconcile = open.remove(key);
    if (reconcile != null) {
      reconcile.end();
    }
  }

  /** What a queue call between get and done says about the reconcile's result. */
  enum Implied { SUCCESS, REQUEUE, REQUEUE_AFTER }

  private static final class Open {

    final Reconciliation reconciliation;
    Implied implied = Implied.SUCCESS;
    Duration delay;

    Open(Reconciliation reconciliation) {
      this.reconciliation = reconciliation;
    }

    void end() {
      switch (implied) {
        case REQUEUE:
          reconciliation.requeued();
          break;
        case REQUEUE_AFTER:
          reconciliation.requeuedAfter(delay);
          break;
        default:
          reconciliation.succeeded();
      }
    }
  }
}
