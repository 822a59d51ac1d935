package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What a write to {@code pods/resize} (kube 1.33 and later) takes from the body: each container's {@code resources}
 * and {@code resizePolicy}, matched by name, for the containers and for the init containers that run as sidecars
 * ({@code restartPolicy: Always}); everything else stays as stored.
 *
 * <pre>{@code
 * ObjectNode next = stored.deepCopy();
 * PodResize.apply(body, next);
 * }</pre>
 *
 * <p>Limits: kube's resize validation (no QoS class change, no resizing a Pod that is not running on a node that
 * supports it, the {@code status.resize} and {@code PodResizePending} conditions a kubelet sets) is not modelled.
 */
final class PodResize {

  private PodResize() {}

  /** Copies the resize fields of {@code body} into {@code next}, the stored Pod's copy. */
  static void apply(JsonNode body, ObjectNode next) {
    JsonNode spec = next.path("spec");
    copy(body.path("spec").path("containers"), spec.path("containers"), false);
    copy(body.path("spec").path("initContainers"), spec.path("initContainers"), true);
  }

  private static void copy(JsonNode sent, JsonNode stored, boolean sidecarsOnly) {
    for (JsonNode target : stored) {
      if (!(target instanceof ObjectNode container)
          || sidecarsOnly && !"Always".equals(container.path("restartPolicy").asText())) {
        continue;
      }
      for (JsonNode source : sent) {
        if (source.path("name").asText().equals(container.path("name").asText())) {
          for (String field : new String[] {"resources", "resizePolicy"}) {
            JsonNode value = source.get(field);
            if (value == null || value.isNull()) {
              container.remove(field);
            } else {
              container.set(field, value.deepCopy());
            }
          }
        }
      }
    }
  }
}
