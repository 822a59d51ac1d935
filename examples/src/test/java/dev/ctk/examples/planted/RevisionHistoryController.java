package dev.ctk.examples.planted;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Reconciler;
import dev.ctk.controller.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reports, on every ConfigMap labelled {@code examples.ctk.dev/tracked=true}, the revisions it went through
 * ({@value #HISTORY_ANNOTATION}, e.g. {@code 1,2,3}) from its {@code data.revision}.
 *
 * <p><b>Planted bug</b> (a status computed from intermediate states): the history is built from the events the
 * informer delivered, one entry per revision seen. A controller is never promised every intermediate state (a
 * relist, a restart or a lagging watch deliver only the latest), so the history depends on what it happened to see.
 * <b>Correct:</b> the state comes from the object itself: the writer of each revision appends it to
 * {@code data.revisions}, and the controller reports that list.
 */
final class RevisionHistoryController implements Reconciler {

  static final String TRACKED_LABEL = "examples.ctk.dev/tracked";
  static final String HISTORY_ANNOTATION = "examples.ctk.dev/history";

  private final KubernetesClient client;
  private final Variant variant;
  private final SharedIndexInformer<ConfigMap> configMaps;
  /** PLANTED_BUG: the revisions seen per key, in the order the events came. */
  private final Map<ObjectKey, List<String>> seen = new ConcurrentHashMap<>();

  private RevisionHistoryController(KubernetesClient client, Variant variant) {
    this.client = client;
    this.variant = variant;
    this.configMaps = client.configMaps().inAnyNamespace().withLabel(TRACKED_LABEL, "true").runnableInformer(0);
  }

  static Controller create(KubernetesClient client, Variant variant) {
    RevisionHistoryController reconciler = new RevisionHistoryController(client, variant);
    return Controller.builder("revision-history")
        .watch(reconciler.configMaps, reconciler::record)
        .withReconciler(reconciler)
        .build();
  }

  /** The event handler: remembers the revision this event carries (PLANTED_BUG), and enqueues the ConfigMap. */
  private List<ObjectKey> record(ConfigMap configMap) {
    ObjectKey key = ObjectKey.of(configMap.getMetadata().getNamespace(), configMap.getMetadata().getName());
    String revision = data(configMap, "revision");
    if (variant == Variant.PLANTED_BUG && revision != null) {
      List<String> revisions = seen.computeIfAbsent(key, k -> new ArrayList<>());
      synchronized (revisions) {
        if (revisions.isEmpty() || !revisions.get(revisions.size() - 1).equals(revision)) {
          revisions.add(revision);
        }
      }
    }
    return List.of(key);
  }

  @Override
  public Result reconcile(ObjectKey key) {
    ConfigMap configMap = configMaps.getIndexer().getByKey(key.toString());
    if (configMap == null) {
      seen.remove(key);
      return Result.done();
    }
    String history = variant == Variant.PLANTED_BUG ? seenHistory(key) : data(configMap, "revisions");
    Map<String, String> annotations = configMap.getMetadata().getAnnotations();
    if (history == null || Objects.equals(history, annotations == null ? null : annotations.get(HISTORY_ANNOTATION))) {
      return Result.done();
    }
    client.configMaps().inNamespace(key.namespace()).withName(key.name()).edit(c -> new ConfigMapBuilder(c)
        .editMetadata().addToAnnotations(HISTORY_ANNOTATION, history).endMetadata().build());
    return Result.done();
  }

  private String seenHistory(ObjectKey key) {
    List<String> revisions = seen.get(key);
    if (revisions == null) {
      return null;
    }
    synchronized (revisions) {
      return String.join(",", revisions);
    }
  }

  private static String data(ConfigMap configMap, String field) {
    return configMap.getData() == null ? null : configMap.getData().get(field);
  }
}
