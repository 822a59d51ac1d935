package dev.ctk.josdk.internal;

import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.ControllerProbe.Reconciliation;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Vocabulary;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.BaseControl;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.retry.Retry;
import io.javaoperatorsdk.operator.processing.retry.RetryExecution;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Turns the metrics calls of one Java Operator SDK controller into the calls of a {@link
 * ControllerProbe}.
 *
 * <p>JOSDK calls {@code eventReceived}, {@code reconciliationSubmitted}, {@code
 * reconciliationSucceeded}, {@code reconciliationFailed} and {@code cleanupDone} while it holds its
 * event processor's lock, and {@code reconciliationStarted}, {@code timeControllerExecution} and
 * {@code reconciliationFinished} on the executor thread of one execution. This class keeps a small
 * mirror of the event processor's state (an event came in since the last submission; the attempt
 * of the submitted execution) under its own lock, taken after JOSDK's and before the probe's; it never
 * calls JOSDK while holding it.
 *
 * <p>The model: a key is pending from the event that JOSDK accepts until your {@code reconcile} or
 * {@code cleanup} starts; it is in flight from then until JOSDK has handled the result (patched the
 * resource or its status, removed the finalizer), which ends the reconcile record; it waits while a
 * reschedule or a retry is due. An execution that only adds JOSDK's finalizer does not call your code
 * and is not recorded: the key stays pending through it and through the instant reschedule that
 * follows. An execution that fails before your code runs (adding the finalizer failed) is recorded as
 * an {@code ERROR}.
 */
public final class ControllerObservation {

  private final String name;
  private final Controller<? extends HasMetadata> controller;
  private final ControllerProbe probe;
  private final Retry retry;
  private final ThreadLocal<Execution> current = new ThreadLocal<>();
  /** Guarded by this: the attempt of the execution JOSDK submitted last, per key. */
  private final Map<ObjectKey, Integer> attempts = new HashMap<>();
  /** Guarded by this: keys with an event accepted since JOSDK last submitted them. */
  private final Set<ObjectKey> eventSinceSubmit = new HashSet<>();
  /** Guarded by this: keys already counted as added for an instant reschedule still to come. */
  private final Set<ObjectKey> instantReschedules = new HashSet<>();

  /**
   * Observes a controller that JOSDK just registered.
   *
   * @param controller the controller
   * @param vocabulary the words of the probe's messages
   */
  public ControllerObservation(Controller<? extends HasMetadata> controller, Vocabulary vocabulary) {
    this.controller = controller;
    this.name = controller.getConfiguration().getName();
    this.retry = controller.getConfiguration().getRetry();
    EventSourceCaches caches = new EventSourceCaches(controller);
    this.probe = ControllerProbe.builder(name).withVocabulary(vocabulary)
        .withRunningState(caches.runningState()).build().watchCaches(caches);
  }

  /**
   * The controller's name.
   *
   * @return the name JOSDK registered it under
   */
  public String name() {
    return name;
  }

  /**
   * The JOSDK controller observed.
   *
   * @return the controller
   */
  public Controller<? extends HasMetadata> controller() {
    return controller;
  }

  /**
   * What ctk's assertions read.
   *
   * @return the probe, as a read-only view
   */
  public ControllerView view() {
    return probe;
  }

  /**
   * JOSDK accepted an event for a primary resource.
   *
   * @param id the primary resource
   */
  public synchronized void eventReceived(ResourceID id) {
    ObjectKey key = keyOf(id);
    if (!primaryCached(id)) {
      // JOSDK drops an event whose primary resource is not in its cache (e.g. a dependent deleted by the
      // garbage collector after the primary's cleanup), or cleans up (a DELETED primary, reported by
      // cleanupDone): either way nothing is queued
      return;
    }
    eventSinceSubmit.add(key);
    if (!instantReschedules.remove(key)) {
      probe.added(key);
    }
  }

  /**
   * JOSDK handed an execution to its executor.
   *
   * @param resource the primary resource
   * @param retryInfo the retry state, {@code null} for a first attempt
   */
  public synchronized void submitted(HasMetadata resource, RetryInfo retryInfo) {
    ObjectKey key = ObjectKey.of(resource);
    eventSinceSubmit.remove(key);
    instantReschedules.remove(key);
    attempts.put(key, retryInfo == null ? 0 : retryInfo.getAttemptCount());
  }

  /**
   * An execution starts on the current thread.
   *
   * @param resource the primary resource, as the execution sees it
   */
  public void started(HasMetadata resource) {
    ObjectKey key = ObjectKey.of(resource);
    int attempt;
    synchronized (this) {
      attempt = attempts.getOrDefault(key, 0);
    }
    current.set(new Execution(key, attempt, addsFinalizerOnly(resource)));
  }

  /**
   * Runs the user's {@code reconcile} or {@code cleanup} (through {@code timed}), as the reconcile of
   * the current execution.
   *
   * @param id the primary resource
   * @param timed runs the user's code (through the wrapped metrics' timer, if any)
   * @param <T> the control type
   * @return what the user's code returned
   * @throws Exception what it threw
   */
  public <T> T execute(ResourceID id, Callable<T> timed) throws Exception {
    Execution execution = current.get();
    if (execution == null || !execution.key.equals(keyOf(id)) || execution.reconciliation != null) {
      return timed.call();   // not inside an execution JOSDK started: nothing to attach it to
    }
    execution.reconciliation = probe.reconcileStarted(execution.key, execution.attempt);
    try {
      T result = timed.call();
      execution.control = result instanceof BaseControl<?> control ? control : null;
      return result;
    } catch (Exception e) {
      execution.thrown = e;
      throw e;
    }
  }

  /**
   * JOSDK handled the execution's result without an error to retry.
   *
   * @param resource the primary resource
   */
  public synchronized void succeeded(HasMetadata resource) {
    ObjectKey key = ObjectKey.of(resource);
    Execution execution = current.get();
    if (execution == null || !execution.key.equals(key)) {
      return;   // JOSDK skipped an execution (all-events mode: the resource was deleted meanwhile)
    }
    execution.ended = true;
    if (execution.reconciliation == null) {
      if (!execution.addsFinalizerOnly && !eventSinceSubmit.contains(key)) {
        probe.removed(key);   // nothing ran and nothing follows
      }
      return;   // after adding the finalizer JOSDK reschedules at once: the key stays pending
    }
    if (execution.thrown != null) {
      execution.reconciliation.failed(execution.thrown);   // no retry configured, or handled status
      if (!eventSinceSubmit.contains(key)) {
        probe.removed(key);   // nothing follows: the key is dropped
      }
      return;
    }
    Long delay = execution.control == null ? null
        : execution.control.getScheduleDelay().orElse(null);
    if (delay == null) {
      execution.reconciliation.succeeded();
      return;
    }
    if (delay == 0 && !eventSinceSubmit.contains(key)) {
      instantReschedules.add(key);   // JOSDK's timer fires at once; keep the key held meanwhile
      probe.added(key);
    }
    execution.reconciliation.requeuedAfter(Duration.ofMillis(delay));
  }

  /**
   * JOSDK counts the execution as failed and will retry it if its retry allows.
   *
   * @param resource the primary resource
   * @param retryInfo the retry state before JOSDK computed the next delay
   * @param exception what failed
   */
  public synchronized void failed(HasMetadata resource, RetryInfo retryInfo, Exception exception) {
    ObjectKey key = ObjectKey.of(resource);
    Execution execution = current.get();
    Reconciliation reconciliation;
    Throwable error = exception;
    if (execution != null && execution.key.equals(key)) {
      execution.ended = true;
      reconciliation = execution.reconciliation != null ? execution.reconciliation
          : probe.reconcileStarted(key, execution.attempt);   // failed before the user's code ran
      if (execution.thrown != null
          && (exception == execution.thrown || exception.getCause() == execution.thrown)) {
        error = execution.thrown;   // JOSDK wraps a cleanup's exception in an OperatorException
      }
    } else {
      reconciliation = probe.reconcileStarted(key,
          retryInfo == null ? 0 : retryInfo.getAttemptCount());
    }
    boolean retries = retryInfo != null && !retryInfo.isLastAttempt();
    if (!eventSinceSubmit.contains(key) && retries) {
      retryDelay(retryInfo.getAttemptCount()).ifPresent(d -> probe.addedRateLimited(key, d));
    }
    reconciliation.failed(error);
    if (!eventSinceSubmit.contains(key) && !retries) {
      probe.removed(key);   // the last attempt, or no retry: JOSDK drops the key
    }
  }

  /**
   * The execution on the current thread is over (called in JOSDK's {@code finally}).
   *
   * @param resource the primary resource
   */
  public synchronized void finished(HasMetadata resource) {
    ObjectKey key = ObjectKey.of(resource);
    Execution execution = current.get();
    current.remove();
    if (execution == null || !execution.key.equals(key)) {
      // JOSDK skipped the execution: the primary resource was no longer in its cache
      if (!eventSinceSubmit.contains(key)) {
        probe.removed(key);
      }
      return;
    }
    if (execution.ended) {
      return;
    }
    // the operator stopped while the execution ran: JOSDK dropped its result
    if (execution.reconciliation == null) {
      if (!eventSinceSubmit.contains(key)) {
        probe.removed(key);
      }
    } else if (execution.thrown != null) {
      execution.reconciliation.failed(execution.thrown);
      probe.removed(key);   // the operator stopped: nothing follows
    } else {
      execution.reconciliation.succeeded();
    }
  }

  /**
   * JOSDK forgot a deleted primary resource.
   *
   * @param id the primary resource
   */
  public synchronized void cleanupDone(ResourceID id) {
    ObjectKey key = keyOf(id);
    eventSinceSubmit.remove(key);
    instantReschedules.remove(key);
    attempts.remove(key);
    probe.removed(key);
  }

  /** Whether JOSDK's cache of primary resources holds the resource (JOSDK reconciles only what it holds). */
  private boolean primaryCached(ResourceID id) {
    try {
      return controller.getEventSourceManager().getControllerEventSource().get(id).isPresent();
    } catch (RuntimeException e) {
      return true; // not readable (e.g. stopping): count the event as JOSDK received it
    }
  }

  private boolean addsFinalizerOnly(HasMetadata resource) {
    ControllerConfiguration<?> configuration = controller.getConfiguration();
    return !configuration.triggerReconcilerOnAllEvents() && controller.useFinalizer()
        && !resource.isMarkedForDeletion() && !resource.hasFinalizer(configuration.getFinalizerName());
  }

  /** The delay JOSDK's retry gives after {@code attemptsBefore} retries, replayed on a fresh execution. */
  private Optional<Duration> retryDelay(int attemptsBefore) {
    if (retry == null) {
      return Optional.empty();
    }
    RetryExecution replay = retry.initExecution();
    Optional<Long> delay = Optional.empty();
    for (int i = 0; i <= attemptsBefore; i++) {
      delay = replay.nextDelay();
    }
    return delay.map(Duration::ofMillis);
  }

  /**
   * The key of a JOSDK resource id: {@code namespace/name}, or {@code name} for a cluster-scoped one.
   *
   * @param id the id
   * @return the key
   */
  public static ObjectKey keyOf(ResourceID id) {
    return ObjectKey.of(id.getNamespace().orElse(null), id.getName());
  }

  /** One JOSDK execution on one thread. */
  private static final class Execution {

    private final ObjectKey key;
    private final int attempt;
    private final boolean addsFinalizerOnly;
    private Reconciliation reconciliation;
    private BaseControl<?> control;
    private Exception thrown;
    private boolean ended;

    private Execution(ObjectKey key, int attempt, boolean addsFinalizerOnly) {
      this.key = key;
      this.attempt = attempt;
      this.addsFinalizerOnly = addsFinalizerOnly;
    }
  }
}
