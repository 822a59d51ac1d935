package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's {@code SetDefaults_Service}: type ClusterIP, sessionAffinity None (ClientIP gets a 10800 s timeout),
 * port protocol TCP, targetPort = port when unset, externalTrafficPolicy Cluster for NodePort and LoadBalancer,
 * internalTrafficPolicy Cluster (not for ExternalName), allocateLoadBalancerNodePorts true for LoadBalancer.
 * Addresses and node ports are allocated by the registry, not by defaulting: see {@link ServiceAllocation}.
 */
final class ServiceDefaults {

  private ServiceDefaults() {}

  static void service(ObjectNode service) {
    ObjectNode spec = Json.object(service, "spec");
    Json.putIfAbsent(spec, "sessionAffinity", "None");
    String affinity = spec.path("sessionAffinity").asText();
    if (affinity.equals("None")) {
      spec.remove("sessionAffinityConfig");
    } else if (affinity.equals("ClientIP")
        && Json.absent(spec.path("sessionAffinityConfig").path("clientIP"), "timeoutSeconds")) {
      Json.object(Json.object(spec, "sessionAffinityConfig"), "clientIP").put("timeoutSeconds", 10800);
    }
    Json.putIfAbsent(spec, "type", "ClusterIP");
    String type = spec.path("type").asText();
    for (JsonNode port : spec.path("ports")) {
      if (port instanceof ObjectNode p) {
        Json.putIfAbsent(p, "protocol", "TCP");
        JsonNode target = p.get("targetPort");
        boolean unset = target == null || target.isNull() || (target.isNumber() && target.asInt() == 0)
            || (target.isTextual() && target.asText().isEmpty());
        if (unset && p.has("port")) {
          p.set("targetPort", p.get("port").deepCopy());
        }
      }
    }
    boolean exposed = type.equals("NodePort") || type.equals("LoadBalancer");
    if (exposed) {
      Json.putIfAbsent(spec, "externalTrafficPolicy", "Cluster");
    }
    if ((exposed || type.equals("ClusterIP")) && Json.absent(spec, "internalTrafficPolicy")) {
      spec.put("internalTrafficPolicy", "Cluster");
    }
    if (type.equals("LoadBalancer") && Json.absent(spec, "allocateLoadBalancerNodePorts")) {
      spec.put("allocateLoadBalancerNodePorts", true);
    }
  }
}
