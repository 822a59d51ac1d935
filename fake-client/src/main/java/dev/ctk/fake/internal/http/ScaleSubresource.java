package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.registry.ScalePaths;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.ObjectRules;
import dev.ctk.fake.internal.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The {@code scale} subresource ({@code .../deployments/web/scale}): an {@code autoscaling/v1 Scale} view of the
 * parent object. GET reads it; PUT and PATCH (merge, JSON patch, strategic merge for built-in kinds) change only
 * the parent's desired replica count, as an update of the parent, so its resourceVersion rules, generation bump and
 * watch events are the parent's. A Scale carrying {@code metadata.resourceVersion} is a precondition on the parent
 * (409 Conflict when stale); without one the write is unconditional, for custom resources too.
 *
 * <p>Served for Deployment, ReplicaSet, StatefulSet, ReplicationController and custom resources whose CRD declares
 * {@code subresources.scale}.
 *
 * <p>Limits: no watch on {@code /scale} (404, as for every subresource watch here); strategic merge patch on the
 * scale of a custom resource answers 415 like its main resource; server-side apply is not served (415); a write is
 * recorded in the parent's managedFields as an {@code Update} entry with {@code subresource: scale}; the parent's
 * admission and validation run on the write, but only {@code spec.replicas >= 0} is validated on the Scale itself.
 */
final class ScaleSubresource {

  private final ObjectStore store;

  ScaleSubresource(ObjectStore store) {
    this.store = store;
  }

  ApiResponse handle(ApiRequest request, ResolvedResource r, WriteOptions options) {
    ResourceType type = r.type();
    ScalePaths paths = type.scaleSubresource().orElseThrow(ApiError::unknownResource);
    if (r.name() == null) {
      throw ApiError.unknownResource();
    }
    return switch (request.method()) {
      case "GET" -> JsonCodec.respond(200, scaleOf(type, store.get(type, r.namespace(), r.name())));
      case "PUT" -> {
        ObjectNode sent = JsonCodec.readObject(request);
        yield JsonCodec.respond(200, scaleOf(type, store.patch(type, r.namespace(), r.name(), null,
            current -> applyScale(paths, r.name(), current, sent), options, Patches.owner(request, "scale"))));
      }
      case "PATCH" -> {
        UnaryOperator<ObjectNode> patch = Patches.forRequest(type, request);
        yield JsonCodec.respond(200, scaleOf(type, store.patch(type, r.namespace(), r.name(), null,
            current -> applyScale(paths, r.name(), current, patch.apply(scaleOf(type, current))), options,
            Patches.owner(request, "scale"))));
      }
      default -> throw ApiError.methodNotAllowed("the server does not allow this method on the requested resource");
    };
  }

  /** The parent as kube's Scale: identity from its metadata, replicas and selector from the declared paths. */
  static ObjectNode scaleOf(ResourceType type, ObjectNode parent) {
    ScalePaths paths = type.scaleSubresource().orElseThrow();
    // a ReplicationController's spec.selector is a plain label map, not a LabelSelector
    boolean labelMap = type.group().isEmpty() && type.kind().equals("ReplicationController");
    ObjectNode scale = JsonCodec.JSON.createObjectNode();
    scale.put("kind", "Scale");
    scale.put("apiVersion", "autoscaling/v1");
    ObjectNode meta = scale.putObject("metadata");
    JsonNode parentMeta = parent.path("metadata");
    for (String field : List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
      if (parentMeta.hasNonNull(field)) {
        meta.set(field, parentMeta.get(field));
      }
    }
    ObjectNode spec = scale.putObject("spec");
    long specReplicas = at(parent, paths.specReplicasPath()).asLong(0);
    if (specReplicas != 0) {
      spec.put("replicas", specReplicas);
    }
    ObjectNode status = scale.putObject("status");
    status.put("replicas", at(parent, paths.statusReplicasPath()).asLong(0));
    if (paths.labelSelectorPath() != null) {
      String selector = selectorText(at(parent, paths.labelSelectorPath()), labelMap);
      if (!selector.isEmpty()) {
        status.put("selector", selector);
      }
    }
    return scale;
  }

  /** Turns the parent ({@code current}, a private copy) into what the Scale {@code sent} asks for. */
  private static ObjectNode applyScale(ScalePaths paths, String name, ObjectNode current, ObjectNode sent) {
    ObjectRules.checkName(name, sent.path("metadata").path("name").asText(""));
    JsonNode replicas = sent.path("spec").path("replicas");
    if (!replicas.isMissingNode() && !replicas.isNull() && !replicas.canConvertToInt()) {
      throw ApiError.badRequest("Scale in version \"v1\" cannot be handled as a Scale: spec.replicas: expected an "
          + "int32, got " + replicas);
    }
    long count = replicas.asLong(0);
    if (count < 0) {
      throw ApiError.invalid("autoscaling", "Scale", name, "spec.replicas", "FieldValueInvalid",
          "Invalid value: " + count + ": must be greater than or equal to 0");
    }
    String resourceVersion = sent.path("metadata").path("resourceVersion").asText("");
    if (!resourceVersion.isEmpty()) {
      ((ObjectNode) current.get("metadata")).put("resourceVersion", resourceVersion);
    }
    put(current, paths.specReplicasPath(), (int) count);
    return current;
  }

  /** The node at a dotted path such as {@code .spec.replicas}; a missing node when any step is absent. */
  private static JsonNode at(JsonNode object, String path) {
    JsonNode node = object;
    for (String step : steps(path)) {
      node = node.path(step);
    }
    return node;
  }

  private static void put(ObjectNode object, String path, int value) {
    List<String> steps = steps(path);
    ObjectNode node = object;
    for (String step : steps.subList(0, steps.size() - 1)) {
      JsonNode next = node.get(step);
      node = next instanceof ObjectNode child ? child : node.putObject(step);
    }
    node.put(steps.get(steps.size() - 1), value);
  }

  private static List<String> steps(String path) {
    String trimmed = path.startsWith(".") ? path.substring(1) : path;
    return List.of(trimmed.split("\\."));
  }

  /**
   * kube's string form of a selector: a string is used as it is (custom resources); a LabelSelector object becomes
   * {@code key=value}, {@code key in (a,b)}, {@code key notin (a,b)}, {@code key}, {@code !key} terms sorted by key;
   * a plain label map ({@code labelMap}) becomes {@code key=value} terms sorted by key.
   */
  static String selectorText(JsonNode selector, boolean labelMap) {
    if (selector.isTextual()) {
      return selector.asText();
    }
    List<String[]> terms = new ArrayList<>();
    (labelMap ? selector : selector.path("matchLabels")).fields().forEachRemaining(e -> terms.add(
        new String[] {e.getKey(), e.getKey() + "=" + e.getValue().asText()}));
    for (JsonNode expression : selector.path("matchExpressions")) {
      String key = expression.path("key").asText();
      TreeSet<String> values = new TreeSet<>();
      expression.path("values").forEach(v -> values.add(v.asText()));
      String term = switch (expression.path("operator").asText()) {
        case "In" -> key + " in (" + String.join(",", values) + ")";
        case "NotIn" -> key + " notin (" + String.join(",", values) + ")";
        case "Exists" -> key;
        case "DoesNotExist" -> "!" + key;
        default -> null;
      };
      if (term != null) {
        terms.add(new String[] {key, term});
      }
    }
    terms.sort((a, b) -> a[0].compareTo(b[0]));
    List<String> out = new ArrayList<>();
    terms.forEach(t -> out.add(t[1]));
    return String.join(",", out);
  }
}
