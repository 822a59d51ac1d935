package dev.ctk.controller;

/**
 * Level-triggered reconcile of one key: read the object's current state (from an informer's cache or
 * the API server) and drive the world towards it. It is told only the key, never the event, so it must
 * work out what to do from the current state alone; it may be called for a key whose object is gone.
 *
 * <p>Return {@link Result#done()}, {@link Result#requeue()} or {@link Result#requeueAfter}. Throwing
 * counts as a failure: the key is retried after the rate limiter's backoff.
 *
 * <pre>{@code
 * Reconciler reconciler = key -> {
 *   ConfigMap cm = informer.getStore().getByKey(key.toString());
 *   if (cm == null) {
 *     return Result.done();   // deleted: nothing to do
 *   }
 *   backend.apply(cm);        // may throw: retried with backoff
 *   return Result.done();
 * };
 * }</pre>
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface Reconciler {

  /**
   * Reconciles the object with this key.
   *
   * @param key the object's key
   * @return what to do next with the key, never {@code null}
   * @throws Exception on failure; the key is retried with backoff
   */
  Result reconcile(ObjectKey key) throws Exception;
}
