package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's Pod strategy on create: the status the client sent (which the store drops) becomes
 * {@code {phase: Pending, qosClass}},
 * the QoS class computed from the containers' requests and limits (BestEffort when none has any, Guaranteed when
 * every container limits cpu and memory with requests equal to limits, Burstable otherwise).
 */
final class PodStatus {

  private PodStatus() {}

  static void pending(ObjectNode pod) {
    if (pod.has("status")) {
      return; // seeding keeps the status it was given (an API create has already dropped the client's)
    }
    ObjectNode status = pod.putObject("status");
    status.put("phase", "Pending");
    status.put("qosClass", qosClass(pod.path("spec")));
  }

  static String qosClass(JsonNode spec) {
    boolean any = false;
    boolean guaranteed = true;
    for (JsonNode container : Json.elements(spec, "containers", "initContainers")) {
      JsonNode requests = container.path("resources").path("requests");
      JsonNode limits = container.path("resources").path("limits");
      any |= requests.size() > 0 || limits.size() > 0;
      for (String resource : new String[] {"cpu", "memory"}) {
        if (!limits.has(resource) || (requests.has(resource)
            && !requests.get(resource).asText().equals(limits.get(resource).asText()))) {
          guaranteed = false;
        }
      }
    }
    if (!any) {
      return "BestEffort";
    }
    return guaranteed ? "Guaranteed" : "Burstable";
  }
}
