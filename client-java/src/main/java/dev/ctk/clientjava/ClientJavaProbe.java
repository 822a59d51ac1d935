package dev.ctk.clientjava;

import dev.ctk.controller.CacheState;
import dev.ctk.controller.ControllerProbe;
import dev.ctk.controller.ControllerStats;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileOutcome;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.controller.Vocabulary;
import dev.ctk.controller.WorkQueueView;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.RestartableProcess;
import dev.ctk.harness.values.ControllerProcess;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.extended.controller.Controller;
import io.kubernetes.client.extended.controller.DefaultController;
import io.kubernetes.client.extended.controller.reconciler.Reconciler;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.extended.workqueue.RateLimitingQueue;
import io.kubernetes.client.extended.workqueue.ratelimiter.DefaultControllerRateLimiter;
import io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter;
import io.kubernetes.client.informer.SharedInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Observes a controller built with the Kubernetes Java client ({@code client-java-extended}: {@code
 * SharedInformerFactory}, {@code ControllerBuilder}, {@code Reconciler}) and shows it as a {@link
 * ControllerView}, so that ctk's assertions and failure reports work on it in client-java's words.
 * Attach it with two lines on the {@code ControllerBuilder}:
 *
 * <pre>{@code
 * ClientJavaProbe probe = ClientJavaProbe.create("configmap-checksum").watch(informerFactory);
 * Controller controller = ControllerBuilder.defaultBuilder(informerFactory)
 *     .withWorkQueue(probe.rateLimitingQueue())                       // 1: before .watch(..)
 *     .watch(queue -> ControllerBuilder.controllerWatchBuilder(V1ConfigMap.class, queue).build())
 *     .withReconciler(probe.reconciler(new ChecksumReconciler(..)))   // 2
 *     .withName("configmap-checksum")
 *     .build();
 * probe.start(harness, controller);   // runs it for this test, waits for the informers
 *
 * assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully(harness.namespace() + "/app");
 * }</pre>
 *
 * <p><b>Why two lines, and why on the builder.</b> client-java's {@code DefaultController} takes its
 * work queue and reconciler in its constructor and keeps them in final fields; its only setters are
 * for the worker count, the worker thread pool and the ready timeouts. So a controller that is
 * already built cannot be instrumented, and production code that builds one offers a seam for the
 * queue and the reconciler (see the {@code dev.ctk.examples.clientjava} example). {@code
 * withWorkQueue} must come before {@code watch(..)}: {@code watch} hands the builder's current queue
 * to the event handlers, and {@code withWorkQueue} shuts the previous queue down, so events sent to
 * it are lost and nothing is ever reconciled. (The queue's method is {@code rateLimitingQueue()}, after
 * client-java's type: {@link #workQueue()} is the read-only view that assertions use.)
 *
 * <p><b>What it records.</b> The {@link #rateLimitingQueue() work queue} is client-java's own queueing
 * (its {@code DefaultDelayingQueue} and, by default, its {@code DefaultControllerRateLimiter}, as
 * {@code ControllerBuilder} would use) and mirrors adds, delays, retries and which key is in flight;
 * a reconcile's attempt is the key's {@code numRequeues}. The {@link #reconciler(Reconciler)
 * reconciler} records each outcome as client-java's {@code Result} says: {@code Result(false)} is
 * {@code success}, {@code Result(true)} {@code requeue}, {@code Result(true, d)} {@code
 * requeueAfter}, a thrown exception (which {@code DefaultController} turns into a rate-limited
 * requeue) {@code exception}. Either alone works: the queue alone infers the outcome from the calls
 * that follow a reconcile ({@code forget}, {@code addRateLimited}, {@code addAfter}) and cannot tell
 * an exception from {@code Result(true)}; the reconciler alone knows nothing of queued or waiting
 * keys. The caches are the informers of the {@link #watch(SharedInformerFactory) factories} and
 * {@link #watch(String, SharedInformer) informers} it watches.
 *
 * <p>It is running once a worker asked its work queue for a key (after {@code DefaultController}'s
 * pre-flight check) and until the queue shuts down; without its work queue, from creation until the
 * {@link #start} run is closed. Thread-safe.
 *
 * @since 0.1.0
 */
public final class ClientJavaProbe implements ControllerView {

  /** The Kubernetes Java client's words for ctk's messages. */
  public static final Vocabulary VOCABULARY = new Vocabulary("Kubernetes Java client",
      "Kubernetes Java client controller", "work queue", "informer",
      Map.of(ReconcileOutcome.SUCCESS, "success", ReconcileOutcome.REQUEUE, "requeue",
          ReconcileOutcome.REQUEUE_AFTER, "requeueAfter", ReconcileOutcome.ERROR, "exception"),
      "ClientJavaProbe.start(harness, controller), or run() it on a thread after "
          + "SharedInformerFactory.startAllRegisteredInformers()");

  private final String name;
  private final Duration startTimeout;
  private final ControllerProbe probe;
  private final ReconcileTracker tracker;
  private final List<SharedInformerFactory> factories = new CopyOnWriteArrayList<>();
  private volatile ProbedWorkQueue queue;
  private ProbedReconciler reconciler;
  private ControllerRun run;

  private ClientJavaProbe(Builder builder) {
    this.name = builder.name;
    this.startTimeout = builder.startTimeout;
    this.probe = ControllerProbe.builder(name).withVocabulary(VOCABULARY)
        .withReconcileLogLimit(builder.logLimit).withRunningState(this::runningState).build();
    this.tracker = new ReconcileTracker(probe);
  }

  /**
   * A probe with a log of 10,000 reconciles and a start timeout of 30s.
   *
   * @param name the controller's name, as messages show it (e.g. its {@code withName(..)})
   * @return the probe
   */
  public static ClientJavaProbe create(String name) {
    return builder(name).build();
  }

  /**
   * A builder of a probe.
   *
   * @param name the controller's name, as messages show it
   * @return the builder
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * A work queue for {@code ControllerBuilder.withWorkQueue(..)}, with client-java's default rate
   * limiter ({@code DefaultControllerRateLimiter}: per-key exponential backoff from 5ms to 1000s, and
   * an overall bucket), as {@code ControllerBuilder} uses when given none.
   *
   * @return the queue; shut down by the controller's {@code shutdown()}
   * @throws IllegalStateException if this probe already made a work queue
   */
  public RateLimitingQueue<Request> rateLimitingQueue() {
    return rateLimitingQueue(new DefaultControllerRateLimiter<>());
  }

  /**
   * A work queue for {@code ControllerBuilder.withWorkQueue(..)}, with the controller's own rate
   * limiter.
   *
   * @param rateLimiter the backoff of {@code addRateLimited}
   * @return the queue; shut down by the controller's {@code shutdown()}
   * @throws IllegalStateException if this probe already made a work queue
   */
  public synchronized RateLimitingQueue<Request> rateLimitingQueue(
      RateLimiter<Request> rateLimiter) {
    Objects.requireNonNull(rateLimiter, "ClientJavaProbe.rateLimitingQueue: rateLimiter is null");
    if (queue != null) {
      throw new IllegalStateException("ClientJavaProbe \"" + name + "\" already made a work queue. "
          + "A probe observes one controller: call rateLimitingQueue() once, or create a probe per "
          + "controller.");
    }
    queue = new ProbedWorkQueue(name, probe, tracker, rateLimiter);
    return queue;
  }

  /**
   * Wraps the controller's reconciler for {@code ControllerBuilder.withReconciler(..)}: each call is
   * passed on unchanged and its outcome recorded.
   *
   * @param reconciler the controller's reconciler
   * @return a reconciler that calls {@code reconciler}
   * @throws IllegalStateException if this probe already wrapped a reconciler
   */
  public synchronized Reconciler reconciler(Reconciler reconciler) {
    Objects.requireNonNull(reconciler, "ClientJavaProbe.reconciler: reconciler is null");
    if (this.reconciler != null) {
      throw new IllegalStateException("ClientJavaProbe \"" + name + "\" already wraps a "
          + "reconciler. A probe observes one controller: call reconciler(..) once, or create a "
          + "probe per controller.");
    }
    this.reconciler = new ProbedReconciler(reconciler, tracker, name);
    return this.reconciler;
  }

  /**
   * Reports every informer of a {@code SharedInformerFactory} among the controller's caches (those
   * registered later too), named after their API type ({@code "V1ConfigMap informer"}); {@link
   * #start} starts the factory's informers and stops them after the test.
   *
   * @param factory the factory the controller's informers come from
   * @return this probe
   * @throws IllegalStateException if this client-java version keeps the factory's informers where
   *     ctk cannot read them (use {@link #watch(String, SharedInformer)} then)
   */
  public ClientJavaProbe watch(SharedInformerFactory factory) {
    Objects.requireNonNull(factory, "ClientJavaProbe.watch: factory is null");
    InformerCaches.checkReadable(factory);
    factories.add(factory);
    probe.watchCaches(() -> InformerCaches.of(factory));
    return this;
  }

  /**
   * Reports one informer among the controller's caches. client-java's informers do not tell their
   * API type, so give the name messages show.
   *
   * @param name e.g. {@code "V1ConfigMap informer"}
   * @param informer the informer
   * @return this probe
   */
  public ClientJavaProbe watch(String name, SharedInformer<?> informer) {
    Objects.requireNonNull(name, "ClientJavaProbe.watch: name is null");
    Objects.requireNonNull(informer, "ClientJavaProbe.watch: informer is null");
    probe.watchCaches(() -> List.of(InformerCaches.of(name, informer)));
    return this;
  }

  /**
   * Runs a client-java controller for the current test: shows this probe in the test's failure
   * report ({@code harness.observe}), starts the informers of the watched factories, calls the
   * controller's {@code run()} on a daemon thread, and waits until the caches synced and (with this
   * probe's work queue) a worker asked for a key. After the test (before the cluster closes) the
   * controller is shut down, the factories' informers are stopped and its thread is awaited.
   *
   * @param harness the test's harness
   * @param controller a {@code DefaultController} (built with this probe's work queue and/or
   *     reconciler) or a {@code ControllerManager} holding one
   * @param <C> the controller's type
   * @return the same controller, running
   * @throws IllegalStateException if this probe already started a controller, the controller is
   *     not attached to this probe, or it did not start within the start timeout (30s by default);
   *     the message lists the informers and whether a worker asked for work
   */
  public <C extends Controller> C start(ControllerHarness harness, C controller) {
    Objects.requireNonNull(harness, "ClientJavaProbe.start: harness is null");
    Objects.requireNonNull(controller, "ClientJavaProbe.start: controller is null");
    ControllerRun started;
    boolean withQueue;
    synchronized (this) {
      if (run != null) {
        throw new IllegalStateException("ClientJavaProbe \"" + name + "\" already started "
            + run + ". Start one controller per probe, once.");
      }
      checkAttached(controller);
      withQueue = queue != null;
      started = new ControllerRun(this, controller, new ArrayList<>(factories));
      run = started;
    }
    if (!harness.views().contains(this)) {
      harness.observe(this);
    }
    harness.closeAfterTest(started);
    started.start(startTimeout, withQueue);
    return controller;
  }

  /**
   * Runs a client-java controller that ctk can crash-restart, as it does its own {@code RestartableController}: each
   * instance gets an {@link ApiClient} of its own ({@link ApiClients#forHarness}, its requests carrying a {@code
   * User-Agent} that names the instance) and a probe of its own, and {@code factory} builds the controller on them.
   * {@code restart()} shuts the controller and its informers down and builds a fresh one. Perturbation runs ({@code
   * @Perturbed}) crash it at each of its writes and restart it, telling its writes from the test's by that User-Agent,
   * whatever thread sends them.
   *
   * <pre>{@code
   * RestartableProcess checksums = ClientJavaProbe.startRestartable(harness, "checksum", (apiClient, probe) -> {
   *   SharedInformerFactory informers = new SharedInformerFactory(apiClient);
   *   ...
   *   probe.watch(informers);
   *   return ControllerBuilder.defaultBuilder(informers).withWorkQueue(probe.rateLimitingQueue())
   *       .withReconciler(probe.reconciler(new ChecksumReconciler(apiClient))).watch(..).build();
   * });
   * assertThat(checksums.controller("checksum")).within(ofSeconds(10)).isIdle();
   * }</pre>
   *
   * @param harness the test's harness
   * @param name the controller's name: its probe's, its view's
   * @param factory builds a fresh controller on the given client and probe, not started, on each call
   * @return the restartable process; its view {@code controller(name)} follows the running instance
   * @throws IllegalStateException if the factory failed, the controller is not attached to the probe, or it did not
   *     start within 30s
   * @since 0.1.0
   */
  public static RestartableProcess startRestartable(ControllerHarness harness, String name,
      ControllerFactory factory) {
    Objects.requireNonNull(harness, "ClientJavaProbe.startRestartable: harness is null");
    Objects.requireNonNull(name, "ClientJavaProbe.startRestartable: name is null");
    Objects.requireNonNull(factory, "ClientJavaProbe.startRestartable: factory is null");
    return harness.startProcess(name, instance -> {
      ApiClient apiClient = ApiClients.forHarness(harness);
      apiClient.setUserAgent(instance.userAgent());
      ClientJavaProbe probe = create(name);
      Controller controller = factory.build(apiClient, probe);
      if (controller == null) {
        throw new IllegalStateException("the factory returned null; return the Controller it built");
      }
      ControllerRun run;
      synchronized (probe) {
        probe.checkAttached(controller);
        run = new ControllerRun(probe, controller, new ArrayList<>(probe.factories));
        probe.run = run;
      }
      try {
        run.start(probe.startTimeout, probe.queue != null);
      } catch (RuntimeException e) {
        try {
          run.close();
        } catch (RuntimeException stopFailure) {
          e.addSuppressed(stopFailure);
        }
        throw e;
      }
      return ControllerProcess.of(List.of(probe), run);
    });
  }

  /**
   * Builds one instance of a client-java controller for {@link #startRestartable}.
   *
   * @since 0.1.0
   */
  @FunctionalInterface
  public interface ControllerFactory {

    /**
     * Builds a fresh controller on the given client and probe, not started: its work queue from {@code
     * probe.rateLimitingQueue()} and/or its reconciler wrapped by {@code probe.reconciler(..)}, its informer factory
     * given to {@code probe.watch(..)}.
     *
     * @param apiClient the instance's own client
     * @param probe the instance's probe
     * @return the controller
     * @throws Exception when it cannot be built
     */
    Controller build(ApiClient apiClient, ClientJavaProbe probe) throws Exception;
  }

  private void checkAttached(Controller controller) {
    String attach = "Attach it on the ControllerBuilder: .withWorkQueue(probe.rateLimitingQueue()) before "
        + ".watch(..), and .withReconciler(probe.reconciler(reconciler)).";
    if (queue == null && reconciler == null) {
      throw new IllegalStateException("ClientJavaProbe \"" + name + "\" cannot observe "
          + describe(controller) + ": the probe made no work queue and wrapped no reconciler, so "
          + "nothing would be recorded. " + attach);
    }
    if (controller instanceof DefaultController built) {
      if (queue != null && built.getWorkQueue() != queue) {
        throw new IllegalStateException(describe(controller) + " does not use the work queue of "
            + "ClientJavaProbe \"" + name + "\" (it uses a "
            + built.getWorkQueue().getClass().getSimpleName() + "). " + attach);
      }
      if (reconciler != null && built.getReconciler() != reconciler) {
        throw new IllegalStateException(describe(controller) + " does not use the reconciler of "
            + "ClientJavaProbe \"" + name + "\" (it calls " + built.getReconciler() + "). "
            + attach);
      }
    }
  }

  private static String describe(Controller controller) {
    return controller instanceof DefaultController built
        ? "Kubernetes Java client controller \"" + built.getName() + "\" (DefaultController)"
        : "Kubernetes Java client controller " + controller.getClass().getSimpleName();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Vocabulary vocabulary() {
    return VOCABULARY;
  }

  @Override
  public boolean isRunning() {
    return probe.isRunning();
  }

  @Override
  public List<CacheState> caches() {
    return probe.caches();
  }

  /**
   * What the controller's work queue holds, for assertions ({@code
   * assertThat(probe).workQueue()...}). The queue to hand to {@code ControllerBuilder} is {@link
   * #rateLimitingQueue()}.
   *
   * @return the view of the work queue
   */
  @Override
  public WorkQueueView workQueue() {
    return probe.workQueue();
  }

  @Override
  public ControllerStats stats() {
    return probe.stats();
  }

  @Override
  public List<ReconcileRecord> reconcileLog() {
    return probe.reconcileLog();
  }

  @Override
  public Map<ObjectKey, Duration> runningReconciles() {
    return probe.runningReconciles();
  }

  @Override
  public String toString() {
    return VOCABULARY.controller() + " \"" + name + "\" (ClientJavaProbe)";
  }

  /** Whether a worker asked this probe's work queue for a key (false without one). */
  boolean askedForWork() {
    ProbedWorkQueue made = queue;
    return made != null && made.askedForWork();
  }

  /** The run of {@link #start} was closed. */
  void stopped() {
    probe.stopped();
  }

  private boolean runningState() {
    ProbedWorkQueue made = queue;   // volatile: read without the lock the probe may wait on
    return made == null || (made.askedForWork() && !made.isShuttingDown());
  }

  /**
   * Builds a {@link ClientJavaProbe}.
   *
   * @since 0.1.0
   */
  public static final class Builder {

    private final String name;
    private int logLimit = 10_000;
    private Duration startTimeout = Duration.ofSeconds(30);

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "ClientJavaProbe.builder: name is null");
    }

    /**
     * How many reconcile records the log keeps (the oldest are dropped; counters stay exact).
     *
     * @param maxRecords at least 1
     * @return this builder
     */
    public Builder withReconcileLogLimit(int maxRecords) {
      if (maxRecords < 1) {
        throw new IllegalArgumentException("withReconcileLogLimit: " + maxRecords
            + " is not a valid limit. Pass at least 1.");
      }
      this.logLimit = maxRecords;
      return this;
    }

    /**
     * How long {@link ClientJavaProbe#start} waits for the caches to sync and a worker to ask for
     * work.
     *
     * @param timeout positive
     * @return this builder
     */
    public Builder withStartTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "withStartTimeout: timeout is null");
      if (timeout.isZero() || timeout.isNegative()) {
        throw new IllegalArgumentException("withStartTimeout: " + timeout + " is not a valid "
            + "timeout. Pass a positive duration, e.g. Duration.ofSeconds(30).");
      }
      this.startTimeout = timeout;
      return this;
    }

    /**
     * Builds the probe.
     *
     * @return the probe
     */
    public ClientJavaProbe build() {
      return new ClientJavaProbe(this);
    }
  }
}
