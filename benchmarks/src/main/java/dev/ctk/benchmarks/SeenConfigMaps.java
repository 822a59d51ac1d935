package dev.ctk.benchmarks;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An informer event handler that lets a writer wait, without polling, until the handler has seen the ADDED event
 * of a ConfigMap it named beforehand.
 *
 * <pre>{@code
 * SeenConfigMaps seen = new SeenConfigMaps("informer 1");
 * client.configMaps().inform(seen);
 * CompletableFuture<Void> added = seen.expect("cm-000001");
 * client.configMaps().resource(ConfigMaps.numbered(1)).create();
 * seen.await("cm-000001", added);
 * }</pre>
 *
 * @since 0.1.0
 */
public final class SeenConfigMaps implements ResourceEventHandler<ConfigMap> {

  /** How long one event may take before a benchmark gives up: a bound, not a measurement. */
  public static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String informerName;
  private final ConcurrentMap<String, CompletableFuture<Void>> expected = new ConcurrentHashMap<>();

  /**
   * A handler for the informer called {@code informerName} in failure messages.
   *
   * @param informerName e.g. {@code ConfigMap informer 3 of 10}
   */
  public SeenConfigMaps(String informerName) {
    this.informerName = informerName;
  }

  /**
   * Registers interest in the ADDED event of {@code name}; call before the write.
   *
   * @param name the ConfigMap's name
   * @return completes when the handler sees it
   */
  public CompletableFuture<Void> expect(String name) {
    return expected.computeIfAbsent(name, n -> new CompletableFuture<>());
  }

  /**
   * Waits at most {@link #TIMEOUT} for the ADDED event of {@code name}.
   *
   * @param name the ConfigMap's name
   * @param added what {@link #expect(String)} returned for it
   * @throws IllegalStateException when it does not come in time, or the thread is interrupted
   */
  public void await(String name, CompletableFuture<Void> added) {
    try {
      added.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("Expecting " + informerName + " to see ADDED for ConfigMap " + name
          + " within " + TIMEOUT.toSeconds() + "s but it did not (" + expected.size()
          + " names still awaited). The watch may have closed: look for informer errors in the log above.", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Waiting for ConfigMap " + name + " in " + informerName + " failed: "
          + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for ConfigMap " + name + " in " + informerName,
          e);
    } finally {
      expected.remove(name);
    }
  }

  @Override
  public void onAdd(ConfigMap configMap) {
    CompletableFuture<Void> added = expected.get(configMap.getMetadata().getName());
    if (added != null) {
      added.complete(null);
    }
  }

  @Override
  public void onUpdate(ConfigMap before, ConfigMap after) {
    // only ADDED is awaited
  }

  @Override
  public void onDelete(ConfigMap configMap, boolean deletedFinalStateUnknown) {
    // only ADDED is awaited
  }
}
