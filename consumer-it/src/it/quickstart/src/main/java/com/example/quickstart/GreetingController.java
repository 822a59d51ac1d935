package com.example.quickstart;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;

/** Writes {@code greeting: Hello, <name>!} into every ConfigMap labelled {@code greet=true} that has a {@code name}. */
public final class GreetingController {

  private GreetingController() {}

  public static Controller create(KubernetesClient client) {
    SharedIndexInformer<ConfigMap> configMaps = client.configMaps().inAnyNamespace().runnableInformer(0);
    return Controller.builder("greeting")
        .watch(configMaps, EventHandlers.enqueueObject())
        .withReconciler(key -> reconcile(client, configMaps, key))
        .build();
  }

  private static Result reconcile(KubernetesClient client, SharedIndexInformer<ConfigMap> cache, ObjectKey key) {
    ConfigMap configMap = cache.getIndexer().getByKey(key.toString());
    if (configMap == null || !"true".equals(labels(configMap).get("greet")) || configMap.getData() == null) {
      return Result.done();
    }
    String name = configMap.getData().get("name");
    String greeting = "Hello, " + name + "!";
    if (name != null && !greeting.equals(configMap.getData().get("greeting"))) {
      client.configMaps().inNamespace(key.namespace()).withName(key.name())
          .edit(c -> { c.getData().put("greeting", greeting); return c; });
    }
    return Result.done();
  }

  private static Map<String, String> labels(ConfigMap configMap) {
    Map<String, String> labels = configMap.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }
}
