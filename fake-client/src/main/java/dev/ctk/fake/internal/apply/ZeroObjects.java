package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;

/**
 * The empty object of a kind as kube's Go types serialize it: the baseline kube compares a created object with,
 * and the one the first apply to an untracked object compares the live object with. Its empty structs
 * ({@code spec: {}}) are why a create's managedFields entry has no {@code "."} for them, while a custom resource,
 * whose empty object has no {@code spec}, gets {@code f:spec: {".": {}}}.
 *
 * <p>Only objects and lists matter here (scalars are owned whether they were zero or absent); kinds not listed
 * start from {@code {"metadata": {"creationTimestamp": null}}}.
 */
final class ZeroObjects {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TEMPLATE =
      "{\"metadata\":{\"creationTimestamp\":null},\"spec\":{\"containers\":null}}";

  /** {@code group/Kind} ({@code /Pod} for core) to the JSON of its zero object, without metadata. */
  private static final Map<String, String> BY_KIND = new HashMap<>();

  static {
    BY_KIND.put("/Pod", "{\"spec\":{\"containers\":null},\"status\":{}}");
    BY_KIND.put("/Service", "{\"spec\":{},\"status\":{\"loadBalancer\":{}}}");
    BY_KIND.put("/Namespace", "{\"spec\":{},\"status\":{}}");
    BY_KIND.put("/Node", "{\"spec\":{},\"status\":{\"daemonEndpoints\":{\"kubeletEndpoint\":{\"Port\":0}},"
        + "\"nodeInfo\":{}}}");
    BY_KIND.put("/PersistentVolumeClaim", "{\"spec\":{\"resources\":{}},\"status\":{}}");
    BY_KIND.put("/PersistentVolume", "{\"spec\":{},\"status\":{}}");
    BY_KIND.put("/ReplicationController", "{\"spec\":{},\"status\":{\"replicas\":0}}");
    BY_KIND.put("/PodTemplate", "{\"template\":" + TEMPLATE + "}");
    BY_KIND.put("/ResourceQuota", "{\"spec\":{},\"status\":{}}");
    BY_KIND.put("/LimitRange", "{\"spec\":{\"limits\":null}}");
    BY_KIND.put("/Event", "{\"involvedObject\":{},\"source\":{},\"firstTimestamp\":null,\"lastTimestamp\":null,"
        + "\"eventTime\":null}");
    BY_KIND.put("apps/Deployment", "{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE + ",\"strategy\":{}},"
        + "\"status\":{}}");
    BY_KIND.put("apps/ReplicaSet", "{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE + "},"
        + "\"status\":{\"replicas\":0}}");
    BY_KIND.put("apps/StatefulSet", "{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE
        + ",\"updateStrategy\":{}},\"status\":{\"replicas\":0,\"availableReplicas\":0}}");
    BY_KIND.put("apps/DaemonSet", "{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE
        + ",\"updateStrategy\":{}},\"status\":{\"currentNumberScheduled\":0,\"numberMisscheduled\":0,"
        + "\"desiredNumberScheduled\":0,\"numberReady\":0}}");
    BY_KIND.put("apps/ControllerRevision", "{\"data\":null}");
    BY_KIND.put("batch/Job", "{\"spec\":{\"template\":" + TEMPLATE + "},\"status\":{}}");
    BY_KIND.put("batch/CronJob", "{\"spec\":{\"jobTemplate\":{\"metadata\":{\"creationTimestamp\":null},"
        + "\"spec\":{\"template\":" + TEMPLATE + "}}},\"status\":{}}");
    BY_KIND.put("networking.k8s.io/Ingress", "{\"spec\":{},\"status\":{\"loadBalancer\":{}}}");
    BY_KIND.put("networking.k8s.io/NetworkPolicy", "{\"spec\":{\"podSelector\":{}}}");
    BY_KIND.put("rbac.authorization.k8s.io/Role", "{\"rules\":null}");
    BY_KIND.put("rbac.authorization.k8s.io/ClusterRole", "{\"rules\":null}");
    BY_KIND.put("rbac.authorization.k8s.io/RoleBinding", "{\"roleRef\":{}}");
    BY_KIND.put("rbac.authorization.k8s.io/ClusterRoleBinding", "{\"roleRef\":{}}");
    BY_KIND.put("coordination.k8s.io/Lease", "{\"spec\":{}}");
    BY_KIND.put("policy/PodDisruptionBudget", "{\"spec\":{},\"status\":{\"disruptionsAllowed\":0,"
        + "\"currentHealthy\":0,\"desiredHealthy\":0,\"expectedPods\":0}}");
    BY_KIND.put("autoscaling/HorizontalPodAutoscaler", "{\"spec\":{\"scaleTargetRef\":{}},\"status\":{}}");
  }

  private ZeroObjects() {}

  /**
   * The zero object of a kind.
   *
   * @param custom whether the kind is a custom resource (its zero object is empty)
   */
  static ObjectNode of(String group, String kind, boolean custom) {
    String json = custom ? null : BY_KIND.get(group + "/" + kind);
    try {
      ObjectNode zero = json == null ? JSON.createObjectNode() : (ObjectNode) JSON.readTree(json);
      if (!custom) {
        zero.putObject("metadata").putNull("creationTimestamp");
      }
      return zero;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("malformed zero object of " + group + "/" + kind, e);
    }
  }
}
