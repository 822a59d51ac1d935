package dev.ctk.controller;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Records what a controller that ctk does not run itself does (keys queued, reconciles started and
 * how they ended, its caches), and shows it as a {@link ControllerView}, so that ctk's assertions and
 * failure reports work on it. Framework integrations (Java Operator SDK, the Kubernetes Java client)
 * feed a probe from the framework's own hooks; a hand-written controller attaches one to its queue
 * and its reconcile method in two lines:
 *
 * <pre>{@code
 * ControllerProbe probe = ControllerProbe.create("config-syncer").watch(informer);
 * BlockingQueue<String> queue = probe.observe(new LinkedBlockingQueue<>());   // 1: the queue
 * ...
 * probe.reconcile(key, () -> reconcile(key));                                 // 2: each reconcile
 *
 * assertThat(probe).within(ofSeconds(5)).hasReconciledSuccessfully("default/app");
 * }</pre>
 *
 * <p>The probe's queue model: a key {@link #added added} is queued (once, as in a de-duplicating
 * work queue) until a reconcile of it starts or it is {@link #removed removed}; a key {@link
 * #addedAfter added after a delay} or {@link #addedRateLimited rate-limited} waits until a reconcile
 * of it starts, it is removed, or its delay passed; a key is in flight from {@link
 * #reconcileStarted} to the end of that reconcile. With an {@link #observe(BlockingQueue) observed
 * queue}, the queued keys are the queue's own contents instead (duplicates included).
 *
 * <p>A hand-written loop that retries a key later puts it back through {@link #delayedRequeue}, so
 * the probe sees the key waiting until it is back in the queue. A key whose last reconcile failed or
 * asked for a retry, and whose next step the probe was not told (added, waiting, removed), is {@link
 * #unaccountedKeys() unaccounted}: it counts as waiting, so no idle check passes while the probe
 * cannot know whether a retry is pending.
 *
 * <p>Limits: the probe knows only what it is told. A key given to {@link #addedAfter} stops waiting
 * when its delay passed, even if the framework has not re-added it yet, so for that moment the probe
 * may look idle ({@link #delayedRequeue} has no such gap); an observed queue counts every insert as
 * an add, whether or not the controller de-duplicates keys later. Thread-safe: framework threads feed
 * it while the test reads it.
 *
 * @since 0.1.0
 */
public final class ControllerProbe implements ControllerView {

  private final String name;
  private final Vocabulary vocabulary;
  private final TimeSource time;
  private final BooleanSupplier runningState;
  private final ReconcileLog log;
  private final List<Supplier<List<CacheState>>> caches = new CopyOnWriteArrayList<>();
  private final LinkedHashSet<ObjectKey> queued = new LinkedHashSet<>();
  /** The reconciles started and not ended, in the order they started. */
  private final List<Reconciliation> inFlight = new ArrayList<>();
  private final Map<ObjectKey, Instant> waiting = new LinkedHashMap<>();
  /** Requeues a {@link DelayedRequeue} scheduled: they wait until they fired, whatever the clock says. */
  private final Map<ObjectKey, Instant> scheduled = new LinkedHashMap<>();
  /** Keys whose last reconcile failed or asked for a retry, and whose next step the probe was not told. */
  private final LinkedHashSet<ObjectKey> unaccounted = new LinkedHashSet<>();
  private final Map<ObjectKey, Integer> failuresInARow = new HashMap<>();
  private final WorkQueueView queueView = new QueueView();
  private final boolean failedKeysDropped;
  private Supplier<List<ObjectKey>> observedQueue;
  private long adds;
  private long retries;
  private volatile boolean running = true;

  private ControllerProbe(Builder builder) {
    this.name = builder.name;
    this.vocabulary = builder.vocabulary;
    this.time = builder.time;
    this.runningState = builder.runningState;
    this.log = new ReconcileLog(builder.logLimit);
    this.failedKeysDropped = builder.failedKeysDropped;
  }

  /**
   * A probe with ctk's vocabulary, real time and a log of 10,000 reconciles.
   *
   * @param name the controller's name, as messages show it
   * @return the probe
   */
  public static ControllerProbe create(String name) {
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
   * Adds a fabric8 informer to the caches this probe reports ({@link #caches()}). The probe only
   * reads it: it neither starts nor stops it.
   *
   * @param informer the informer
   * @return this probe
   */
  public ControllerProbe watch(SharedIndexInformer<?> informer) {
    Objects.requireNonNull(informer, () -> "ControllerProbe.watch: informer is null" + context());
    caches.add(() -> List.of(CacheState.of(informer)));
    return this;
  }

  /**
   * Adds caches read on demand, e.g. a framework's event sources.
   *
   * @param states returns the caches' states now; called whenever the probe is read
   * @return this probe
   */
  public ControllerProbe watchCaches(Supplier<List<CacheState>> states) {
    caches.add(Objects.requireNonNull(states,
        () -> "ControllerProbe.watchCaches: states is null" + context()));
    return this;
  }

  /**
   * Wraps the controller's queue of {@code "namespace/name"} keys: every insert counts as an add, and
   * the probe's queued keys are the queue's contents. Use the returned queue in its place.
   *
   * <pre>{@code
   * BlockingQueue<String> queue = probe.observe(new LinkedBlockingQueue<>());
   * queue.put("default/web");    // counted as an add; "default/web" is queued
   * }</pre>
   *
   * <p>An insert counts even if the controller later skips the key as a duplicate: the probe sees
   * inserts, not the controller's de-duplication. Once a queue is observed, {@link #added} only
   * counts adds, the queue's contents being the queued keys.
   *
   * @param queue the controller's queue
   * @return a queue that forwards every call to {@code queue}
   * @throws IllegalStateException if this probe already observes a queue
   */
  public BlockingQueue<String> observe(BlockingQueue<String> queue) {
    return observe(queue, ObjectKey::parse);
  }

  /**
   * Wraps the controller's queue of any element type: every insert counts as an add, and the probe's
   * queued keys are the queue's contents, each mapped to a key. Use the returned queue in its place.
   *
   * @param queue the controller's queue
   * @param keyOf the key of an element
   * @param <E> the element type
   * @return a queue that forwards every call to {@code queue}
   * @throws IllegalStateException if this probe already observes a queue
   */
  public <E> BlockingQueue<E> observe(BlockingQueue<E> queue, Function<? super E, ObjectKey> keyOf) {
    Objects.requireNonNull(queue, () -> "ControllerProbe.observe: queue is null" + context());
    Objects.requireNonNull(keyOf, () -> "ControllerProbe.observe: keyOf is null" + context());
    synchronized (this) {
      if (observedQueue != null) {
        throw new IllegalStateException("ControllerProbe \"" + name + "\" already observes a queue; "
            + "it cannot observe a second one. Observe one queue per probe, or create a probe per "
            + "controller.");
      }
      observedQueue = () -> {
        List<ObjectKey> keys = new ArrayList<>();
        for (Object element : queue.toArray()) {
          @SuppressWarnings("unchecked")
          E typed = (E) element;
          keys.add(keyOf.apply(typed));
        }
        return keys;
      };
    }
    return new ObservedBlockingQueue<>(queue, element -> countAdd(keyOf.apply(element)));
  }

  /**
   * A delayed requeue for a hand-written loop: use it instead of its own timer to put a key back in {@code queue}
   * after a delay, so that the probe sees the key waiting until it is back (and counts retries). Pair it with
   * {@link #observe(BlockingQueue)}:
   *
   * <pre>{@code
   * BlockingQueue<String> queue = probe.observe(new LinkedBlockingQueue<>());
   * DelayedRequeue requeue = probe.delayedRequeue(queue);
   * ...
   * requeue.retryAfter(key, Duration.ofSeconds(2));   // after a failed reconcile
   * }</pre>
   *
   * @param queue the controller's queue, the one {@link #observe(BlockingQueue)} returned
   * @return the requeue; close it with the controller (pending requeues are dropped)
   */
  public DelayedRequeue<String> delayedRequeue(BlockingQueue<String> queue) {
    return delayedRequeue(queue, ObjectKey::toString);
  }

  /**
   * A delayed requeue for a queue of any element type; see {@link #delayedRequeue(BlockingQueue)}.
   *
   * @param queue the controller's queue
   * @param elementOf the element to put back for a key
   * @param <E> the element type
   * @return the requeue
   */
  public <E> DelayedRequeue<E> delayedRequeue(BlockingQueue<E> queue, Function<ObjectKey, E> elementOf) {
    Objects.requireNonNull(queue, () -> "ControllerProbe.delayedRequeue: queue is null" + context());
    Objects.requireNonNull(elementOf,
        () -> "ControllerProbe.delayedRequeue: elementOf is null" + context());
    return new DelayedRequeue<>(this, time, queue, elementOf);
  }

  /** Marks the controller as running (the initial state). */
  public void started() {
    running = true;
  }

  /** Marks the controller as stopped. */
  public void stopped() {
    running = false;
  }

  /**
   * A key was added to the controller's queue, ready to be reconciled. A key already queued stays
   * queued once (the add is still counted).
   *
   * @param key the key
   */
  public synchronized void added(ObjectKey key) {
    Objects.requireNonNull(key, () -> "ControllerProbe.added: key is null" + context());
    adds++;
    unaccounted.remove(key);
    if (observedQueue == null) {
      queued.add(key);
    }
  }

  /**
   * A key was added to be reconciled after a delay (a requeue after, a reschedule, a timer). It waits
   * until a reconcile of it starts, it is {@link #removed removed}, or the delay passed, whichever
   * comes first; adding it again replaces its deadline.
   *
   * @param key the key
   * @param delay the delay, from now on the probe's time source
   */
  public synchronized void addedAfter(ObjectKey key, Duration delay) {
    Objects.requireNonNull(key, () -> "ControllerProbe.addedAfter: key is null" + context());
    Objects.requireNonNull(delay, () -> "ControllerProbe.addedAfter: delay is null" + context());
    waiting.put(key, time.now().plus(delay));
    unaccounted.remove(key);
  }

  /**
   * A key is to be retried after a backoff delay (counted as a retry).
   *
   * @param key the key
   * @param delay the backoff delay
   */
  public synchronized void addedRateLimited(ObjectKey key, Duration delay) {
    Objects.requireNonNull(key, () -> "ControllerProbe.addedRateLimited: key is null" + context());
    Objects.requireNonNull(delay,
        () -> "ControllerProbe.addedRateLimited: delay is null" + context());
    retries++;
    addedAfter(key, delay);
  }

  /**
   * A key left the queue without a reconcile (it was dropped, or the framework discarded it).
   *
   * @param key the key
   */
  public synchronized void removed(ObjectKey key) {
    Objects.requireNonNull(key, () -> "ControllerProbe.removed: key is null" + context());
    queued.remove(key);
    waiting.remove(key);
    unaccounted.remove(key);
  }

  /**
   * A reconcile of {@code key} starts on the current thread; its attempt number is the count of the
   * key's failures (errors and requeues) in a row before it.
   *
   * @param key the key
   * @return the reconcile, to be ended with one of its methods
   */
  public Reconciliation reconcileStarted(ObjectKey key) {
    Objects.requireNonNull(key,
        () -> "ControllerProbe.reconcileStarted: key is null" + context());
    synchronized (this) {
      return reconcileStarted(key, failuresInARow.getOrDefault(key, 0));
    }
  }

  /**
   * A reconcile of {@code key} starts on the current thread, as the framework's given attempt.
   *
   * @param key the key
   * @param attempt 0 for a first attempt, n for the n-th retry
   * @return the reconcile, to be ended with one of its methods
   * @throws IllegalArgumentException if {@code attempt} is negative
   */
  public synchronized Reconciliation reconcileStarted(ObjectKey key, int attempt) {
    Objects.requireNonNull(key,
        () -> "ControllerProbe.reconcileStarted: key is null" + context());
    if (attempt < 0) {
      throw new IllegalArgumentException("ControllerProbe.reconcileStarted(" + key + ", " + attempt
          + "): the attempt cannot be negative" + context() + ". Pass 0 for a first attempt, n for "
          + "the n-th retry.");
    }
    queued.remove(key);
    waiting.remove(key);
    unaccounted.remove(key);
    Reconciliation reconciliation = new Reconciliation(key, attempt,
        Thread.currentThread().getName(), time.now());
    inFlight.add(reconciliation);
    return reconciliation;
  }

  /**
   * Runs one reconcile of {@code key} and records it: {@code SUCCESS} when {@code body} returns,
   * {@code ERROR} when it throws (the exception is rethrown unchanged).
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @param body the reconcile
   * @throws Exception what {@code body} threw
   */
  public void reconcile(String key, ReconcileBody body) throws Exception {
    Objects.requireNonNull(key, () -> "ControllerProbe.reconcile: key is null" + context());
    Objects.requireNonNull(body, () -> "ControllerProbe.reconcile: body is null" + context());
    Reconciliation reconciliation = reconcileStarted(ObjectKey.parse(key));
    try {
      body.run();
    } catch (Exception | Error e) {
      reconciliation.failed(e);
      throw e;
    }
    reconciliation.succeeded();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Vocabulary vocabulary() {
    return vocabulary;
  }

  @Override
  public boolean isRunning() {
    return running && runningState.getAsBoolean();
  }

  @Override
  public List<CacheState> caches() {
    List<CacheState> states = new ArrayList<>();
    caches.forEach(source -> states.addAll(source.get()));
    return List.copyOf(states);
  }

  @Override
  public WorkQueueView workQueue() {
    return queueView;
  }

  @Override
  public ControllerStats stats() {
    return log.stats(name, hasSynced(), queueView.stats());
  }

  @Override
  public List<ReconcileRecord> reconcileLog() {
    return log.records();
  }

  /**
   * The reconciles started and not yet ended, each key with how long since {@link #reconcileStarted}
   * on the probe's time source.
   *
   * @return an immutable map, the reconcile that started first first
   */
  @Override
  public synchronized Map<ObjectKey, Duration> runningReconciles() {
    Instant now = time.now();
    Map<ObjectKey, Duration> running = new LinkedHashMap<>();
    for (Reconciliation reconciliation : inFlight) {
      Duration runFor = Duration.between(reconciliation.start, now);
      running.putIfAbsent(reconciliation.key, runFor.isNegative() ? Duration.ZERO : runFor);
    }
    return Collections.unmodifiableMap(running);
  }

  @Override
  public String toString() {
    return vocabulary.controller() + " \"" + name + "\" (" + vocabulary.framework() + ", probe)";
  }

  private String context() {
    return " (probe \"" + name + "\")";
  }

  private synchronized void countAdd(ObjectKey key) {
    adds++;
    unaccounted.remove(key);
  }

  /**
   * Ends a reconcile: out of flight, failures in a row counted or reset, recorded; after a {@code
   * REQUEUE_AFTER} the key waits, in the same step, so no reader sees it neither in flight nor
   * waiting.
   */
  private synchronized ReconcileRecord end(Reconciliation reconciliation, ReconcileOutcome outcome,
      Duration requeueAfter, Throwable error) {
    Instant now = time.now();
    inFlight.remove(reconciliation);
    if (outcome == ReconcileOutcome.SUCCESS || outcome == ReconcileOutcome.REQUEUE_AFTER) {
      failuresInARow.remove(reconciliation.key);
    } else {
      failuresInARow.merge(reconciliation.key, 1, Integer::sum);
    }
    if (outcome == ReconcileOutcome.REQUEUE_AFTER) {
      waiting.put(reconciliation.key, now.plus(requeueAfter));
    } else if (outcome != ReconcileOutcome.SUCCESS && !failedKeysDropped && !accountedFor(reconciliation.key)) {
      unaccounted.add(reconciliation.key);
    }
    return log.record(reconciliation.key, reconciliation.worker, reconciliation.start, now,
        outcome, requeueAfter, error, reconciliation.attempt);
  }

  /** Whether the key is queued or waits (a failed reconcile that the framework already requeued). */
  private boolean accountedFor(ObjectKey key) {
    return queued.contains(key) || waiting.containsKey(key) || scheduled.containsKey(key)
        || (observedQueue != null && observedQueue.get().contains(key));
  }

  /** A {@link DelayedRequeue} scheduled {@code key} for {@code deadline}. */
  synchronized void requeueScheduled(ObjectKey key, Instant deadline, boolean retry) {
    if (retry) {
      retries++;
    }
    scheduled.put(key, deadline);
    unaccounted.remove(key);
  }

  /** A {@link DelayedRequeue} put {@code key} back in the queue (or dropped it, when it was closed). */
  synchronized void requeueDone(ObjectKey key) {
    scheduled.remove(key);
  }

  /**
   * The keys whose last reconcile failed or asked for a retry, and whose next step this probe was not told: not
   * added again, not waiting on a delay, not removed. While there are any, the probe cannot know whether the
   * controller is idle (a retry may be pending in the controller's own executor), so it lists them as waiting, and
   * {@code isIdle} says how to tell it.
   *
   * @return the keys, oldest first
   */
  public synchronized List<ObjectKey> unaccountedKeys() {
    return List.copyOf(unaccounted);
  }

  private synchronized WorkQueueStats queueStats() {
    Instant now = time.now();
    List<String> queuedKeys = new ArrayList<>();
    (observedQueue != null ? observedQueue.get() : List.copyOf(queued))
        .forEach(key -> queuedKeys.add(key.toString()));
    waiting.values().removeIf(deadline -> !deadline.isAfter(now));
    Map<ObjectKey, Instant> pending = new LinkedHashMap<>(waiting);
    scheduled.forEach((key, deadline) -> pending.merge(key, deadline, (a, b) -> a.isBefore(b) ? a : b));
    List<String> waitingKeys = new ArrayList<>(pending.entrySet().stream()
        .sorted(Map.Entry.comparingByValue(Comparator.naturalOrder()))
        .map(entry -> entry.getKey().toString()).toList());
    unaccounted.stream().map(ObjectKey::toString).filter(key -> !waitingKeys.contains(key))
        .forEach(waitingKeys::add);
    List<String> inFlightKeys = inFlight.stream().map(r -> r.key.toString()).toList();
    return new WorkQueueStats(name, queuedKeys.size(), queuedKeys, inFlightKeys, waitingKeys, adds,
        retries, !isRunning());
  }

  /**
   * The body of one reconcile, for {@link #reconcile(String, ReconcileBody)}.
   *
   * @since 0.1.0
   */
  @FunctionalInterface
  public interface ReconcileBody {

    /**
     * Reconciles.
     *
     * @throws Exception to fail the reconcile
     */
    void run() throws Exception;
  }

  /**
   * One reconcile in progress; end it exactly once.
   *
   * @since 0.1.0
   */
  public final class Reconciliation {

    private final ObjectKey key;
    private final int attempt;
    private final String worker;
    private final Instant start;
    private ReconcileOutcome ended;

    private Reconciliation(ObjectKey key, int attempt, String worker, Instant start) {
      this.key = key;
      this.attempt = attempt;
      this.worker = worker;
      this.start = start;
    }

    /**
     * The reconcile succeeded.
     *
     * @return its record
     */
    public ReconcileRecord succeeded() {
      return end(ReconcileOutcome.SUCCESS, null, null);
    }

    /**
     * The reconcile asked to be retried with backoff.
     *
     * @return its record
     */
    public ReconcileRecord requeued() {
      return end(ReconcileOutcome.REQUEUE, null, null);
    }

    /**
     * The reconcile asked to run again after {@code delay}; the key waits that long.
     *
     * @param delay the delay
     * @return its record
     */
    public ReconcileRecord requeuedAfter(Duration delay) {
      Objects.requireNonNull(delay,
          () -> "Reconciliation.requeuedAfter: delay is null (reconcile of " + key + ")");
      return end(ReconcileOutcome.REQUEUE_AFTER, delay, null);
    }

    /**
     * The reconcile failed.
     *
     * @param error what it threw
     * @return its record
     */
    public ReconcileRecord failed(Throwable error) {
      return end(ReconcileOutcome.ERROR, null, Objects.requireNonNull(error,
          () -> "Reconciliation.failed: error is null (reconcile of " + key + ")"));
    }

    private ReconcileRecord end(ReconcileOutcome outcome, Duration requeueAfter, Throwable error) {
      synchronized (this) {
        if (ended != null) {
          throw new IllegalStateException("The reconcile of " + key + " started on thread \""
              + worker + "\" already ended as " + vocabulary.outcome(ended) + "; it cannot end "
              + "again as " + vocabulary.outcome(outcome) + " (probe \"" + name + "\"). End each "
              + "Reconciliation once.");
        }
        ended = outcome;
      }
      return ControllerProbe.this.end(this, outcome, requeueAfter, error);
    }
  }

  private final class QueueView implements WorkQueueView {

    @Override
    public String name() {
      return name;
    }

    @Override
    public Vocabulary vocabulary() {
      return vocabulary;
    }

    @Override
    public WorkQueueStats stats() {
      return queueStats();
    }
  }

  /**
   * Builds a {@link ControllerProbe}.
   *
   * @since 0.1.0
   */
  public static final class Builder {

    private final String name;
    private Vocabulary vocabulary = Vocabulary.CTK;
    private TimeSource time = TimeSource.system();
    private BooleanSupplier runningState = () -> true;
    private int logLimit = 10_000;
    private boolean failedKeysDropped;
    private boolean built;

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "ControllerProbe.builder: name is null");
    }

    /**
     * The framework's words, for messages.
     *
     * @param vocabulary the vocabulary
     * @return this builder
     */
    public Builder withVocabulary(Vocabulary vocabulary) {
      this.vocabulary = Objects.requireNonNull(vocabulary,
          "ControllerProbe.Builder.withVocabulary: vocabulary is null");
      return this;
    }

    /**
     * The clock of the records' timestamps and of delays.
     *
     * @param time the time source
     * @return this builder
     */
    public Builder withTimeSource(TimeSource time) {
      this.time = Objects.requireNonNull(time,
          "ControllerProbe.Builder.withTimeSource: time is null");
      return this;
    }

    /**
     * Where the probe learns whether the controller runs, besides {@link #started()} and {@link
     * #stopped()}: running needs both.
     *
     * @param runningState answers whether the controller runs
     * @return this builder
     */
    public Builder withRunningState(BooleanSupplier runningState) {
      this.runningState = Objects.requireNonNull(runningState,
          "ControllerProbe.Builder.withRunningState: runningState is null");
      return this;
    }

    /**
     * How many reconcile records the log keeps (the oldest are dropped; counters stay exact).
     *
     * @param maxRecords at least 1
     * @return this builder
     */
    public Builder withReconcileLogLimit(int maxRecords) {
      if (maxRecords < 1) {
        throw new IllegalArgumentException("ControllerProbe.Builder.withReconcileLogLimit: "
            + maxRecords + " is not a valid limit (probe \"" + name + "\"). Pass at least 1.");
      }
      this.logLimit = maxRecords;
      return this;
    }

    /**
     * Says that the controller never retries a failed reconcile itself: a failed key is dropped, and only a later
     * event (or a resync) brings it back. The probe then counts no failed key as {@link
     * ControllerProbe#unaccountedKeys() unaccounted}, so idle checks pass after a failure.
     *
     * @return this builder
     */
    public Builder withFailedKeysDropped() {
      this.failedKeysDropped = true;
      return this;
    }

    /**
     * Builds the probe.
     *
     * @return the probe, running
     * @throws IllegalStateException if this builder already built a probe
     */
    public ControllerProbe build() {
      if (built) {
        throw new IllegalStateException("This ControllerProbe.Builder already built probe \"" + name
            + "\". Use a new ControllerProbe.builder(..) for another probe.");
      }
      built = true;
      return new ControllerProbe(this);
    }
  }
}
