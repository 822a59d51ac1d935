package dev.ctk.josdk;

import dev.ctk.controller.CacheState;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.Vocabulary;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.josdk.internal.ControllerObservation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Observes a Java Operator SDK operator through JOSDK's own extension point for monitoring, {@link
 * Metrics}, and shows each of its controllers as a {@link ControllerView}, so that ctk's assertions
 * and failure reports work on it in JOSDK's words. The operator's code and configuration stay as they
 * are (server-side apply, retry, rate limiting, finalizers): the probe only listens.
 *
 * <pre>{@code
 * @Test
 * void creates_the_children(KubernetesClient client, ControllerHarness harness) {
 *   OperatorProbe probe = OperatorProbe.create();
 *   Operator operator = new Operator(o -> o.withKubernetesClient(client)
 *       .withCloseClientOnStop(false).withMetrics(probe));                 // 1: report to the probe
 *   operator.register(new WebAppReconciler());
 *   probe.start(operator, harness);                                          // 2: run it for this test
 *
 *   client.resource(webApp("web")).create();
 *
 *   assertThat(probe.controller("webapp")).within(ofSeconds(10))
 *       .hasReconciledSuccessfully(harness.namespace() + "/web");
 * }
 * }</pre>
 *
 * <p>An operator that already reports to Micrometer keeps doing so: {@code
 * OperatorProbe.wrapping(micrometerMetrics)} forwards every call to it.
 *
 * <p>How JOSDK's processing shows (words as in {@link #VOCABULARY}):
 *
 * <ul>
 *   <li><b>reconcile</b>: one call of your {@code Reconciler.reconcile} or, for a resource marked for
 *       deletion, {@code Cleaner.cleanup} (the cleanup is a reconcile of the same key: {@code SUCCESS}
 *       when it let JOSDK remove the finalizer). It ends when JOSDK has handled its result (patched
 *       the resource or its status, removed the finalizer), so a failed status patch makes it an
 *       {@code ERROR}. JOSDK's first execution for a resource without its finalizer only adds the
 *       finalizer and does not call your code: it is not a reconcile.
 *   <li><b>outcomes</b>: {@code SUCCESS}; {@code RESCHEDULE} with the delay of {@code
 *       UpdateControl}/{@code DeleteControl.rescheduleAfter(..)} ({@code reschedule()} is a delay of
 *       0); {@code ERROR} when it threw (JOSDK then retries per the controller's retry configuration;
 *       the record's attempt is JOSDK's {@code RetryInfo.getAttemptCount()}). JOSDK has no
 *       rate-limited requeue without an error, so {@code REQUEUE} never occurs.
 *   <li><b>pending events</b>: a key is queued from an event JOSDK accepted until your code starts
 *       (also while JOSDK adds its finalizer), in flight while it runs, waiting while a reschedule
 *       or a retry is due (the retry's delay is replayed from the controller's {@code Retry}).
 *   <li><b>event sources</b>: one cache per informer of each event source that wraps informers,
 *       e.g. {@code "event source Deployment (all namespaces)"}, synced/running/watching as JOSDK's
 *       health indicators report them.
 * </ul>
 *
 * <p>Thread-safe. One probe per {@link Operator}: build the operator with {@code withMetrics(probe)}
 * before registering reconcilers (JOSDK tells the probe about a controller when it is registered).
 *
 * @since 0.1.0
 */
public final class OperatorProbe implements Metrics {

  /** Java Operator SDK's words for ctk's messages. */
  public static final Vocabulary VOCABULARY = new Vocabulary("Java Operator SDK",
      "Java Operator SDK controller", "pending events", "event source",
      Map.of(ReconcileOutcome.SUCCESS, "SUCCESS",
          ReconcileOutcome.REQUEUE, "REQUEUE (no Java Operator SDK equivalent)",
          ReconcileOutcome.REQUEUE_AFTER, "RESCHEDULE",
          ReconcileOutcome.ERROR, "ERROR"),
      "probe.start(operator, harness), or operator.start() on an Operator built with "
          + "withMetrics(probe)");

  private static final Logger LOG = LoggerFactory.getLogger(OperatorProbe.class);
  private static final Duration WATCH_TIMEOUT = Duration.ofSeconds(30);

  private final Metrics delegate;
  private final Map<String, ControllerObservation> byName = new ConcurrentHashMap<>();
  private final List<ControllerObservation> inOrder = new CopyOnWriteArrayList<>();

  private OperatorProbe(Metrics delegate) {
    this.delegate = delegate;
  }

  /**
   * A probe that only observes.
   *
   * @return the probe
   */
  public static OperatorProbe create() {
    return new OperatorProbe(Metrics.NOOP);
  }

  /**
   * A probe that observes and forwards every call to {@code metrics} (e.g. JOSDK's Micrometer
   * metrics), so that they keep counting as before.
   *
   * @param metrics the metrics to forward to
   * @return the probe
   */
  public static OperatorProbe wrapping(Metrics metrics) {
    return new OperatorProbe(Objects.requireNonNull(metrics,
        "OperatorProbe.wrapping: metrics is null. Pass your Metrics, or use OperatorProbe.create()."));
  }

  /**
   * The view of one controller, by the name JOSDK registered it under: {@code
   * @ControllerConfiguration(name = ..)}, else the reconciler class's simple name in lower case.
   *
   * @param name the controller's name
   * @return its view, for {@code assertThat(..)}
   * @throws IllegalArgumentException if no controller of that name reported to this probe
   */
  public ControllerView controller(String name) {
    Objects.requireNonNull(name, "OperatorProbe.controller: name is null");
    ControllerObservation observation = byName.get(name);
    if (observation == null) {
      throw new IllegalArgumentException("No " + VOCABULARY.controller() + " named \"" + name
          + "\" reported to this OperatorProbe. Registered controllers: " + registeredNames()
          + ". Fix: use the name from @ControllerConfiguration(name = ...) (by default the "
          + "reconciler class's simple name in lower case), and register the reconciler on an "
          + "Operator built with withMetrics(probe).");
    }
    return observation.view();
  }

  /**
   * The views of every controller that reported to this probe, in registration order.
   *
   * @return an immutable list
   */
  public List<ControllerView> controllers() {
    return inOrder.stream().map(ControllerObservation::view).toList();
  }

  /**
   * Runs {@code operator} for the test of {@code harness}: stops it after the test (before the
   * cluster goes), shows each of its controllers in the test's failure report, starts it (JOSDK
   * waits until the informers synced), then waits until every informer's watch is open, so that
   * the operator sees every change the test makes after this returns.
   *
   * @param operator an operator built with {@code withMetrics(probe)}, reconcilers registered, not
   *     started
   * @param harness the test's harness
   * @return the same operator, started
   * @throws IllegalArgumentException if the operator does not report to this probe, or it would
   *     close the test's client when it stops
   * @throws IllegalStateException if no reconciler is registered, or a watch did not open in 30s
   */
  public Operator start(Operator operator, ControllerHarness harness) {
    Objects.requireNonNull(operator, "OperatorProbe.start: operator is null");
    Objects.requireNonNull(harness, "OperatorProbe.start: harness is null");
    List<ControllerObservation> observed = checkStartable(operator);
    if (operator.getConfigurationService().closeClientOnStop()
        && operator.getKubernetesClient() == harness.client()) {
      throw new IllegalArgumentException("Cannot start the operator: it would close the test's "
          + "KubernetesClient when it stops after the test (closeClientOnStop is true, JOSDK's "
          + "default), while the test's cluster still uses it. Fix: build it with new Operator(o -> "
          + "o.withKubernetesClient(client).withCloseClientOnStop(false).withMetrics(probe)).");
    }
    List<String> names = observed.stream().map(ControllerObservation::name).toList();
    harness.closeAfterTest(new OperatorStop(operator, names));
    observed.forEach(observation -> harness.observe(observation.view()));
    operator.start();
    WatchWait.await(observed, WATCH_TIMEOUT);
    return operator;
  }

  /**
   * Starts an operator of a {@link RestartableOperator} instance: as {@link #start(Operator, ControllerHarness)},
   * without registering it with the harness (the restartable process does).
   *
   * @return its stop
   */
  AutoCloseable startInstance(Operator operator) {
    List<ControllerObservation> observed = checkStartable(operator);
    OperatorStop stop = new OperatorStop(operator,
        observed.stream().map(ControllerObservation::name).toList());
    try {
      operator.start();
      WatchWait.await(observed, WATCH_TIMEOUT);
    } catch (RuntimeException e) {
      stop.close();
      throw e;
    }
    return stop;
  }

  private List<ControllerObservation> checkStartable(Operator operator) {
    Metrics configured = operator.getConfigurationService().getMetrics();
    if (configured != this) {
      throw new IllegalArgumentException("Cannot start the operator with this OperatorProbe: the "
          + "operator reports to " + describe(configured) + ", not to this probe. Fix: build it "
          + "with new Operator(o -> o.withMetrics(probe)); to keep your own Metrics, pass "
          + "OperatorProbe.wrapping(yourMetrics) instead.");
    }
    List<ControllerObservation> observed = observationsOf(operator);
    if (observed.isEmpty()) {
      throw new IllegalStateException("Cannot start the operator: no reconciler is registered. "
          + "Fix: call operator.register(reconciler) before probe.start(operator, harness).");
    }
    return observed;
  }

  @Override
  public void controllerRegistered(Controller<? extends HasMetadata> controller) {
    String name = controller.getConfiguration().getName();
    ControllerObservation observation = new ControllerObservation(controller, VOCABULARY);
    if (byName.putIfAbsent(name, observation) != null) {
      throw new IllegalStateException("This OperatorProbe already observes a "
          + VOCABULARY.controller() + " named \"" + name + "\". Fix: create one OperatorProbe per "
          + "Operator (OperatorProbe.create() in each test), and give each reconciler its own name.");
    }
    inOrder.add(observation);
    delegate.controllerRegistered(controller);
  }

  @Override
  public void eventReceived(Event event, Map<String, Object> metadata) {
    record(metadata, o -> o.eventReceived(event.getRelatedCustomResourceID()));
    delegate.eventReceived(event, metadata);
  }

  @Override
  public void reconciliationSubmitted(HasMetadata resource, RetryInfo retryInfo,
      Map<String, Object> metadata) {
    record(metadata, o -> o.submitted(resource, retryInfo));
    delegate.reconciliationSubmitted(resource, retryInfo, metadata);
  }

  @Override
  public void reconciliationStarted(HasMetadata resource, Map<String, Object> metadata) {
    record(metadata, o -> o.started(resource));
    delegate.reconciliationStarted(resource, metadata);
  }

  @Override
  public void reconciliationFailed(HasMetadata resource, RetryInfo retryInfo, Exception exception,
      Map<String, Object> metadata) {
    record(metadata, o -> o.failed(resource, retryInfo, exception));
    delegate.reconciliationFailed(resource, retryInfo, exception, metadata);
  }

  @Override
  public void reconciliationSucceeded(HasMetadata resource, Map<String, Object> metadata) {
    record(metadata, o -> o.succeeded(resource));
    delegate.reconciliationSucceeded(resource, metadata);
  }

  @Override
  public void reconciliationFinished(HasMetadata resource, RetryInfo retryInfo,
      Map<String, Object> metadata) {
    record(metadata, o -> o.finished(resource));
    delegate.reconciliationFinished(resource, retryInfo, metadata);
  }

  @Override
  public void cleanupDone(ResourceID resourceID, Map<String, Object> metadata) {
    record(metadata, o -> o.cleanupDone(resourceID));
    delegate.cleanupDone(resourceID, metadata);
  }

  @Override
  public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
    ControllerObservation observation = byName.get(execution.controllerName());
    if (observation == null) {
      return delegate.timeControllerExecution(execution);
    }
    return observation.execute(execution.resourceID(),
        () -> delegate.timeControllerExecution(execution));
  }

  @Override
  public String toString() {
    return "OperatorProbe of controllers " + registeredNames()
        + (delegate == Metrics.NOOP ? "" : ", forwarding to " + delegate);
  }

  /** Records a call for the controller the metadata names; a probe failure never breaks JOSDK. */
  private void record(Map<String, Object> metadata, Consumer<ControllerObservation> call) {
    Object name = metadata == null ? null : metadata.get(Constants.CONTROLLER_NAME);
    ControllerObservation observation = name == null ? null : byName.get(name.toString());
    if (observation == null) {
      return;
    }
    try {
      call.accept(observation);
    } catch (RuntimeException e) {
      LOG.error("OperatorProbe could not record a call for {} \"{}\"; its view may be off. Please "
          + "report this as a ctk bug.", VOCABULARY.controller(), observation.name(), e);
    }
  }

  private List<ControllerObservation> observationsOf(Operator operator) {
    List<ControllerObservation> observed = new ArrayList<>();
    for (ControllerObservation observation : inOrder) {
      boolean registered = false;
      for (RegisteredController<?> controller : operator.getRegisteredControllers()) {
        registered |= controller == observation.controller();
      }
      if (registered) {
        observed.add(observation);
      }
    }
    return observed;
  }

  private String registeredNames() {
    List<String> names = inOrder.stream().map(ControllerObservation::name).toList();
    return names.isEmpty() ? "none" : names.toString();
  }

  private static String describe(Metrics metrics) {
    if (metrics == null || metrics == Metrics.NOOP) {
      return "no Metrics (JOSDK's default, Metrics.NOOP)";
    }
    return metrics instanceof OperatorProbe ? "another OperatorProbe (" + metrics + ")"
        : metrics.getClass().getName();
  }

  /** Stops the operator after the test; named for messages. */
  private record OperatorStop(Operator operator, List<String> controllers)
      implements AutoCloseable {

    @Override
    public void close() {
      operator.stop();
    }

    @Override
    public String toString() {
      return "Java Operator SDK operator with controllers " + controllers;
    }
  }

  /** Waits until every informer of the observed controllers has an open watch. */
  private static final class WatchWait {

    private WatchWait() {}

    static void await(List<ControllerObservation> observed, Duration timeout) {
      try {
        Awaitility.await().atMost(timeout).pollDelay(Duration.ZERO)
            .pollInterval(Duration.ofMillis(10)).until(() -> allWatching(observed));
      } catch (ConditionTimeoutException e) {
        throw new IllegalStateException(timeoutMessage(observed, timeout), e);
      }
    }

    private static boolean allWatching(List<ControllerObservation> observed) {
      return observed.stream().allMatch(o -> o.view().caches().stream()
          .allMatch(c -> c.synced() && c.watching()));
    }

    private static String timeoutMessage(List<ControllerObservation> observed, Duration timeout) {
      StringBuilder text = new StringBuilder("The operator started, but not every event source "
          + "opened its watch within " + timeout.toSeconds() + "s:\n");
      for (ControllerObservation observation : observed) {
        text.append(VOCABULARY.controller()).append(" \"").append(observation.name())
            .append("\":\n");
        for (CacheState cache : observation.view().caches()) {
          text.append("  ").append(cache.name()).append(": ").append(cache.watching() ? "watching"
              : cache.running() ? cache.describe() + ", watch not open" : cache.describe())
              .append('\n');
        }
      }
      return text.append("Fix: check that the API server allows listing and watching these kinds "
          + "(their CRDs installed, RBAC), and that no informer was stopped.").toString();
    }
  }
}
