package dev.ctk.controller;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop of one worker thread: take a key, reconcile it, act on the result as controller-runtime
 * does, record it, tell the listeners, mark it done.
 *
 * <p>Order per key: the queue action (forget, addAfter or addRateLimited), then the record, then the
 * listeners' {@code onReconcileEnd}, then {@code done}. So a record implies its retry is scheduled, and
 * a key that is no longer in flight has its record and its listeners were told.
 *
 * <p>No failure of user code (reconciler, listeners, rate limiter) ends the loop, not even an
 * {@link Error} such as a failed assertion. Only a {@link VirtualMachineError} does, after the key was
 * recorded and marked done; it is logged, kept for {@link #fatal()} and rethrown. An interrupt ends the
 * loop only once the queue is shutting down.
 */
final class ReconcileWorker implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(ReconcileWorker.class);

  private final String controllerName;
  private final WorkQueue<ObjectKey> queue;
  private final Reconciler reconciler;
  private final TimeSource time;
  private final ReconcileLog log;
  private final List<ReconcileListener> listeners;
  private volatile Thread thread;
  private volatile ObjectKey current;
  private volatile Running running;
  private volatile VirtualMachineError fatal;

  /** A reconcile under way: its key and when it started, on the controller's time source. */
  record Running(ObjectKey key, Instant start) {}

  ReconcileWorker(String controllerName, WorkQueue<ObjectKey> queue, Reconciler reconciler,
      TimeSource time, ReconcileLog log, List<ReconcileListener> listeners) {
    this.controllerName = controllerName;
    this.queue = queue;
    this.reconciler = reconciler;
    this.time = time;
    this.log = log;
    this.listeners = listeners;
  }

  /** The thread running this loop, or null before it started. */
  Thread thread() {
    return thread;
  }

  /** The key this worker holds in flight, or null. */
  ObjectKey currentKey() {
    return current;
  }

  /** The reconcile this worker runs now, or null between reconciles. */
  Running running() {
    return running;
  }

  /** The {@link VirtualMachineError} that ended this worker's loop, or null while it runs (or ended normally). */
  VirtualMachineError fatal() {
    return fatal;
  }

  @Override
  public void run() {
    thread = Thread.currentThread();
    try {
      loop();
    } catch (VirtualMachineError e) {
      fatal = e;
      throw e;
    }
  }

  private void loop() {
    while (true) {
      Optional<ObjectKey> next;
      try {
        next = queue.get();
      } catch (InterruptedException e) {
        if (queue.isShuttingDown()) {
          return;
        }
        LOG.warn("Controller \"{}\": worker {} was interrupted while the controller runs (did a "
            + "reconcile leave the thread's interrupt flag set?); the worker goes on",
            controllerName, thread.getName());
        continue;
      }
      if (next.isEmpty()) {
        return;
      }
      try {
        process(next.get());
      } catch (VirtualMachineError e) {
        LOG.error("Controller \"{}\": worker {} stops after a {} while handling {}; the controller "
            + "runs with one worker fewer and isRunning() is now false", controllerName,
            thread.getName(), e.getClass().getName(), next.get(), e);
        throw e;
      } catch (Throwable e) {
        LOG.error("Controller \"{}\": worker {} failed while handling {}; the key is done and the "
            + "worker goes on", controllerName, thread.getName(), next.get(), e);
      }
      if (Thread.interrupted() && queue.isShuttingDown()) {
        return;
      }
    }
  }

  private void process(ObjectKey key) {
    String worker = thread.getName();
    current = key;
    try {
      int attempt = queue.numRequeues(key);
      for (ReconcileListener listener : listeners) {
        try {
          listener.onReconcileStart(key, worker);
        } catch (VirtualMachineError e) {
          throw e;
        } catch (Throwable e) {
          listenerFailed(listener, "onReconcileStart", key, e);
        }
      }
      Instant start = time.now();
      running = new Running(key, start);
      Result result = null;
      Throwable error = null;
      try {
        result = reconciler.reconcile(key);
        if (result == null) {
          error = new NullPointerException("The reconciler of controller \"" + controllerName
              + "\" returned null for " + key + ". Return Result.done(), Result.requeue() or "
              + "Result.requeueAfter(..).");
        }
      } catch (Throwable e) {
        error = e;
      }
      Instant end = time.now();
      running = null;
      ReconcileRecord record = act(key, worker, start, end, attempt, result, error);
      for (ReconcileListener listener : listeners) {
        try {
          listener.onReconcileEnd(record);
        } catch (VirtualMachineError e) {
          throw e;
        } catch (Throwable e) {
          listenerFailed(listener, "onReconcileEnd", key, e);
        }
      }
      if (error instanceof VirtualMachineError vmError) {
        throw vmError;
      }
    } finally {
      running = null;
      current = null;
      queue.done(key);
    }
  }

  private ReconcileRecord act(ObjectKey key, String worker, Instant start, Instant end,
      int attempt, Result result, Throwable error) {
    ReconcileOutcome outcome;
    Duration after = null;
    if (error != null) {
      LOG.warn("Controller \"{}\": reconcile of {} failed (attempt {}); retrying with backoff",
          controllerName, key, attempt, error);
      outcome = ReconcileOutcome.ERROR;
    } else if (result.requeueAfter().isPresent()) {
      outcome = ReconcileOutcome.REQUEUE_AFTER;
      after = result.requeueAfter().get();
    } else if (result.isRequeue()) {
      outcome = ReconcileOutcome.REQUEUE;
    } else {
      outcome = ReconcileOutcome.SUCCESS;
    }
    try {
      switch (outcome) {
        case ERROR, REQUEUE -> queue.addRateLimited(key);
        case REQUEUE_AFTER -> {
          queue.forget(key);
          queue.addAfter(key, after);
        }
        case SUCCESS -> queue.forget(key);
        default -> throw new IllegalStateException("unknown outcome " + outcome);
      }
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      LOG.error("Controller \"{}\": after the {} reconcile of {}, updating the work queue failed "
          + "(a custom RateLimiter or TimeSource threw); {} is not retried until an event adds it "
          + "again", controllerName, outcome, key, key, e);
    }
    return log.record(key, worker, start, end, outcome, after, error, attempt);
  }

  private void listenerFailed(ReconcileListener listener, String method, ObjectKey key,
      Throwable e) {
    LOG.warn("Controller \"{}\": reconcile listener {} failed in {} for {}; the controller ignores "
        + "the failure and goes on", controllerName, listener, method, key, e);
  }
}
