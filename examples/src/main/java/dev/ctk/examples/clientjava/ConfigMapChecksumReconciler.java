package dev.ctk.examples.clientjava;

import static dev.ctk.examples.clientjava.ConfigMapChecksumController.CHECKSUM_ANNOTATION;

import io.kubernetes.client.extended.controller.reconciler.Reconciler;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.extended.controller.reconciler.Result;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.util.Map;

/**
 * Level-triggered: reads the ConfigMap from the informer's cache, computes the checksum of its data
 * and, if the annotation differs, replaces the ConfigMap with the annotation set. The replace carries
 * the cached resourceVersion, so a cache that lags the API server gets 409 Conflict; the reconcile
 * then asks for a rate-limited requeue ({@code Result(true)}) and tries again once the informer
 * caught up.
 */
final class ConfigMapChecksumReconciler implements Reconciler {

  private final CoreV1Api core;
  private final Lister<V1ConfigMap> configMaps;

  ConfigMapChecksumReconciler(CoreV1Api core, Lister<V1ConfigMap> configMaps) {
    this.core = core;
    this.configMaps = configMaps;
  }

  @Override
  public Result reconcile(Request request) {
    V1ConfigMap cached = configMaps.namespace(request.getNamespace()).get(request.getName());
    if (cached == null) {
      return new Result(false);   // deleted, or no longer labelled
    }
    String checksum = ConfigMapChecksumController.checksum(cached.getData(),
        cached.getBinaryData());
    Map<String, String> annotations = cached.getMetadata().getAnnotations();
    if (annotations != null && checksum.equals(annotations.get(CHECKSUM_ANNOTATION))) {
      return new Result(false);
    }
    // never modify the cache's object: stamp a deep copy
    V1ConfigMap stamped = JSON.deserialize(JSON.serialize(cached), V1ConfigMap.class);
    stamped.getMetadata().putAnnotationsItem(CHECKSUM_ANNOTATION, checksum);
    try {
      core.replaceNamespacedConfigMap(request.getName(), request.getNamespace(), stamped)
          .execute();
      return new Result(false);
    } catch (ApiException e) {
      if (e.getCode() == 409) {
        return new Result(true);   // the cache is behind the API server: retry with backoff
      }
      if (e.getCode() == 404) {
        return new Result(false);  // deleted meanwhile
      }
      throw new IllegalStateException("Cannot stamp ConfigMap " + request.getNamespace() + "/"
          + request.getName() + " with its checksum: " + e.getCode() + " "
          + e.getResponseBody(), e);
    }
  }
}
