package dev.ctk.assertions;

import static dev.ctk.assertions.internal.StateFormat.count;

import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.controller.ObjectKey;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a fabric8 {@link SharedIndexInformer}: whether it has synced, and which keys its
 * cache (its {@code Store}) holds. Keys are the informer's own: {@code "namespace/name"}, or {@code
 * "name"} for cluster-scoped objects.
 *
 * <pre>{@code
 * SharedIndexInformer<ConfigMap> informer = client.configMaps().inform();
 * assertThat(informer).hasSynced();
 * client.configMaps().resource(configMap("web")).create();
 * assertThat(informer).within(ofSeconds(5)).containsKey("default/web");
 * }</pre>
 *
 * <p>Without {@link #within(Duration)} each check runs once, at once; with it, the returned assertion
 * re-runs the check every 10ms until it passes or the timeout elapses.
 *
 * @since 0.1.0
 */
public final class InformerAssert extends AbstractAssert<InformerAssert, SharedIndexInformer<?>> {

  private final Waiting waiting;

  InformerAssert(SharedIndexInformer<?> informer) {
    this(informer, Waiting.IMMEDIATE);
  }

  private InformerAssert(SharedIndexInformer<?> informer, Waiting waiting) {
    super(informer, InformerAssert.class);
    this.waiting = waiting;
  }

  /**
   * The same assertion, waiting: each check re-runs until it passes or {@code timeout} elapses, and
   * then fails with the last failure's message (which says "within ...") once, carrying what that
   * failure carried (the reconcile errors it names, whole, as cause and suppressed exceptions). This
   * assertion is not changed.
   *
   * @param timeout how long to wait, positive
   * @return a new, waiting assertion
   */
  public InformerAssert within(Duration timeout) {
    InformerAssert waitingAssert = new InformerAssert(actual, Waiting.within(timeout));
    waitingAssert.info.description(info.description());
    waitingAssert.info.useRepresentation(info.representation());
    return waitingAssert;
  }

  /**
   * Checks that the informer has synced: its first list has been stored in its cache.
   *
   * @return this assertion
   */
  public InformerAssert hasSynced() {
    isNotNull();
    waiting.check(() -> {
      if (!actual.hasSynced()) {
        throw failed(expecting("to have synced") + (actual.isRunning()
            ? "but it " + waiting.still() + "has not (it is running)."
            : "but it has not: it is not running. Fix: start it (informer.start(), or inform() "
                + "instead of runnableInformer()), or start a Controller that watches it."));
      }
    });
    return myself;
  }

  /**
   * Checks that the informer's cache holds an object with this key.
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public InformerAssert containsKey(String key) {
    requireKey(key, "containsKey");
    isNotNull();
    waiting.check(() -> {
      if (actual.getStore().getByKey(key) == null) {
        List<String> keys = keys();
        throw failed(expecting("to contain " + key + " in its cache") + "but its cache held "
            + count(keys.size(), "object") + ":\n  " + StateFormat.keys(keys));
      }
    });
    return myself;
  }

  /**
   * Checks that the informer's cache holds an object with this key.
   *
   * @param key the key
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public InformerAssert containsKey(ObjectKey key) {
    requireKey(key, "containsKey");
    return containsKey(key.toString());
  }

  /**
   * Checks that the informer's cache holds no object with this key.
   *
   * <p><b>Trap:</b> with {@code within(..)} this passes at once for an object that has not reached
   * the cache yet. To wait for a deletion to arrive, first see the object in the cache ({@code
   * containsKey}), then delete it and wait on {@code doesNotContainKey}.
   *
   * @param key {@code "namespace/name"} or {@code "name"}
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public InformerAssert doesNotContainKey(String key) {
    requireKey(key, "doesNotContainKey");
    isNotNull();
    waiting.check(() -> {
      if (actual.getStore().getByKey(key) != null) {
        throw failed(expecting("not to contain " + key + " in its cache") + "but it "
            + waiting.still() + "did.");
      }
    });
    return myself;
  }

  /**
   * Checks that the informer's cache holds no object with this key.
   *
   * @param key the key
   * @return this assertion
   * @throws NullPointerException if {@code key} is null
   */
  public InformerAssert doesNotContainKey(ObjectKey key) {
    requireKey(key, "doesNotContainKey");
    return doesNotContainKey(key.toString());
  }

  /**
   * Checks how many objects the informer's cache holds.
   *
   * @param size the expected count
   * @return this assertion
   */
  public InformerAssert hasSize(int size) {
    isNotNull();
    waiting.check(() -> {
      List<String> keys = keys();
      if (keys.size() != size) {
        throw failed(expecting("to hold " + count(size, "object") + " in its cache")
            + "but it held " + keys.size() + ":\n  " + StateFormat.keys(keys));
      }
    });
    return myself;
  }

  private static void requireKey(Object key, String method) {
    if (key == null) {
      throw new NullPointerException("InformerAssert." + method + ": the key is null. Pass "
          + "\"namespace/name\", or \"name\" for a cluster-scoped object.");
    }
  }

  private List<String> keys() {
    List<String> keys = new ArrayList<>(actual.getStore().listKeys());
    keys.sort(null);
    return keys;
  }

  private String expecting(String expectation) {
    return "\nExpecting " + StateFormat.informerName(actual) + "\n  " + expectation
        + waiting.phrase() + "\n";
  }

  private AssertionError failed(String message) {
    return failure("%s", message.stripTrailing());
  }
}
