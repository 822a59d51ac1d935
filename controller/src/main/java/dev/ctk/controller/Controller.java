package dev.ctk.controller;

import dev.ctk.controller.internal.ThrowableText;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An informer-fed controller: informer events pass the predicates, the event handlers map them to
 * keys, the keys go through a {@link WorkQueue}, and N worker threads hand each key to the
 * {@link Reconciler}. A key is never reconciled by two workers at once. Every reconcile is recorded in
 * a bounded log ({@link #reconcileLog()}) and counted ({@link #stats()}).
 *
 * <p>What a result does to the key (as in controller-runtime): {@link Result#done()} forgets its
 * backoff; {@link Result#requeue()} and a thrown exception re-add it with the rate limiter's backoff;
 * {@link Result#requeueAfter} forgets its backoff and re-adds it after the delay.
 *
 * <p>Failures of user code never stop the controller: an exception or {@link Error} (such as a
 * failed assertion) thrown by the reconciler is an {@link ReconcileOutcome#ERROR} retried with
 * backoff; one thrown by an event handler, a predicate or a listener is logged and ignored. Only a
 * {@link VirtualMachineError} (out of memory, stack overflow) ends the worker thread it hit, after the
 * key was recorded and marked done; {@link #isRunning()} then turns false and {@link #workerError()}
 * returns the error.
 *
 * <p><b>Informers shared by controllers.</b> The controller that starts an informer (because it was
 * not running at {@link #start()}) owns it and stops it on {@link #close()}, even if another
 * controller still watches it: there is no reference counting. To share an informer, start it
 * yourself before starting the controllers and stop it after closing them.
 *
 * <pre>{@code
 * SharedIndexInformer<ConfigMap> configMaps = client.configMaps().inNamespace("default").inform();
 * try (Controller controller = Controller.builder("cm")
 *     .watch(configMaps, EventHandlers.enqueueObject())
 *     .withReconciler(key -> Result.done())
 *     .withWorkers(2)
 *     .build()
 *     .start()) {
 *   // ... the controller reconciles until closed
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public final class Controller implements ControllerView, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Controller.class);

  private final String name;
  private final List<InformerSource<?>> sources;
  private final Reconciler reconciler;
  private final int workerCount;
  private final TimeSource time;
  private final Duration cacheSyncTimeout;
  private final Duration shutdownTimeout;
  private final List<ReconcileListener> listeners;
  private final WorkQueue<ObjectKey> queue;
  private final ReconcileLog log;
  private final ResyncTimer resync;

  private final Object lifecycle = new Object();
  private final List<Thread> workers = new ArrayList<>();
  private final List<ReconcileWorker> loops = new ArrayList<>();
  private volatile String shutdownWarning;
  private volatile boolean started;
  private volatile boolean running;
  private volatile boolean closed;
  /** Counted down when the first {@link #close()} has done its work: later calls wait for it. */
  private final CountDownLatch closeDone = new CountDownLatch(1);

  private Controller(Builder builder) {
    this.name = builder.name;
    this.sources = List.copyOf(builder.sources);
    this.reconciler = builder.reconciler;
    this.workerCount = builder.workers;
    this.time = builder.time;
    this.cacheSyncTimeout = builder.cacheSyncTimeout;
    this.shutdownTimeout = builder.shutdownTimeout;
    this.listeners = new CopyOnWriteArrayList<>(builder.listeners);
    this.log = new ReconcileLog(builder.logLimit);
    WorkQueue.Builder<ObjectKey> queueBuilder = WorkQueue.<ObjectKey>builder()
        .withName(name)
        .withTimeSource(time);
    if (builder.rateLimiter != null) {
      queueBuilder.withRateLimiter(builder.rateLimiter);
    }
    this.queue = queueBuilder.build();
    this.resync = builder.resyncPeriod == null ? null
        : new ResyncTimer(name, time, builder.resyncPeriod, sources);
  }

  /**
   * A builder for a controller with this name. The name appears in messages, in the work queue's name
   * and in worker thread names ({@code ctk-<name>-worker-<i>}).
   *
   * @param name the controller's name, not blank
   * @return the builder
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * The controller's name.
   *
   * @return the name
   */
  @Override
  public String name() {
    return name;
  }

  /**
   * Registers the event handlers with the informers, starts every informer that is not running (the
   * controller then owns it and stops it on {@link #close()}), waits (real time, at most the cache sync
   * timeout) until every informer has synced, then starts the worker threads
   * {@code ctk-<name>-worker-1..N}. Events that arrive before the workers start are queued.
   *
   * <p>Any failure closes the controller before it propagates: no event handler stays registered and
   * no informer it started keeps running. An {@link Error} thrown by an informer propagates as is.
   *
   * @return this controller
   * @throws CacheSyncTimeoutException if the caches did not sync in time, or an informer failed to
   *     start; the controller is then closed
   * @throws IllegalStateException if called twice, or after {@link #close()}
   * @throws CtkException if an informer refuses the event handler or cannot be started (e.g. it was
   *     stopped), or the controller was closed or the thread interrupted while waiting for the caches
   */
  public Controller start() {
    CacheSync sync;
    synchronized (lifecycle) {
      if (started || closed) {
        throw new IllegalStateException("Controller \"" + name + "\" was already "
            + (closed && !started ? "closed" : "started") + "; a controller starts once. Build a "
            + "new one with Controller.builder(\"" + name + "\") to run it again.");
      }
      started = true;
      registerAndStartInformers();
      sync = new CacheSync(name, sources, cacheSyncTimeout);
    }
    boolean synced;
    try {
      synced = sync.await(() -> closed);
    } catch (CacheSyncTimeoutException e) {
      closeAfterFailedStart(e);
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      CtkException failure = new CtkException("Controller \"" + name + "\" could not start: "
          + "interrupted while waiting for informer caches to sync. The controller was closed.", e);
      closeAfterFailedStart(failure);
      throw failure;
    }
    synchronized (lifecycle) {
      if (!synced || closed) {
        throw new CtkException("Controller \"" + name + "\" could not start: it was closed while "
            + "waiting for informer caches to sync.");
      }
      for (int i = 1; i <= workerCount; i++) {
        ReconcileWorker loop = new ReconcileWorker(name, queue, reconciler, time, log, listeners);
        Thread worker = new Thread(loop, "ctk-" + name + "-worker-" + i);
        worker.setDaemon(true);
        loops.add(loop);
        workers.add(worker);
      }
      workers.forEach(Thread::start);
      running = true;
      if (resync != null) {
        resync.start();
      }
    }
    LOG.debug("Controller \"{}\" started with {} workers", name, workerCount);
    return this;
  }

  /**
   * Registers every event handler and starts every informer that is not running; on any failure
   * (even an {@link Error}) closes the controller, so no handler stays registered and no informer it
   * started keeps running. Called holding the lifecycle lock.
   */
  private void registerAndStartInformers() {
    InformerSource<?> current = null;
    boolean registering = true;
    try {
      for (InformerSource<?> source : sources) {
        current = source;
        source.register(queue, name);
      }
      registering = false;
      for (InformerSource<?> source : sources) {
        current = source;
        source.startIfNotRunning();
      }
    } catch (Throwable e) {
      closeAfterFailedStart(e);
      if (!(e instanceof RuntimeException)) {
        throw e;
      }
      if (registering) {
        throw new CtkException("Controller \"" + name + "\" could not start: adding its event "
            + "handler to the " + current.kind() + " informer failed: " + e.getClass().getName()
            + (e.getMessage() == null ? "" : ": " + ThrowableText.firstLine(e.getMessage()))
            + ". The controller was closed. Fix: pass a fabric8 SharedIndexInformer that accepts "
            + "event handlers (e.g. from client.resources(..).inform() or runnableInformer(..)).", e);
      }
      throw new CtkException("Controller \"" + name + "\" could not start its " + current.kind()
          + " informer: " + ThrowableText.firstLine(e.getMessage()) + ". The controller was closed. "
          + "Fix: pass an informer that is running or was never started (a stopped informer cannot be restarted).", e);
    }
  }

  /**
   * Whether every informer of the controller has synced.
   *
   * @return {@code true} when all caches synced
   */
  @Override
  public boolean hasSynced() {
    return sources.stream().allMatch(InformerSource::hasSynced);
  }

  /**
   * Whether the workers run: {@link #start()} succeeded, {@link #close()} was not called, and no
   * worker thread ended on a {@link VirtualMachineError}.
   *
   * @return {@code true} while running
   */
  @Override
  public boolean isRunning() {
    if (!running || closed) {
      return false;
    }
    synchronized (lifecycle) {
      return workers.stream().allMatch(Thread::isAlive);
    }
  }

  /**
   * Whether {@link #close()} was called (it may still be draining). A closed controller never runs
   * again: {@link #start()} refuses it, and a new one has to be built.
   *
   * @return {@code true} once {@code close()} was called
   * @since 0.1.0
   */
  public boolean isClosed() {
    return closed;
  }

  /**
   * The error that ended a worker thread, if one did: only a {@link VirtualMachineError} (such as a
   * {@link StackOverflowError} thrown by a reconciler that recursed without end) ends a worker; the
   * controller does not replace it, and {@link #isRunning()} is {@code false} from then on.
   *
   * <pre>{@code
   * controller.workerError();   // Optional[java.lang.StackOverflowError]
   * }</pre>
   *
   * @return the first such error (of the first worker it ended), or empty
   * @since 0.1.0
   */
  public Optional<VirtualMachineError> workerError() {
    List<ReconcileWorker> current;
    synchronized (lifecycle) {
      current = List.copyOf(loops);
    }
    return current.stream().map(ReconcileWorker::fatal).filter(Objects::nonNull).findFirst();
  }

  /**
   * The controller's work queue (named as the controller), e.g. to read its {@code stats()}.
   *
   * @return the queue
   */
  @Override
  public WorkQueue<ObjectKey> workQueue() {
    return queue;
  }

  /**
   * The informers the controller watches, in the order of {@code watch(..)} calls.
   *
   * @return an immutable list
   */
  public List<SharedIndexInformer<?>> informers() {
    List<SharedIndexInformer<?>> informers = new ArrayList<>(sources.size());
    sources.forEach(source -> informers.add(source.informer()));
    return List.copyOf(informers);
  }

  /**
   * An immutable snapshot of the controller's counters and its queue.
   *
   * @return the statistics
   */
  @Override
  public ControllerStats stats() {
    return log.stats(name, hasSynced(), queue.stats());
  }

  /**
   * Every reconcile still in the bounded log, oldest first.
   *
   * @return an immutable copy
   */
  @Override
  public List<ReconcileRecord> reconcileLog() {
    return log.records();
  }

  /**
   * The records of one key still in the bounded log, oldest first.
   *
   * @param key the key
   * @return an immutable list, empty if the key was never reconciled (or its records were dropped)
   */
  @Override
  public List<ReconcileRecord> reconcileLog(ObjectKey key) {
    Objects.requireNonNull(key, "Controller.reconcileLog: key is null");
    return log.records().stream().filter(r -> r.key().equals(key)).toList();
  }

  /**
   * The reconciles its workers run now, each key with how long its reconcile has run, on the
   * controller's time source (from just before the reconciler is called until it returns).
   *
   * @return an immutable map, the reconcile that started first first
   */
  @Override
  public Map<ObjectKey, Duration> runningReconciles() {
    List<ReconcileWorker> current;
    synchronized (lifecycle) {
      current = List.copyOf(loops);
    }
    List<ReconcileWorker.Running> running = new ArrayList<>();
    for (ReconcileWorker loop : current) {
      ReconcileWorker.Running reconcile = loop.running();
      if (reconcile != null) {
        running.add(reconcile);
      }
    }
    running.sort(Comparator.comparing(ReconcileWorker.Running::start));
    Instant now = time.now();
    Map<ObjectKey, Duration> durations = new LinkedHashMap<>();
    for (ReconcileWorker.Running reconcile : running) {
      Duration runFor = Duration.between(reconcile.start(), now);
      durations.putIfAbsent(reconcile.key(), runFor.isNegative() ? Duration.ZERO : runFor);
    }
    return Collections.unmodifiableMap(durations);
  }

  /**
   * The state of each informer the controller watches, in the order of {@code watch(..)} calls.
   *
   * @return an immutable list
   */
  @Override
  public List<CacheState> caches() {
    return informers().stream().map(CacheState::of).toList();
  }

  /**
   * Adds a listener after the controller was built.
   *
   * @param listener the listener
   */
  public void addReconcileListener(ReconcileListener listener) {
    listeners.add(Objects.requireNonNull(listener,
        "Controller.addReconcileListener: listener is null"));
  }

  /**
   * Stops the controller: removes the event handlers it added, shuts the work queue down (keys waiting
   * on a delay are dropped; keys already queued are still reconciled, as in controller-runtime), waits
   * for the keys in flight and joins the workers (at most the shutdown timeout, real time, then it
   * interrupts them and waits about a second more), and stops the informers it started (even if
   * another controller still watches them). Idempotent. Afterwards no thread of this controller
   * remains, unless a reconcile ignores interrupts (it is then logged, with the fix).
   *
   * <p>A later call, on another thread while the first still drains, returns only once the first
   * has returned and the workers have ended, so it keeps the same promise. If the first was called
   * inside a reconcile, the later call also joins that reconcile's worker, at most the shutdown
   * timeout before it interrupts it, as the first call does with the others. A later call that is
   * interrupted while it waits returns at once with the interrupt flag kept; the first goes on.
   *
   * <p>Called from inside a reconcile (on a worker thread of this controller), it waits for the other
   * keys in flight but not for the caller's own, and does not join the caller's thread: that worker
   * ends once its reconcile returns. If another thread is already closing the controller, it returns
   * at once: that close waits for the caller's own key, so waiting for it would wait for itself. If
   * the closing thread is interrupted, the workers still running are interrupted at once and joined
   * for about a second; the interrupt flag is kept.
   */
  @Override
  public void close() {
    List<Thread> toJoin;
    List<ReconcileWorker> loopsToJoin;
    boolean first;
    synchronized (lifecycle) {
      first = !closed;
      closed = true;
      running = false;
      toJoin = List.copyOf(workers);
      loopsToJoin = List.copyOf(loops);
    }
    if (!first) {
      awaitFirstClose(toJoin, loopsToJoin);
      return;
    }
    try {
      synchronized (lifecycle) {
        if (resync != null) {
          resync.stop();
        }
        sources.forEach(source -> quietly("remove its event handler from the " + source.kind()
            + " informer", source::unregister));
      }
      drainAndStop(toJoin, loopsToJoin);
    } finally {
      closeDone.countDown();
    }
  }

  /**
   * The rest of the first {@link #close()}, once the controller is marked closed and its event
   * handlers are removed: drains the queue, joins the workers, stops the informers it started.
   *
   * @param toJoin the worker threads when close() was called
   * @param loopsToJoin their loops, in the same order
   */
  private void drainAndStop(List<Thread> toJoin, List<ReconcileWorker> loopsToJoin) {
    ObjectKey ownKey = loopsToJoin.stream().filter(l -> l.thread() == Thread.currentThread())
        .findFirst().map(ReconcileWorker::currentKey).orElse(null);
    TimeSource realTime = TimeSource.system();
    long deadline = realTime.nanoTime() + SystemTimeSource.saturatedNanos(shutdownTimeout);
    boolean drained = queue.shutDownWithDrain(shutdownTimeout, ownKey);
    List<String> stuck = new ArrayList<>(queue.stats().inFlightKeys());
    if (ownKey != null) {
      stuck.remove(ownKey.toString());
    }
    boolean interrupted = Thread.interrupted();
    try {
      interrupted |= WorkerShutdown.join(name, toJoin, loopsToJoin, deadline, interrupted);
    } finally {
      sources.forEach(source -> quietly("stop the " + source.kind() + " informer it started",
          source::stopIfOwned));
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (!drained && !stuck.isEmpty()) {
      shutdownWarning = WorkerShutdown.stuckKeysWarning(name, interrupted, shutdownTimeout, stuck);
      LOG.warn(shutdownWarning);
    }
  }

  /**
   * A later {@link #close()}: waits until the first one has returned, then joins the workers that
   * are still alive (the first one's own, if it was called inside a reconcile), at most the shutdown
   * timeout before they are interrupted. Returns at once on a worker thread of this controller: the
   * first close waits for that worker's key, so waiting here would wait for itself.
   */
  private void awaitFirstClose(List<Thread> threads, List<ReconcileWorker> workerLoops) {
    if (threads.contains(Thread.currentThread())) {
      return;
    }
    try {
      closeDone.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (threads.stream().noneMatch(Thread::isAlive)) {
      return;
    }
    long deadline = TimeSource.system().nanoTime() + SystemTimeSource.saturatedNanos(shutdownTimeout);
    if (WorkerShutdown.join(name, threads, workerLoops, deadline, false)) {
      Thread.currentThread().interrupt();
    }
  }

  /** What close() warned about keys still in flight, or null: for tests in this package. */
  String shutdownWarning() {
    return shutdownWarning;
  }

  private void closeAfterFailedStart(Throwable cause) {
    try {
      close();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      cause.addSuppressed(e);
      LOG.warn("Controller \"{}\": cleaning up after a failed start failed", name, e);
    }
  }

  private void quietly(String what, Runnable step) {
    try {
      step.run();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      LOG.warn("Controller \"{}\": close() could not {}; it goes on closing", name, what, e);
    }
  }

  @Override
  public String toString() {
    return "Controller \"" + name + "\"";
  }

  /**
   * Builds a {@link Controller}: at least one {@code watch(..)} and a reconciler are required.
   *
   * <pre>{@code
   * Controller controller = Controller.builder("replicaset-labeller")
   *     .watch(replicaSets, EventHandlers.enqueueObject(), EventPredicate.labelsChanged())
   *     .watch(pods, EventHandlers.enqueueOwner("apps", "ReplicaSet", true))
   *     .withReconciler(labeller)
   *     .withWorkers(2)
   *     .build();
   * }</pre>
   *
   * @since 0.1.0
   */
  public static final class Builder {
    private final String name;
    private final List<InformerSource<?>> sources = new ArrayList<>();
    private final List<ReconcileListener> listeners = new ArrayList<>();
    private Reconciler reconciler;
    private int workers = 1;
    private TimeSource time = TimeSource.system();
    private RateLimiter<ObjectKey> rateLimiter;
    private Duration cacheSyncTimeout = Duration.ofSeconds(30);
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private int logLimit = 10_000;
    private Duration resyncPeriod;
    private boolean built;

    private Builder(String name) {
      Objects.requireNonNull(name, "Controller.builder: name is null");
      if (name.isBlank()) {
        throw new IllegalArgumentException("A controller name must not be blank: it names the work "
            + "queue and the worker threads. Use e.g. Controller.builder(\"nginx-service\").");
      }
      this.name = name;
    }

    /**
     * Watches an informer: its events pass all {@code predicates}, then {@code handler} maps them to
     * keys for the work queue.
     *
     * @param informer the informer; started by the controller unless already running
     * @param handler maps event objects to keys
     * @param predicates filters, all of which must let an event through
     * @param <T> the informer's object type
     * @return this builder
     */
    @SafeVarargs
    public final <T extends HasMetadata> Builder watch(SharedIndexInformer<T> informer,
        EventHandler<T> handler, EventPredicate<T>... predicates) {
      Objects.requireNonNull(informer, () -> "Controller.Builder.watch: informer is null "
          + "(controller \"" + name + "\")");
      Objects.requireNonNull(handler, () -> "Controller.Builder.watch: handler is null (controller "
          + "\"" + name + "\"). Use e.g. EventHandlers.enqueueObject().");
      Objects.requireNonNull(predicates, () -> "Controller.Builder.watch: predicates is null "
          + "(controller \"" + name + "\")");
      for (int i = 0; i < predicates.length; i++) {
        int index = i;
        Objects.requireNonNull(predicates[i], () -> "Controller.Builder.watch: predicate "
            + (index + 1) + " of " + predicates.length + " is null (controller \"" + name + "\")");
      }
      sources.add(new InformerSource<>(informer, handler, List.of(predicates)));
      return this;
    }

    /**
     * The reconciler (required).
     *
     * @param reconciler the reconciler
     * @return this builder
     */
    public Builder withReconciler(Reconciler reconciler) {
      this.reconciler = Objects.requireNonNull(reconciler,
          "Controller.Builder.withReconciler: reconciler is null");
      return this;
    }

    /**
     * How many worker threads reconcile (default 1).
     *
     * @param workers at least 1 (checked by {@link #build()})
     * @return this builder
     */
    public Builder withWorkers(int workers) {
      this.workers = workers;
      return this;
    }

    /**
     * The time source of delays, backoff and reconcile timestamps (default
     * {@link TimeSource#system()}).
     *
     * @param time the time source
     * @return this builder
     */
    public Builder withTimeSource(TimeSource time) {
      this.time = Objects.requireNonNull(time, "Controller.Builder.withTimeSource: time is null");
      return this;
    }

    /**
     * The rate limiter of retries (default {@link RateLimiter#defaultControllerRateLimiter} on the
     * controller's time source).
     *
     * @param rateLimiter the rate limiter
     * @return this builder
     */
    public Builder withRateLimiter(RateLimiter<ObjectKey> rateLimiter) {
      this.rateLimiter = Objects.requireNonNull(rateLimiter,
          "Controller.Builder.withRateLimiter: rateLimiter is null");
      return this;
    }

    /**
     * How long {@link Controller#start()} waits for the informer caches (default 30s, real time).
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder withCacheSyncTimeout(Duration timeout) {
      this.cacheSyncTimeout = positive(timeout, "withCacheSyncTimeout");
      return this;
    }

    /**
     * How long {@link Controller#close()} waits for keys in flight before it interrupts the workers
     * (default 30s, real time).
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder withShutdownTimeout(Duration timeout) {
      this.shutdownTimeout = positive(timeout, "withShutdownTimeout");
      return this;
    }

    /**
     * Resyncs every watched informer every {@code period} on the controller's time source: each object
     * in the informer's cache is delivered to the controller's event handler as an update whose old
     * and new objects are the same (predicates see it as such; see {@link EventPredicate}). The first
     * resync comes one period after {@link Controller#start()} returned; none after
     * {@link Controller#close()}. Default: no resync.
     *
     * <p>This resync, not fabric8's own, is the one a virtual time source drives: under
     * {@link VirtualTime}, {@code time.advance(period)} resyncs. An informer created with a fabric8
     * resync period still resyncs on real time as well.
     *
     * <pre>{@code
     * Controller.builder("nginx-service").withTimeSource(time).withResyncPeriod(Duration.ofHours(1))
     * }</pre>
     *
     * @param period a positive duration
     * @return this builder
     */
    public Builder withResyncPeriod(Duration period) {
      Objects.requireNonNull(period, "Controller.Builder.withResyncPeriod: period is null");
      if (period.isZero() || period.isNegative()) {
        throw new IllegalArgumentException("withResyncPeriod(" + period + "): the resync period of "
            + "controller \"" + name + "\" must be positive. Leave it out for no resync.");
      }
      this.resyncPeriod = period;
      return this;
    }

    /**
     * How many records the reconcile log keeps (default 10,000); older ones are dropped and counted
     * in {@link ControllerStats#droppedLogRecords()}.
     *
     * @param maxRecords at least 1
     * @return this builder
     */
    public Builder withReconcileLogLimit(int maxRecords) {
      if (maxRecords < 1) {
        throw new IllegalArgumentException("withReconcileLogLimit(" + maxRecords + "): the reconcile "
            + "log must keep at least 1 record.");
      }
      this.logLimit = maxRecords;
      return this;
    }

    /**
     * Adds a listener of reconciles.
     *
     * @param listener the listener
     * @return this builder
     */
    public Builder addReconcileListener(ReconcileListener listener) {
      listeners.add(Objects.requireNonNull(listener,
          "Controller.Builder.addReconcileListener: listener is null"));
      return this;
    }

    /**
     * Builds the controller (not started). A builder builds once.
     *
     * @return the controller
     * @throws IllegalStateException if there is no reconciler, no source, fewer than 1 worker, or the
     *     builder already built
     */
    public Controller build() {
      String problem = null;
      if (built) {
        throw new IllegalStateException("This Controller.Builder already built controller \"" + name
            + "\". Use a new Controller.builder(..) for another controller.");
      } else if (sources.isEmpty()) {
        problem = "no informer to watch. Call watch(informer, EventHandlers.enqueueObject()) at "
            + "least once before build().";
      } else if (reconciler == null) {
        problem = "no reconciler. Call withReconciler(key -> ...) before build().";
      } else if (workers < 1) {
        problem = "withWorkers(" + workers + "): a controller needs at least 1 worker.";
      }
      if (problem != null) {
        throw new IllegalStateException("Controller \"" + name + "\" cannot be built: " + problem);
      }
      built = true;
      return new Controller(this);
    }

    private static Duration positive(Duration timeout, String method) {
      Objects.requireNonNull(timeout, () -> "Controller.Builder." + method + ": timeout is null");
      if (timeout.isZero() || timeout.isNegative()) {
        throw new IllegalArgumentException(method + "(" + timeout + "): the timeout must be "
            + "positive.");
      }
      return timeout;
    }
  }
}
