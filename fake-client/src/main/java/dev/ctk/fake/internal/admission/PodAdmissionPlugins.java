package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * What two of kube-apiserver's default admission plugins add to a Pod when it is created (not on update, as in
 * kube):
 *
 * <ul>
 *   <li>{@code Priority}: {@code spec.priority} and {@code spec.preemptionPolicy} from the Pod's priority class:
 *       {@code 0} and {@code PreemptLowerPriority} without one; the values of the built-in classes
 *       {@code system-node-critical} and {@code system-cluster-critical};</li>
 *   <li>{@code DefaultTolerationSeconds}: a 300-second {@code NoExecute} toleration of the
 *       {@code node.kubernetes.io/not-ready} and {@code node.kubernetes.io/unreachable} taints, each unless the Pod
 *       already tolerates that taint for {@code NoExecute}.</li>
 * </ul>
 *
 * <p>Limits: a Pod naming a PriorityClass the fake stores gets no priority from it (the plugin's lookup is not
 * imitated), and a {@code globalDefault} class is not applied; the {@code ServiceAccount} plugin (token volume,
 * {@code serviceAccountName: default}) is not imitated, as envtest also runs without it.
 */
final class PodAdmissionPlugins {

  /** kube's {@code DefaultTolerationSeconds} default for both taints. */
  private static final long TOLERATION_SECONDS = 300;
  private static final String NO_EXECUTE = "NoExecute";
  private static final String PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority";
  /** The priority classes every kube-apiserver creates at start (scheduling.k8s.io/v1), with their values. */
  private static final Map<String, Integer> SYSTEM_CLASSES =
      Map.of("system-node-critical", 2000001000, "system-cluster-critical", 2000000000);

  private PodAdmissionPlugins() {}

  /**
   * Applies both plugins to a Pod about to be created.
   *
   * @param pod the Pod (modified in place)
   */
  static void onCreate(ObjectNode pod) {
    ObjectNode spec = Json.object(pod, "spec");
    priority(spec);
    tolerations(spec);
  }

  private static void priority(ObjectNode spec) {
    String className = spec.path("priorityClassName").asText("");
    Integer value = className.isEmpty() ? Integer.valueOf(0) : SYSTEM_CLASSES.get(className);
    if (value == null) {
      return;
    }
    if (!spec.has("priority")) {
      spec.put("priority", value);
    }
    if (!spec.has("preemptionPolicy")) {
      spec.put("preemptionPolicy", PREEMPT_LOWER_PRIORITY);
    }
  }

  private static void tolerations(ObjectNode spec) {
    for (String taint : new String[] {"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"}) {
      if (!tolerates(spec.path("tolerations"), taint)) {
        ArrayNode tolerations = spec.get("tolerations") instanceof ArrayNode list ? list : spec.putArray("tolerations");
        tolerations.addObject()
            .put("key", taint)
            .put("operator", "Exists")
            .put("effect", NO_EXECUTE)
            .put("tolerationSeconds", TOLERATION_SECONDS);
      }
    }
  }

  /** As the plugin decides: a toleration with that key (or no key) and effect NoExecute (or no effect). */
  private static boolean tolerates(JsonNode tolerations, String taint) {
    for (JsonNode toleration : tolerations) {
      String key = toleration.path("key").asText("");
      String effect = toleration.path("effect").asText("");
      if ((key.isEmpty() || key.equals(taint)) && (effect.isEmpty() || effect.equals(NO_EXECUTE))) {
        return true;
      }
    }
    return false;
  }
}
