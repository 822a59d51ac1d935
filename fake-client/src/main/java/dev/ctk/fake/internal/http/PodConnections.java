package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;

/**
 * The subresources kube-apiserver serves by connecting to a kubelet or a backend ({@code pods/log},
 * {@code pods/exec}, {@code pods/attach}, {@code pods/portforward}, and the three {@code proxy} subresources),
 * answered as a bare kube-apiserver answers them with no kubelet: the object must exist (404), the container must be
 * one of the Pod's (400), then an unscheduled Pod's log is {@code 204 No Content} and its exec/attach/portforward
 * {@code 400 pod <name> does not have a host assigned}; a Pod on a Node that does not exist answers
 * {@code 404 pods "<node>" not found} (kube's wording) and on a Node without addresses
 * {@code 500 no preferred addresses found; known addresses: []}. A Service without Endpoints answers
 * {@code 503 no endpoints available for service "<name>"}.
 *
 * <p>Limits: the fake runs no kubelet and no network, so nothing is ever connected: where kube would connect (a Node
 * with addresses, a Service with endpoints, any Pod or Node proxy), the fake answers 503 ServiceUnavailable saying
 * so. Streaming and websocket upgrades are not negotiated.
 */
final class PodConnections {

  private final ObjectStore store;

  PodConnections(ObjectStore store) {
    this.store = store;
  }

  /** {@code pods/log} (GET), {@code pods/exec}, {@code pods/attach}, {@code pods/portforward} (GET, POST). */
  ApiResponse pod(ApiRequest request, ResolvedResource r) {
    ObjectNode pod = store.get(r.type(), r.namespace(), r.name());
    if (!r.subresource().equals("portforward")) {
      checkContainer(pod, request.param("container"));
    }
    String nodeName = pod.path("spec").path("nodeName").asText("");
    if (nodeName.isEmpty()) {
      if (r.subresource().equals("log")) {
        return ApiResponse.noContent();
      }
      throw ApiError.badRequest("pod " + r.name() + " does not have a host assigned");
    }
    throw unreachableNode(nodeName);
  }

  /** The three {@code proxy} subresources: the object must exist; nothing is proxied. */
  ApiResponse proxy(ResolvedResource r) {
    store.get(r.type(), r.namespace(), r.name());
    if (r.type().kind().equals("Service") && !hasEndpoints(r.namespace(), r.name())) {
      throw ApiError.of(503, "ServiceUnavailable", "no endpoints available for service \"" + r.name() + "\"");
    }
    throw notConnected(r.type().kind() + " " + r.name());
  }

  /** kube's check of the {@code container} parameter: a Pod's container, or implied when it has exactly one. */
  private static void checkContainer(ObjectNode pod, String container) {
    String name = pod.path("metadata").path("name").asText();
    if (container == null || container.isEmpty()) {
      List<String> containers = names(pod, "containers");
      if (containers.size() == 1) {
        return;
      }
      if (containers.isEmpty()) {
        throw ApiError.badRequest("a container name must be specified for pod " + name);
      }
      String message = "a container name must be specified for pod " + name + ", choose one of: "
          + goList(containers);
      List<String> init = names(pod, "initContainers");
      if (!init.isEmpty()) {
        message += " or one of the init containers: " + goList(init);
      }
      List<String> ephemeral = names(pod, "ephemeralContainers");
      if (!ephemeral.isEmpty()) {
        message += " or one of the ephemeral containers: " + goList(ephemeral);
      }
      throw ApiError.badRequest(message);
    }
    for (String field : List.of("containers", "initContainers", "ephemeralContainers")) {
      if (names(pod, field).contains(container)) {
        return;
      }
    }
    throw ApiError.badRequest("container " + container + " is not valid for pod " + name);
  }

  /** What kube answers when it would look up the Pod's Node to reach its kubelet. */
  private ApiError unreachableNode(String nodeName) {
    ResourceType nodes = store.registry().byPath("", "v1", "nodes").orElseThrow();
    if (!store.exists(nodes, null, nodeName)) {
      return ApiError.notFound("", "pods", nodeName);
    }
    JsonNode addresses = store.get(nodes, null, nodeName).path("status").path("addresses");
    if (addresses.isEmpty()) {
      return ApiError.untranslated(500, "no preferred addresses found; known addresses: []");
    }
    return notConnected("the kubelet of node " + nodeName);
  }

  private boolean hasEndpoints(String namespace, String name) {
    ResourceType endpoints = store.registry().byPath("", "v1", "endpoints").orElseThrow();
    if (!store.exists(endpoints, namespace, name)) {
      return false;
    }
    for (JsonNode subset : store.get(endpoints, namespace, name).path("subsets")) {
      if (!subset.path("addresses").isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private static ApiError notConnected(String target) {
    return ApiError.of(503, "ServiceUnavailable", "ctk's fake API server cannot connect to " + target
        + ": it runs no kubelet and no network (exec, attach, port-forward, logs and proxies need a real cluster)");
  }

  private static List<String> names(ObjectNode pod, String field) {
    List<String> names = new ArrayList<>();
    pod.path("spec").path(field).forEach(c -> names.add(c.path("name").asText()));
    return names;
  }

  /** A Go {@code []string} printed with {@code %s}: {@code [a b]}. */
  private static String goList(List<String> items) {
    return "[" + String.join(" ", items) + "]";
  }
}
