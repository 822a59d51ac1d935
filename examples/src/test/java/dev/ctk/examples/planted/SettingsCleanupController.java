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
import java.util.List;
import java.util.Map;

/**
 * Checks settings against their Secret: a ConfigMap labelled {@code examples.ctk.dev/requires-secret=<name>} is
 * marked {@value #CHECKED_ANNOTATION}{@code =<name>} while a Secret of that name exists in its namespace, and
 * deleted when none does. Deleting a Secret enqueues the settings that name it.
 *
 * <p><b>Planted bug</b> (a delete decided from a stale cache): "does the Secret exist?" is answered by the Secret
 * informer's cache alone. When that cache lags behind (a restarted controller whose Secret list comes from an
 * apiserver cache older than the Secret), it deletes settings that are still wanted, and nothing brings them back.
 * <b>Correct:</b> a Secret missing from the cache is confirmed with a live GET before anything is deleted.
 */
final class SettingsCleanupController implements Reconciler {

  static final String REQUIRES_SECRET_LABEL = "examples.ctk.dev/requires-secret";
  static final String CHECKED_ANNOTATION = "examples.ctk.dev/checked-secret";

  private final KubernetesClient client;
  private final Variant variant;
  private final SharedIndexInformer<ConfigMap> settings;
  private final SharedIndexInformer<Secret> secrets;

  private SettingsCleanupController(KubernetesClient client, Variant variant) {
    this.client = client;
    this.variant = variant;
    this.settings = client.configMaps().inAnyNamespace().withLabel(REQUIRES_SECRET_LABEL).runnableInformer(0);
    this.secrets = client.secrets().inAnyNamespace().runnableInformer(0);
  }

  static Controller create(KubernetesClient client, Variant variant) {
    SettingsCleanupController reconciler = new SettingsCleanupController(client, variant);
    return Controller.builder("settings-cleanup")
        .watch(reconciler.settings, EventHandlers.enqueueObject())
        .watch(reconciler.secrets, secret -> reconciler.settingsNaming(secret))
        .withReconciler(reconciler)
        .build();
  }

  private List<ObjectKey> settingsNaming(Secret secret) {
    return settings.getIndexer().list().stream()
        .filter(cm -> cm.getMetadata().getNamespace().equals(secret.getMetadata().getNamespace()))
        .filter(cm -> secret.getMetadata().getName().equals(requiredSecret(cm)))
        .map(cm -> ObjectKey.of(cm.getMetadata().getNamespace(), cm.getMetadata().getName()))
        .toList();
  }

  @Override
  public Result reconcile(ObjectKey key) {
    ConfigMap configMap = settings.getIndexer().getByKey(key.toString());
    if (configMap == null) {
      return Result.done();
    }
    String secret = requiredSecret(configMap);
    if (secretExists(key.namespace(), secret)) {
      Map<String, String> annotations = configMap.getMetadata().getAnnotations();
      if (annotations == null || !secret.equals(annotations.get(CHECKED_ANNOTATION))) {
        client.configMaps().inNamespace(key.namespace()).withName(key.name()).edit(c -> new ConfigMapBuilder(c)
            .editMetadata().addToAnnotations(CHECKED_ANNOTATION, secret).endMetadata().build());
      }
      return Result.done();
    }
    client.configMaps().inNamespace(key.namespace()).withName(key.name()).delete();
    return Result.done();
  }

  private boolean secretExists(String namespace, String name) {
    if (secrets.getIndexer().getByKey(namespace + "/" + name) != null) {
      return true;
    }
    return variant == Variant.CORRECT && client.secrets().inNamespace(namespace).withName(name).get() != null;
  }

  private static String requiredSecret(ConfigMap configMap) {
    Map<String, String> labels = configMap.getMetadata().getLabels();
    return labels == null ? null : labels.get(REQUIRES_SECRET_LABEL);
  }
}
