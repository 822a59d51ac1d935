package dev.ctk.controller;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A de-duplicating, delaying, rate-limited work queue with the semantics of client-go's workqueue.
 * Thread-safe.
 *
 * <ul>
 *   <li>A key is queued at most once: adding a key that is already queued changes nothing.
 *   <li>A key handed out by {@link #get()} is <em>in flight</em> until {@link #done} is called for it;
 *       no other caller gets it meanwhile. If it is added while in flight, it is queued once more
 *       when {@code done} is called.
 *   <li>{@link #addAfter} adds a key once a delay has passed on the queue's {@link TimeSource}; if the
 *       key is already waiting, the earlier deadline wins.
 *   <li>{@link #addRateLimited} asks the queue's {@link RateLimiter} for the delay (per-key
 *       exponential backoff and an overall bucket by default) and counts a retry; {@link #forget}
 *       resets the key's backoff.
 *   <li>{@link #shutDown()} refuses new keys, drops keys waiting on a delay and wakes every caller
 *       blocked in {@code get}; keys already queued are still handed out, then {@code get} returns
 *       empty.
 * </ul>
 *
 * <pre>{@code
 * try (WorkQueue<ObjectKey> queue = WorkQueue.<ObjectKey>builder().withName("web").build()) {
 *   queue.add(ObjectKey.of("default", "web"));
 *   Optional<ObjectKey> key = queue.get();       // blocks until a key is ready
 *   try {
 *     // reconcile key.get() ...
 *     queue.forget(key.get());
 *   } finally {
 *     queue.done(key.get());
 *   }
 * }
 * }</pre>
 *
 * @param <K> the key type; keys are compared with {@code equals} and shown with {@code toString}
 * @since 0.1.0
 */
public final class WorkQueue<K> implements WorkQueueView, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WorkQueue.class);

  private final String name;
  private final TimeSource time;
  private final RateLimiter<K> rateLimiter;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final Condition inFlightChanged = lock.newCondition();
  private final ArrayDeque<K> queue = new ArrayDeque<>();
  private final Set<K> dirty = new HashSet<>();
  private final Set<K> processing = new LinkedHashSet<>();
  private final Map<K, Waiting> waiting = new LinkedHashMap<>();
  private final List<WorkQueueListener<K>> listeners = new CopyOnWriteArrayList<>();
  private boolean shuttingDown;
  private long adds;
  private long retries;

  private WorkQueue(Builder<K> builder) {
    this.name = builder.name;
    this.time = builder.time;
    this.rateLimiter = builder.rateLimiter != null
        ? builder.rateLimiter
        : RateLimiter.defaultControllerRateLimiter(builder.time);
  }

  /**
   * A builder. Defaults: name {@code "unnamed"}, {@link TimeSource#system()},
   * {@link RateLimiter#defaultControllerRateLimiter} on that time source.
   *
   * @param <K> the key type
   * @return a new builder
   */
  public static <K> Builder<K> builder() {
    return new Builder<>();
  }

  /**
   * The queue's name, used in messages and statistics.
   *
   * @return the name
   */
  @Override
  public String name() {
    return name;
  }

  /**
   * The time source of delays and backoff.
   *
   * @return the time source
   */
  public TimeSource timeSource() {
    return time;
  }

  /**
   * Queues {@code key} unless it is already queued; if it is in flight, it is queued once more after
   * {@link #done}. Ignored after {@link #shutDown()}.
   *
   * @param key the key, not null
   */
  public void add(K key) {
    requireKey(key, "add");
    lock.lock();
    try {
      addLocked(key);
    } finally {
      lock.unlock();
    }
  }

  private void addLocked(K key) {
    if (shuttingDown) {
      notify("onDropped", key, l -> l.onDropped(key));
      return;
    }
    adds++;
    boolean deduplicated = !dirty.add(key);
    if (!deduplicated && !processing.contains(key)) {
      queue.addLast(key);
      notEmpty.signal();
    }
    notify("onAdd", key, l -> l.onAdd(key, deduplicated));
  }

  /**
   * Adds {@code key} once {@code delay} has passed on the queue's time source. A delay of zero or
   * less adds it now. If the key is already waiting, the earlier deadline wins. Ignored after
   * {@link #shutDown()}.
   *
   * @param key the key, not null
   * @param delay the delay, not null
   */
  public void addAfter(K key, Duration delay) {
    requireKey(key, "addAfter");
    Objects.requireNonNull(delay, () -> "WorkQueue.addAfter: delay is null (work queue \"" + name
        + "\", key " + key + ")");
    lock.lock();
    try {
      addAfterLocked(key, delay);
    } finally {
      lock.unlock();
    }
  }

  private void addAfterLocked(K key, Duration delay) {
    if (delay.isZero() || delay.isNegative()) {
      addLocked(key);
      return;
    }
    if (shuttingDown) {
      notify("onDropped", key, l -> l.onDropped(key));
      return;
    }
    long deadline = saturatedAdd(time.nanoTime(), SystemTimeSource.saturatedNanos(delay));
    Waiting existing = waiting.get(key);
    if (existing != null && existing.deadline <= deadline) {
      return;
    }
    // Schedule first: if the time source throws, the queue is left as it was.
    Waiting entry = new Waiting(deadline);
    entry.task = time.schedule(delay, () -> delayPassed(key, entry));
    if (existing != null) {
      cancel(key, existing);
    }
    waiting.put(key, entry);
    notify("onDelayed", key, l -> l.onDelayed(key, delay));
  }

  private void delayPassed(K key, Waiting entry) {
    lock.lock();
    try {
      if (waiting.get(key) == entry) {
        waiting.remove(key);
        addLocked(key);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds {@code key} after the delay the rate limiter gives for it (which records a failure of the
   * key) and counts a retry. Ignored after {@link #shutDown()}. If the rate limiter throws, the
   * exception propagates and nothing is added or counted.
   *
   * @param key the key, not null
   */
  public void addRateLimited(K key) {
    requireKey(key, "addRateLimited");
    lock.lock();
    try {
      if (shuttingDown) {
        notify("onDropped", key, l -> l.onDropped(key));
        return;
      }
    } finally {
      lock.unlock();
    }
    Duration delay = rateLimiter.when(key);
    lock.lock();
    try {
      if (!shuttingDown) {
        retries++;
      }
      addAfterLocked(key, delay);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Resets the rate limiter's history of {@code key}: its next retry waits the shortest delay.
   *
   * @param key the key
   */
  public void forget(K key) {
    rateLimiter.forget(key);
  }

  /**
   * How many times {@code key} was retried with {@link #addRateLimited} since it was last forgotten.
   *
   * @param key the key
   * @return the count
   */
  public int numRequeues(K key) {
    return rateLimiter.numRequeues(key);
  }

  /**
   * Hands out the next ready key, blocking until there is one. The key is in flight until
   * {@link #done} is called for it. After {@link #shutDown()}, keys still queued are handed out, then
   * the result is empty.
   *
   * @return the key, or empty once the queue is shut down and holds no ready key
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  public Optional<K> get() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (queue.isEmpty() && !shuttingDown) {
        notEmpty.await();
      }
      return handOut();
    } finally {
      lock.unlock();
    }
  }

  /**
   * As {@link #get()}, but waits at most {@code timeout} (real time).
   *
   * @param timeout how long to wait for a ready key
   * @return the key, or empty on timeout or once the queue is shut down and holds no ready key (tell
   *     them apart with {@link #isShuttingDown()})
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  public Optional<K> poll(Duration timeout) throws InterruptedException {
    Objects.requireNonNull(timeout, () -> "WorkQueue.poll: timeout is null (work queue \"" + name
        + "\")");
    long nanos = SystemTimeSource.saturatedNanos(timeout);
    lock.lockInterruptibly();
    try {
      while (queue.isEmpty() && !shuttingDown) {
        if (nanos <= 0) {
          return Optional.empty();
        }
        nanos = notEmpty.awaitNanos(nanos);
      }
      return handOut();
    } finally {
      lock.unlock();
    }
  }

  private Optional<K> handOut() {
    K key = queue.pollFirst();
    if (key == null) {
      return Optional.empty();
    }
    processing.add(key);
    dirty.remove(key);
    if (!queue.isEmpty()) {
      notEmpty.signal();
    }
    notify("onHandedOut", key, l -> l.onHandedOut(key));
    return Optional.of(key);
  }

  /**
   * Marks {@code key} as no longer in flight. If it was added while in flight, it is queued again.
   * Calling it for a key that is not in flight does nothing.
   *
   * @param key the key
   */
  public void done(K key) {
    lock.lock();
    try {
      if (!processing.remove(key)) {
        return;
      }
      boolean requeued = dirty.contains(key);
      if (requeued) {
        queue.addLast(key);
        notEmpty.signal();
      }
      inFlightChanged.signalAll();
      notify("onDone", key, l -> l.onDone(key, requeued));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Keys queued and ready: not in flight, not waiting on a delay.
   *
   * @return the count
   */
  public int depth() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether {@link #shutDown()} was called.
   *
   * @return {@code true} once shut down
   */
  public boolean isShuttingDown() {
    lock.lock();
    try {
      return shuttingDown;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Refuses new keys from now on, drops keys waiting on a delay (cancelling their timers) and wakes
   * every caller blocked in {@link #get()}. Keys already queued are still handed out. Idempotent.
   */
  public void shutDown() {
    lock.lock();
    try {
      if (shuttingDown) {
        return;
      }
      shuttingDown = true;
      List<Map.Entry<K, Waiting>> dropped = new ArrayList<>(waiting.entrySet());
      waiting.clear();
      notEmpty.signalAll();
      inFlightChanged.signalAll();
      for (Map.Entry<K, Waiting> entry : dropped) {
        cancel(entry.getKey(), entry.getValue());
      }
      for (Map.Entry<K, Waiting> entry : dropped) {
        notify("onDropped", entry.getKey(), l -> l.onDropped(entry.getKey()));
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * {@link #shutDown()}, then waits (real time) until no key is in flight.
   *
   * <p>Do not call it from the thread that holds a key in flight (e.g. inside a reconcile): it would
   * wait for its own key until the timeout. {@link Controller#close()} handles that case.
   *
   * @param timeout how long to wait
   * @return {@code true} if nothing was in flight before the timeout; {@code false} on timeout or if
   *     the calling thread was interrupted (its interrupt flag is then set)
   */
  public boolean shutDownWithDrain(Duration timeout) {
    return shutDownWithDrain(timeout, null);
  }

  /**
   * As {@link #shutDownWithDrain(Duration)}, but does not wait for {@code ownKey}: the key the calling
   * thread itself holds in flight.
   *
   * @param ownKey a key not to wait for, or {@code null} to wait for every key
   */
  boolean shutDownWithDrain(Duration timeout, K ownKey) {
    Objects.requireNonNull(timeout, () -> "WorkQueue.shutDownWithDrain: timeout is null (work "
        + "queue \"" + name + "\")");
    shutDown();
    long nanos = SystemTimeSource.saturatedNanos(timeout);
    lock.lock();
    try {
      while (!drained(ownKey)) {
        if (nanos <= 0) {
          return false;
        }
        nanos = inFlightChanged.awaitNanos(nanos);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return drained(ownKey);
    } finally {
      lock.unlock();
    }
  }

  private boolean drained(K ownKey) {
    return processing.isEmpty()
        || (ownKey != null && processing.size() == 1 && processing.contains(ownKey));
  }

  /**
   * An immutable snapshot of the queue.
   *
   * @return the statistics
   */
  @Override
  public WorkQueueStats stats() {
    lock.lock();
    try {
      List<String> queued = new ArrayList<>(queue.size());
      queue.forEach(k -> queued.add(String.valueOf(k)));
      List<String> inFlight = new ArrayList<>(processing.size());
      processing.forEach(k -> inFlight.add(String.valueOf(k)));
      List<Map.Entry<K, Waiting>> delayed = new ArrayList<>(waiting.entrySet());
      delayed.sort(Comparator.comparing(e -> e.getValue(), Waiting.BY_DEADLINE));
      List<String> waitingKeys = new ArrayList<>(delayed.size());
      delayed.forEach(e -> waitingKeys.add(String.valueOf(e.getKey())));
      return new WorkQueueStats(name, queue.size(), queued, inFlight, waitingKeys, adds, retries,
          shuttingDown);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds an observer of the queue's changes.
   *
   * @param listener the listener
   */
  public void addListener(WorkQueueListener<K> listener) {
    listeners.add(Objects.requireNonNull(listener, () -> "WorkQueue.addListener: listener is null "
        + "(work queue \"" + name + "\")"));
  }

  /**
   * Removes an observer added with {@link #addListener}.
   *
   * @param listener the listener
   */
  public void removeListener(WorkQueueListener<K> listener) {
    listeners.remove(listener);
  }

  /** Same as {@link #shutDown()}. */
  @Override
  public void close() {
    shutDown();
  }

  @Override
  public String toString() {
    return "WorkQueue \"" + name + "\"";
  }

  private void requireKey(K key, String method) {
    Objects.requireNonNull(key, () -> "WorkQueue." + method + ": key is null (work queue \"" + name
        + "\")");
  }

  /**
   * Calls every listener; the queue's state is already consistent. A listener's failure, even an
   * {@link Error} such as a failed assertion, is logged and ignored; only a
   * {@link VirtualMachineError} propagates.
   */
  private void notify(String event, K key, Consumer<WorkQueueListener<K>> call) {
    for (WorkQueueListener<K> listener : listeners) {
      try {
        call.accept(listener);
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        LOG.warn("Listener {} of work queue \"{}\" failed in {}({}); the queue ignores the failure "
            + "and goes on", listener, name, event, key, e);
      }
    }
  }

  /** Cancels the timer of a waiting key; a failing time source is logged, not propagated. */
  private void cancel(K key, Waiting entry) {
    try {
      entry.task.cancel();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      LOG.warn("Work queue \"{}\": cancelling the timer of {} on {} failed; if it still fires, the "
          + "key is ignored", name, key, time, e);
    }
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  /** A key waiting on a delay. */
  private static final class Waiting {
    static final Comparator<Waiting> BY_DEADLINE = (a, b) -> Long.compare(a.deadline - b.deadline, 0);

    final long deadline;
    TimeSource.ScheduledTask task;

    Waiting(long deadline) {
      this.deadline = deadline;
    }
  }

  /**
   * Builds a {@link WorkQueue}.
   *
   * <pre>{@code
   * WorkQueue<ObjectKey> queue = WorkQueue.<ObjectKey>builder()
   *     .withName("nginx-service")
   *     .withRateLimiter(RateLimiter.exponential(Duration.ofMillis(5), Duration.ofMinutes(5)))
   *     .build();
   * }</pre>
   *
   * @param <K> the key type
   * @since 0.1.0
   */
  public static final class Builder<K> {
    private String name = "unnamed";
    private TimeSource time = TimeSource.system();
    private RateLimiter<K> rateLimiter;
    private boolean built;

    private Builder() {}

    /**
     * Names the queue (for messages and statistics).
     *
     * @param name the name, not empty
     * @return this builder
     */
    public Builder<K> withName(String name) {
      Objects.requireNonNull(name, "WorkQueue.Builder.withName: name is null");
      if (name.isBlank()) {
        throw new IllegalArgumentException("A work queue name must not be blank.");
      }
      this.name = name;
      return this;
    }

    /**
     * The time source of delays and of the default rate limiter's bucket.
     *
     * @param time the time source
     * @return this builder
     */
    public Builder<K> withTimeSource(TimeSource time) {
      this.time = Objects.requireNonNull(time, "WorkQueue.Builder.withTimeSource: time is null");
      return this;
    }

    /**
     * The rate limiter of {@link WorkQueue#addRateLimited}.
     *
     * @param rateLimiter the rate limiter
     * @return this builder
     */
    public Builder<K> withRateLimiter(RateLimiter<K> rateLimiter) {
      this.rateLimiter = Objects.requireNonNull(rateLimiter,
          "WorkQueue.Builder.withRateLimiter: rateLimiter is null");
      return this;
    }

    /**
     * Builds the queue. A builder builds once.
     *
     * @return the queue
     * @throws IllegalStateException if called twice
     */
    public WorkQueue<K> build() {
      if (built) {
        throw new IllegalStateException("This WorkQueue.Builder already built work queue \"" + name
            + "\". Use a new WorkQueue.builder() for another queue.");
      }
      built = true;
      return new WorkQueue<>(this);
    }
  }
}
