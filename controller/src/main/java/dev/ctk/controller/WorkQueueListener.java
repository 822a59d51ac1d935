package dev.ctk.controller;

import java.time.Duration;

/**
 * Observes a {@link WorkQueue}. Every method has an empty default; override what you need.
 * Methods are called while the queue holds its lock, in the order the changes happen, after the queue's
 * state was updated (in {@code onHandedOut} the key is already in flight; in {@code onDone} it no
 * longer is): keep them short, do not block, and do not wait for other threads that use the queue.
 * Anything a listener throws, even an {@link Error} such as a failed assertion, is logged and
 * otherwise ignored; only a {@link VirtualMachineError} propagates to the caller of the queue method.
 *
 * <pre>{@code
 * queue.addListener(new WorkQueueListener<>() {
 *   public void onAdd(ObjectKey key, boolean deduplicated) {
 *     System.out.println("add " + key + (deduplicated ? " (already queued)" : ""));
 *   }
 * });
 * }</pre>
 *
 * @param <K> the key type
 * @since 0.1.0
 */
public interface WorkQueueListener<K> {

  /**
   * A key was added (directly, or because its delay passed).
   *
   * @param key the key
   * @param deduplicated {@code true} if the key was already waiting to be handed out, so this add
   *     changed nothing
   */
  default void onAdd(K key, boolean deduplicated) {}

  /**
   * A key will be added after a delay ({@code addAfter} or {@code addRateLimited}). Not called when an
   * earlier deadline for the key was already pending.
   *
   * @param key the key
   * @param delay the delay
   */
  default void onDelayed(K key, Duration delay) {}

  /**
   * A key was handed out to a worker by {@code get} or {@code poll}.
   *
   * @param key the key
   */
  default void onHandedOut(K key) {}

  /**
   * A worker called {@code done} for a key.
   *
   * @param key the key
   * @param requeued {@code true} if the key was added while in flight and is now queued again
   */
  default void onDone(K key, boolean requeued) {}

  /**
   * A key was dropped: added after shut-down, or still waiting on a delay at shut-down.
   *
   * @param key the key
   */
  default void onDropped(K key) {}
}
