package dev.ctk.controller;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop of one worker thread: take a key, reconcile it, act on the result as controller-runtime
 * does, record it, mark it done.
 */
final class ReconcileWorker implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(ReconcileWorker.class);

  private final String controllerName;
  private final WorkQueue<ObjectKey> queue;
  private final Reconciler reconciler;
  private final TimeSource time;
  private final ReconcileLog log;
  private final List<ReconcileListener> listeners;

  ReconcileWorker(String controllerName, WorkQueue<ObjectKey> queue, Reconciler reconciler,
      TimeSource time, ReconcileLog log, List<ReconcileListener> listeners) {
    this.controllerName = controllerName;
    this.queue = queue;
    this.reconciler = reconciler;
    this.time = time;
    this.log = log;
    this.listeners = listeners;
  }

  @Override
  public void run() {
    while (true) {
      Optional<ObjectKey> next;
      try {
        next = queue.get();
      } catch (InterruptedException e) {
        return;
      }
      if (next.isEmpty()) {
        return;
      }
      process(next.get());
    }
  }

  private void process(ObjectKey key) {
    String worker = Thread.currentThread().getName();
    try {
      int attempt = queue.numRequeues(key);
      for (ReconcileListener listener : listeners) {
        try {
          listener.onReconcileStart(key, worker);
        } catch (RuntimeException e) {
          LOG.warn("Controller \"{}\": a reconcile listener failed; ignoring it", controllerName, e);
        }
      }
      Instant start = time.now();
      Result result = null;
      Throwable error = null;
      try {
        result = reconciler.reconcile(key);
        if (result == null) {
          error = new NullPointerException("The reconciler of controller \"" + controllerName
              + "\" returned null for " + key + ". Return Result.done(), Result.requeue() or "
              + "Result.requeueAfter(..).");
        }
      } catch (Exception | Error e) {
        error = e;
      }
      Instant end = time.now();
      ReconcileRecord record = act(key, worker, start, end, attempt, result, error);
      for (ReconcileListener listener : listeners) {
        try {
          listener.onReconcileEnd(record);
        } catch (RuntimeException e) {
          LOG.warn("Controller \"{}\": a reconcile listener failed; ignoring it", controllerName, e);
        }
      }
      if (error instanceof VirtualMachineError vmError) {
        throw vmError;
      }
    } finally {
      queue.done(key);
    }
  }

  private ReconcileRecord act(ObjectKey key, String worker, Instant start, Instant end,
      int attempt, Result result, Throwable error) {
    if (error != null) {
      LOG.warn("Controller \"{}\": reconcile of {} failed (attempt {}); retrying with backoff",
          controllerName, key, attempt, error);
      queue.addRateLimited(key);
      return log.record(key, worker, start, end, ReconcileOutcome.ERROR, null, error, attempt);
    }
    Optional<Duration> after = result.requeueAfter();
    if (after.isPresent()) {
      queue.forget(key);
      queue.addAfter(key, after.get());
      return log.record(key, worker, start, end, ReconcileOutcome.REQUEUE_AFTER, after.get(), null,
          attempt);
    }
    if (result.isRequeue()) {
      queue.addRateLimited(key);
      return log.record(key, worker, start, end, ReconcileOutcome.REQUEUE, null, null, attempt);
    }
    queue.forget(key);
    return log.record(key, worker, start, end, ReconcileOutcome.SUCCESS, null, null, attempt);
  }
}
