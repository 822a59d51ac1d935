package dev.ctk.examples.ttl;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Reconciler;
import dev.ctk.controller.Result;
import dev.ctk.controller.TimeSource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Deletes ConfigMaps whose time to live has run out: a ConfigMap annotated
 * {@code examples.ctk.dev/ttl-seconds: "3600"} is deleted one hour after its {@code creationTimestamp}. Until then
 * the reconcile asks to be called again when the time is up ({@link Result#requeueAfter}), so nothing polls.
 *
 * <pre>{@code
 * Controller ttl = ConfigMapTtlController.create(client, TimeSource.system());
 * ttl.start();
 * }</pre>
 *
 * <p>Every reading of the clock goes through the {@link TimeSource} it is given: a test passes a virtual one and
 * moves an hour forward in a call, with the fake API server's timestamps on the same clock.
 *
 * @since 0.1.0
 */
public final class ConfigMapTtlController implements Reconciler {

  /** The annotation that gives a ConfigMap's time to live, in whole seconds. */
  public static final String TTL_ANNOTATION = "examples.ctk.dev/ttl-seconds";

  private final KubernetesClient client;
  private final TimeSource time;
  private final SharedIndexInformer<ConfigMap> configMaps;

  private ConfigMapTtlController(KubernetesClient client, TimeSource time) {
    this.client = client;
    this.time = time;
    this.configMaps = client.configMaps().inAnyNamespace().runnableInformer(0);
  }

  /**
   * Builds the controller; its work queue, backoff and requeues run on {@code time}.
   *
   * @param client a client for the cluster to control
   * @param time the clock for expiry and requeues ({@link TimeSource#system()} in production)
   * @return a controller, not started
   */
  public static Controller create(KubernetesClient client, TimeSource time) {
    ConfigMapTtlController reconciler = new ConfigMapTtlController(client, time);
    return Controller.builder("configmap-ttl")
        .watch(reconciler.configMaps, EventHandlers.enqueueObject())
        .withReconciler(reconciler)
        .withTimeSource(time)
        .build();
  }

  @Override
  public Result reconcile(ObjectKey key) {
    ConfigMap configMap = configMaps.getIndexer().getByKey(key.toString());
    if (configMap == null || configMap.getMetadata().getDeletionTimestamp() != null) {
      return Result.done();
    }
    Duration ttl = ttlOf(configMap);
    if (ttl == null) {
      return Result.done();
    }
    Instant expiry = Instant.parse(configMap.getMetadata().getCreationTimestamp()).plus(ttl);
    Duration left = Duration.between(time.now(), expiry);
    if (!left.isNegative() && !left.isZero()) {
      return Result.requeueAfter(left);
    }
    client.configMaps().inNamespace(key.namespace()).withName(key.name()).delete();
    return Result.done();
  }

  /** The time to live, or {@code null} when the annotation is absent or not a non-negative whole number. */
  static Duration ttlOf(ConfigMap configMap) {
    Map<String, String> annotations = configMap.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(TTL_ANNOTATION);
    if (value == null || !value.matches("\\d{1,9}")) {
      return null;
    }
    return Duration.ofSeconds(Long.parseLong(value));
  }
}
