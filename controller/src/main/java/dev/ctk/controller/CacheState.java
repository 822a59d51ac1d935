package dev.ctk.controller;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Objects;

/**
 * The state of one cache a controller reads from (an informer, or what a framework calls an event
 * source), at one instant.
 *
 * <pre>{@code
 * CacheState state = CacheState.of(informer);
 * state.name();      // "ConfigMap informer"
 * state.synced();    // true once the first list is stored
 * }</pre>
 *
 * @param name how messages name the cache, e.g. {@code "ConfigMap informer"} or {@code "event source
 *     WebApp (namespace shop)"}
 * @param synced whether its first list was stored
 * @param running whether it runs
 * @param watching whether its watch is open
 * @since 0.1.0
 */
public record CacheState(String name, boolean synced, boolean running, boolean watching) {

  /**
   * Creates a state; the name must not be null.
   *
   * @param name the name
   * @param synced whether it synced
   * @param running whether it runs
   * @param watching whether its watch is open
   */
  public CacheState {
    Objects.requireNonNull(name, "CacheState: name is null");
  }

  /**
   * The state of a fabric8 informer now, named after its type: {@code "ConfigMap informer"}. A
   * fabric8 informer may throw while it replaces its watch; that counts as not watching.
   *
   * @param informer the informer
   * @return its state
   */
  public static CacheState of(SharedIndexInformer<?> informer) {
    Objects.requireNonNull(informer, "CacheState.of: informer is null");
    Class<?> type = informer.getApiTypeClass();
    return of((type == null ? "unknown" : type.getSimpleName()) + " informer", informer);
  }

  /**
   * The state of a fabric8 informer now, under the given name.
   *
   * @param name how messages name it
   * @param informer the informer
   * @return its state
   */
  public static CacheState of(String name, SharedIndexInformer<?> informer) {
    Objects.requireNonNull(informer, "CacheState.of: informer is null");
    boolean watching;
    try {
      watching = informer.isWatching();
    } catch (RuntimeException e) {
      watching = false;
    }
    return new CacheState(name, informer.hasSynced(), informer.isRunning(), watching);
  }

  /**
   * A one-word description for messages: {@code synced}, {@code not synced (running)} or {@code not
   * synced (not running)}.
   *
   * @return the description
   */
  public String describe() {
    return synced ? "synced" : running ? "not synced (running)" : "not synced (not running)";
  }
}
