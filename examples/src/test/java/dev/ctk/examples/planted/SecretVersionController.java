package dev.ctk.examples.planted;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Reconciler;
import dev.ctk.controller.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.Objects;

/**
 * Writes, on every ConfigMap labelled {@code examples.ctk.dev/secret-user=true}, the {@code data.version} of the
 * Secret its {@code data.secret} names into the annotation {@value #VERSION_ANNOTATION}: a ConfigMap is reconciled
 * when it changes and when its Secret does.
 *
 * <p><b>Planted bug</b> (a lost update): the reconcile copies the ConfigMap from the informer's cache, sets the
 * annotation, drops the resourceVersion and writes the whole object back with {@code update()} (fabric8 then puts
 * the latest resourceVersion on it, so the write never conflicts). When the cache lags behind a change someone else
 * just made to the ConfigMap, that change is overwritten with the cache's older copy, and the API server cannot
 * refuse it. <b>Correct:</b> the reconcile changes only what it owns, with a patch of the annotation (an update
 * would do if it kept the cached resourceVersion and retried on 409 Conflict).
 */
final class SecretVersionController implements Reconciler {

  static final String USER_LABEL = "examples.ctk.dev/secret-user";
  static final String VERSION_ANNOTATION = "examples.ctk.dev/secret-version";

  private final KubernetesClient client;
  private final Variant variant;
  private final SharedIndexInformer<ConfigMap> configMaps;
  private final SharedIndexInformer<Secret> secrets;

  private SecretVersionController(KubernetesClient client, Variant variant) {
    this.client = client;
    this.variant = variant;
    this.configMaps = client.configMaps().inAnyNamespace().withLabel(USER_LABEL, "true").runnableInformer(0);
    this.secrets = client.secrets().inAnyNamespace().runnableInformer(0);
  }

  static Controller create(KubernetesClient client, Variant variant) {
    SecretVersionController reconciler = new SecretVersionController(client, variant);
    return Controller.builder("secret-version")
        .watch(reconciler.configMaps, EventHandlers.enqueueObject())
        .watch(reconciler.secrets, EventHandlers.enqueueMapped(reconciler::users))
        .withReconciler(reconciler)
        .build();
  }

  /** The ConfigMaps in a Secret's namespace that name it. */
  private java.util.List<ObjectKey> users(Secret secret) {
    return configMaps.getStore().list().stream()
        .filter(c -> Objects.equals(c.getMetadata().getNamespace(), secret.getMetadata().getNamespace())
            && Objects.equals(data(c, "secret"), secret.getMetadata().getName()))
        .map(c -> ObjectKey.of(c.getMetadata().getNamespace(), c.getMetadata().getName()))
        .toList();
  }

  @Override
  public Result reconcile(ObjectKey key) {
    ConfigMap cached = configMaps.getIndexer().getByKey(key.toString());
    if (cached == null || data(cached, "secret") == null) {
      return Result.done();
    }
    Secret secret = secrets.getIndexer().getByKey(key.namespace() + "/" + data(cached, "secret"));
    if (secret == null || secret.getData() == null || secret.getData().get("version") == null) {
      return Result.done();
    }
    String version = new String(java.util.Base64.getDecoder().decode(secret.getData().get("version")),
        java.nio.charset.StandardCharsets.UTF_8);
    Map<String, String> annotations = cached.getMetadata().getAnnotations();
    if (version.equals(annotations == null ? null : annotations.get(VERSION_ANNOTATION))) {
      return Result.done();
    }
    if (variant == Variant.PLANTED_BUG) {
      ConfigMap copy = new ConfigMapBuilder(cached).editMetadata().addToAnnotations(VERSION_ANNOTATION, version)
          .withResourceVersion(null).endMetadata().build();
      client.configMaps().inNamespace(key.namespace()).resource(copy).update();
    } else {
      client.configMaps().inNamespace(key.namespace()).withName(key.name()).edit(c -> new ConfigMapBuilder(c)
          .editMetadata().addToAnnotations(VERSION_ANNOTATION, version).endMetadata().build());
    }
    return Result.done();
  }

  private static String data(ConfigMap configMap, String field) {
    return configMap.getData() == null ? null : configMap.getData().get(field);
  }
}
