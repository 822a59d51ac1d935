package dev.ctk.controller;

/**
 * Thrown by {@link Controller#start()} when the caches of its informers did not sync within the
 * controller's cache sync timeout ({@link Controller.Builder#withCacheSyncTimeout}), or can no longer
 * sync because an informer the controller started failed to start. The message lists every informer
 * of the controller with its state, for example:
 *
 * <pre>
 * Controller "cm" could not start: informer caches did not sync within 200ms.
 *   ConfigMap informer: not synced
 *   Secret informer: synced
 * Fix: check that the API server is reachable and that the controller may list and watch these kinds, or raise withCacheSyncTimeout(..).
 * </pre>
 *
 * <p>An informer that failed to start is named with the first line of its failure ({@code
 * ConfigMap informer: failed to start: IOException: connection refused ...}); the failure itself,
 * whole, is the cause of this exception, and the failure of any other informer is one of its
 * suppressed exceptions.
 *
 * @since 0.1.0
 */
public class CacheSyncTimeoutException extends CtkException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the full message, listing each informer and whether it synced
   * @param cause the failure of an informer's start, or {@code null}
   */
  public CacheSyncTimeoutException(String message, Throwable cause) {
    super(message, cause);
  }
}
