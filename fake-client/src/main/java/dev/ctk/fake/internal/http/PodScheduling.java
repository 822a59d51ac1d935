package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.admission.Selection;
import dev.ctk.fake.internal.apply.FieldOwner;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.DeletePreconditions;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.store.PropagationPolicy;
import dev.ctk.fake.internal.store.StoredObject;
import java.util.List;

/**
 * {@code pods/binding} and {@code pods/eviction}, as kube-apiserver's Pod registry serves them, each in one store
 * transaction, each answering {@code 201} with a {@code Status} of {@code Success}:
 * <ul>
 *   <li>binding sets {@code spec.nodeName} and the {@code PodScheduled=True} condition; a Pod already assigned
 *       answers {@code 409 Operation cannot be fulfilled on pods/binding "<pod>": pod <pod> is already assigned to
 *       node "<node>"};</li>
 *   <li>eviction deletes the Pod (with the Eviction's {@code deleteOptions}) when its PodDisruptionBudget can be
 *       ignored (the Pod is Pending, Succeeded, Failed or being deleted) or none selects it; else the one budget that
 *       selects it decides: not yet observed by its controller ({@code status.observedGeneration} behind) or no
 *       disruption allowed answers kube's 429 {@code Cannot evict pod as it would violate the pod's disruption
 *       budget.}, otherwise one allowed disruption is used up (its status records the Pod, as kube's does) and the
 *       Pod is deleted.</li>
 * </ul>
 *
 * <p>Limits: a Pod's readiness and the budget's {@code unhealthyPodEvictionPolicy} are not consulted; the fake runs
 * no disruption controller, so a budget's status is whatever the test wrote.
 */
final class PodScheduling {

  private final ObjectStore store;

  PodScheduling(ObjectStore store) {
    this.store = store;
  }

  ApiResponse bind(ApiRequest request, ResolvedResource r, WriteOptions options) {
    ObjectNode binding = JsonCodec.readObject(request);
    String node = binding.path("target").path("name").asText("");
    return store.inTransaction(() -> {
      ObjectNode pod = store.get(r.type(), r.namespace(), r.name());
      String assigned = pod.path("spec").path("nodeName").asText("");
      if (!assigned.isEmpty()) {
        throw ApiError.conflict("", "pods/binding", r.name(), "pod " + r.name() + " is already assigned to node \""
            + assigned + "\"");
      }
      ObjectNode bound = pod.deepCopy();
      ((ObjectNode) bound.path("spec")).put("nodeName", node);
      ObjectNode status = bound.get("status") instanceof ObjectNode s ? s : bound.putObject("status");
      ArrayNode conditions = status.get("conditions") instanceof ArrayNode c ? c : status.putArray("conditions");
      for (int i = conditions.size() - 1; i >= 0; i--) {
        if (conditions.get(i).path("type").asText().equals("PodScheduled")) {
          conditions.remove(i);
        }
      }
      ObjectNode scheduled = conditions.addObject();
      scheduled.put("type", "PodScheduled").put("status", "True").putNull("lastProbeTime");
      scheduled.put("lastTransitionTime", store.now());
      store.update(r.type(), r.namespace(), r.name(), bound, "binding", options, Patches.owner(request, "binding"));
      return success();
    });
  }

  ApiResponse evict(ApiRequest request, ResolvedResource r, WriteOptions options) {
    ObjectNode eviction = JsonCodec.readObject(request);
    String named = eviction.path("metadata").path("name").asText("");
    if (!named.isEmpty() && !named.equals(r.name())) {
      throw ApiError.badRequest("name in URL does not match name in Eviction object");
    }
    JsonNode deleteOptions = eviction.get("deleteOptions");
    return store.inTransaction(() -> {
      ObjectNode pod = store.get(r.type(), r.namespace(), r.name());
      if (!canIgnoreBudget(pod)) {
        ResourceType budgets = store.registry().byPath("policy", "v1", "poddisruptionbudgets").orElseThrow();
        List<StoredObject> selecting = store.objectsIn(r.namespace()).stream()
            .filter(o -> o.type().storageKey().equals(budgets.storageKey()))
            .filter(o -> Selection.matches(o.object().path("spec").path("selector"),
                pod.path("metadata").path("labels")))
            .toList();
        if (selecting.size() > 1) {
          throw ApiError.untranslated(500, "This pod has more than one PodDisruptionBudget, which the eviction "
              + "subresource does not support.");
        }
        if (selecting.size() == 1) {
          useDisruption(budgets, selecting.get(0).object(), r.name(), options);
        }
      }
      store.delete(r.type(), r.namespace(), r.name(), DeletePreconditions.from(deleteOptions), options,
          PropagationPolicy.from(deleteOptions, null, null));
      return success();
    });
  }

  private static boolean canIgnoreBudget(ObjectNode pod) {
    String phase = pod.path("status").path("phase").asText("");
    return phase.equals("Pending") || phase.equals("Succeeded") || phase.equals("Failed")
        || pod.path("metadata").hasNonNull("deletionTimestamp");
  }

  private void useDisruption(ResourceType budgets, ObjectNode budget, String pod, WriteOptions options) {
    String name = budget.path("metadata").path("name").asText();
    JsonNode status = budget.path("status");
    if (status.path("observedGeneration").asLong(0) < budget.path("metadata").path("generation").asLong(0)) {
      throw tooManyRequests("The disruption budget " + name + " is still being processed by the server.", 10);
    }
    long allowed = status.path("disruptionsAllowed").asLong(0);
    if (allowed < 0) {
      ObjectNode details = JsonCodec.JSON.createObjectNode();
      details.put("name", name).put("group", "policy").put("kind", "poddisruptionbudget");
      throw ApiError.of(403, "Forbidden", "poddisruptionbudget.policy \"" + name + "\" is forbidden: pdb "
          + "disruptions allowed is negative", details);
    }
    if (allowed == 0) {
      throw tooManyRequests("The disruption budget " + name + " needs " + status.path("desiredHealthy").asLong(0)
          + " healthy pods and has " + status.path("currentHealthy").asLong(0) + " currently", null);
    }
    ObjectNode next = budget.deepCopy();
    ObjectNode nextStatus = (ObjectNode) next.get("status");
    nextStatus.put("disruptionsAllowed", allowed - 1);
    ObjectNode disrupted = nextStatus.get("disruptedPods") instanceof ObjectNode d ? d
        : nextStatus.putObject("disruptedPods");
    disrupted.put(pod, store.now());
    store.update(budgets, budget.path("metadata").path("namespace").asText(), name, next, "status", options,
        FieldOwner.of("kube-apiserver", null, "status"));
  }

  private static ApiError tooManyRequests(String cause, Integer retryAfterSeconds) {
    ObjectNode details = JsonCodec.JSON.createObjectNode();
    details.putArray("causes").addObject().put("reason", "DisruptionBudget").put("message", cause);
    if (retryAfterSeconds != null) {
      details.put("retryAfterSeconds", retryAfterSeconds);
    }
    return ApiError.of(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.",
        details);
  }

  private static ApiResponse success() {
    ObjectNode status = JsonCodec.JSON.createObjectNode();
    status.put("kind", "Status");
    status.put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Success");
    status.put("code", 201);
    return JsonCodec.respond(201, status);
  }
}
