package dev.ctk.fake.internal.gc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.store.ObjectRules;
import dev.ctk.fake.internal.store.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The status conditions kube's namespace controller keeps on a Terminating namespace, with its types, reasons and
 * messages: five of them, each {@code False} with its "all is well" reason unless it reports a problem. The fake can
 * fail neither discovery nor group-version parsing, so those two are always {@code False}; content it could not
 * delete (a delete an admission hook refused), content that remains, and the finalizers holding it are reported as
 * kube reports them.
 */
final class NamespaceConditions {

  /** One condition: its type, and its value when nothing is wrong. */
  private record Kind(String type, String okReason, String okMessage) {
  }

  private static final Kind DISCOVERY = new Kind("NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered",
      "All resources successfully discovered");
  private static final Kind PARSING = new Kind("NamespaceDeletionGroupVersionParsingFailure", "ParsedGroupVersions",
      "All legacy kube types successfully parsed");
  private static final Kind CONTENT_FAILURE = new Kind("NamespaceDeletionContentFailure", "ContentDeleted",
      "All content successfully deleted, may be waiting on finalization");
  private static final Kind CONTENT_REMAINING = new Kind("NamespaceContentRemaining", "ContentRemoved",
      "All content successfully removed");
  private static final Kind FINALIZERS_REMAINING = new Kind("NamespaceFinalizersRemaining", "ContentHasNoFinalizers",
      "All content-preserving finalizers finished");
  private static final List<Kind> ORDER =
      List.of(DISCOVERY, PARSING, CONTENT_FAILURE, CONTENT_REMAINING, FINALIZERS_REMAINING);

  private NamespaceConditions() {
  }

  /**
   * The namespace's conditions after a pass of the namespace controller, as kube's {@code updateConditions} merges
   * them: a condition of each type is added when missing; an existing one takes the new status, reason and message,
   * and a new {@code lastTransitionTime} only when its status changes; conditions of other types stay.
   *
   * @param current {@code status.conditions} as stored (missing or an array)
   * @param remaining the namespace's objects left after the pass
   * @param refusals the messages of deletes the API server refused in the pass
   * @param now the time to stamp
   * @return the new conditions, or empty when they would not change
   */
  static Optional<ArrayNode> after(JsonNode current, List<StoredObject> remaining, List<String> refusals,
      String now) {
    ArrayNode next = current instanceof ArrayNode array ? array.deepCopy() : JsonNodeFactory.instance.arrayNode();
    boolean changed = false;
    for (Kind kind : ORDER) {
      ObjectNode wanted = problem(kind, remaining, refusals, now).orElseGet(() -> ok(kind, now));
      ObjectNode old = find(next, kind.type());
      if (old == null) {
        next.add(wanted);
        changed = true;
      } else if (!same(old, wanted, "status") || !same(old, wanted, "reason") || !same(old, wanted, "message")) {
        if (!same(old, wanted, "status")) {
          old.put("lastTransitionTime", now);
        }
        old.put("status", wanted.path("status").asText());
        old.put("reason", wanted.path("reason").asText());
        old.put("message", wanted.path("message").asText());
        changed = true;
      }
    }
    return changed ? Optional.of(next) : Optional.empty();
  }

  private static Optional<ObjectNode> problem(Kind kind, List<StoredObject> remaining, List<String> refusals,
      String now) {
    if (kind == CONTENT_FAILURE && !refusals.isEmpty()) {
      List<String> sorted = new ArrayList<>(refusals);
      sorted.sort(null);
      return Optional.of(condition(kind.type(), "True", now, "ContentDeletionFailed", "Failed to delete all "
          + "resource types, " + refusals.size() + " remaining: " + String.join(", ", sorted)));
    }
    if (kind == CONTENT_REMAINING && !remaining.isEmpty()) {
      Map<String, Integer> byResource = new TreeMap<>();
      remaining.forEach(o -> byResource.merge(o.type().plural() + "." + o.type().group(), 1, Integer::sum));
      return Optional.of(condition(kind.type(), "True", now, "SomeResourcesRemain", "Some resources are "
          + "remaining: " + counted(byResource, " has ")));
    }
    if (kind == FINALIZERS_REMAINING) {
      Map<String, Integer> byFinalizer = new TreeMap<>();
      remaining.forEach(o -> ObjectRules.finalizers(o.object()).forEach(f -> byFinalizer.merge(f, 1, Integer::sum)));
      if (!byFinalizer.isEmpty()) {
        return Optional.of(condition(kind.type(), "True", now, "SomeFinalizersRemain", "Some content in the "
            + "namespace has finalizers remaining: " + counted(byFinalizer, " in ")));
      }
    }
    return Optional.empty();
  }

  /** {@code a has 2 resource instances, b has 1 resource instances}, sorted as kube sorts the whole entries. */
  private static String counted(Map<String, Integer> counts, String joiner) {
    List<String> entries = new ArrayList<>();
    counts.forEach((name, count) -> entries.add(name + joiner + count + " resource instances"));
    entries.sort(null);
    return String.join(", ", entries);
  }

  private static ObjectNode ok(Kind kind, String now) {
    return condition(kind.type(), "False", now, kind.okReason(), kind.okMessage());
  }

  private static ObjectNode condition(String type, String status, String now, String reason, String message) {
    ObjectNode condition = JsonNodeFactory.instance.objectNode();
    condition.put("type", type).put("status", status).put("lastTransitionTime", now).put("reason", reason)
        .put("message", message);
    return condition;
  }

  private static ObjectNode find(ArrayNode conditions, String type) {
    for (JsonNode condition : conditions) {
      if (condition instanceof ObjectNode object && type.equals(condition.path("type").asText())) {
        return object;
      }
    }
    return null;
  }

  private static boolean same(JsonNode a, JsonNode b, String field) {
    return a.path(field).asText("").equals(b.path(field).asText(""));
  }
}
