package dev.ctk.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.function.Function;

/**
 * Puts keys back in a hand-written controller's queue after a delay, on its {@link ControllerProbe}'s time source,
 * telling the probe: the key waits (and shows as waiting) from the call until it is back in the queue, and a
 * {@link #retryAfter retry} is counted as one ({@code hasRetried}). Get one from {@link
 * ControllerProbe#delayedRequeue(BlockingQueue)}.
 *
 * <pre>{@code
 * BlockingQueue<String> queue = probe.observe(new LinkedBlockingQueue<>());
 * DelayedRequeue<String> requeue = probe.delayedRequeue(queue);
 * try {
 *   probe.reconcile(key, () -> reconcile(key));
 * } catch (Exception e) {
 *   requeue.retryAfter(key, Duration.ofSeconds(2));
 * }
 * }</pre>
 *
 * <p>A key requeued again before its delay passed keeps the earlier deadline's task cancelled and waits for the new
 * one. {@link #close()} cancels what is pending (the probe then forgets those keys). Thread-safe.
 *
 * @param <E> the queue's element type
 * @since 0.1.0
 */
public final class DelayedRequeue<E> implements AutoCloseable {

  private final ControllerProbe probe;
  private final TimeSource time;
  private final BlockingQueue<E> queue;
  private final Function<ObjectKey, E> elementOf;
  private final Map<ObjectKey, TimeSource.ScheduledTask> pending = new LinkedHashMap<>();
  private boolean closed;

  DelayedRequeue(ControllerProbe probe, TimeSource time, BlockingQueue<E> queue, Function<ObjectKey, E> elementOf) {
    this.probe = probe;
    this.time = time;
    this.queue = queue;
    this.elementOf = elementOf;
  }

  /**
   * Puts {@code key} back in the queue after {@code delay} (a requeue-after, a resync timer).
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @param delay how long, on the probe's time source
   * @throws IllegalStateException once closed
   */
  public void after(String key, Duration delay) {
    schedule(ObjectKey.parse(Objects.requireNonNull(key, "DelayedRequeue.after: key is null")), delay, false);
  }

  /**
   * Retries {@code key} after {@code delay}: as {@link #after}, and counted as a retry.
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @param delay the backoff, on the probe's time source
   * @throws IllegalStateException once closed
   */
  public void retryAfter(String key, Duration delay) {
    schedule(ObjectKey.parse(Objects.requireNonNull(key, "DelayedRequeue.retryAfter: key is null")), delay, true);
  }

  private void schedule(ObjectKey key, Duration delay, boolean retry) {
    Objects.requireNonNull(delay, () -> "DelayedRequeue: the delay of " + key + " is null");
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("DelayedRequeue of probe \"" + probe.name() + "\" is closed; " + key
            + " was not requeued. Requeue only while the controller runs.");
      }
      probe.requeueScheduled(key, time.now().plus(delay), retry);
      TimeSource.ScheduledTask earlier = pending.put(key, null);
      if (earlier != null) {
        earlier.cancel();
      }
      TimeSource.ScheduledTask task = time.schedule(delay, () -> fire(key));
      if (pending.containsKey(key) && pending.get(key) == null) {
        pending.put(key, task);
      }
    }
  }

  private void fire(ObjectKey key) {
    synchronized (this) {
      if (closed || !pending.containsKey(key)) {
        return;
      }
      pending.remove(key);
      queue.add(elementOf.apply(key));
      probe.requeueDone(key);
    }
  }

  /**
   * The keys waiting to be put back, in the order they were requeued.
   *
   * @return the keys
   */
  public synchronized List<ObjectKey> pending() {
    return new ArrayList<>(pending.keySet());
  }

  /** Cancels every pending requeue; the probe forgets those keys. */
  @Override
  public void close() {
    List<ObjectKey> dropped;
    synchronized (this) {
      closed = true;
      dropped = new ArrayList<>(pending.keySet());
      pending.values().stream().filter(Objects::nonNull).forEach(TimeSource.ScheduledTask::cancel);
      pending.clear();
    }
    dropped.forEach(probe::requeueDone);
  }

  @Override
  public String toString() {
    return "DelayedRequeue of probe \"" + probe.name() + "\" (" + pending().size() + " pending)";
  }
}
