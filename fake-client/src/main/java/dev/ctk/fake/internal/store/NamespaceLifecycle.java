package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;

/**
 * What kube-apiserver itself (not the controller-manager) does about namespaces being deleted: the Namespace is
 * marked Terminating and held by {@code spec.finalizers: [kubernetes]}, and the NamespaceLifecycle admission plugin
 * refuses new content in it with 403 Forbidden.
 */
public final class NamespaceLifecycle {

  /** The spec finalizer the namespace controller removes once the namespace is empty. */
  public static final String KUBERNETES_FINALIZER = "kubernetes";

  private NamespaceLifecycle() {}

  /** The namespaces kube's NamespaceLifecycle admission plugin never lets go. */
  private static final java.util.Set<String> IMMORTAL = java.util.Set.of("default", "kube-system", "kube-public");

  /**
   * Refuses the deletion of {@code default}, {@code kube-system} and {@code kube-public}, as kube's NamespaceLifecycle
   * admission plugin does (before any webhook).
   *
   * @param name the Namespace's name
   * @throws ApiError 403 Forbidden, kube's text, for those three
   */
  public static void checkMayBeDeleted(String name) {
    if (IMMORTAL.contains(name)) {
      ObjectNode details = JsonNodeFactory.instance.objectNode().put("name", name).put("kind", "namespaces");
      throw ApiError.of(403, "Forbidden", "namespaces \"" + name + "\" is forbidden: this namespace may not be deleted",
          details);
    }
  }

  /** Whether the type is the core Namespace kind. */
  public static boolean isNamespace(ResourceType type) {
    return type.group().isEmpty() && type.kind().equals("Namespace");
  }

  /** Whether a stored object is a Namespace (by apiVersion and kind). */
  public static boolean isNamespace(JsonNode object) {
    return "v1".equals(object.path("apiVersion").asText()) && "Namespace".equals(object.path("kind").asText());
  }

  /** Whether an object being deleted may leave the store: no finalizer left (for a Namespace, in spec too). */
  public static boolean readyToRemove(JsonNode object) {
    return ObjectRules.readyToRemove(object)
        && (!isNamespace(object) || object.path("spec").path("finalizers").isEmpty());
  }

  /** The Namespace as a delete leaves it: deletionTimestamp, phase Terminating, spec finalizer kubernetes. */
  public static ObjectNode markTerminating(ObjectRules rules, ObjectNode namespace) {
    ObjectNode marked = rules.markDeleting(namespace);
    // kube's namespace storage sets only deletionTimestamp (and the phase), no grace period
    ((ObjectNode) marked.get("metadata")).remove("deletionGracePeriodSeconds");
    ObjectNode spec = marked.path("spec") instanceof ObjectNode s ? s : marked.putObject("spec");
    ArrayNode finalizers = spec.path("finalizers") instanceof ArrayNode f ? f : spec.putArray("finalizers");
    boolean present = false;
    for (JsonNode f : finalizers) {
      present |= KUBERNETES_FINALIZER.equals(f.asText());
    }
    if (!present) {
      finalizers.add(KUBERNETES_FINALIZER);
    }
    ObjectNode status = marked.path("status") instanceof ObjectNode s ? s : marked.putObject("status");
    status.put("phase", "Terminating");
    return marked;
  }

  /**
   * Refuses a create in a namespace being deleted, as kube's NamespaceLifecycle admission plugin does.
   *
   * @param namespaceObject the stored Namespace
   * @param body the object being created; when it has no name yet but a generateName, kube names the object by its
   *     generateName in the message and details (as kube-apiserver 1.32 does)
   * @throws ApiError 403 Forbidden when the namespace has a deletionTimestamp
   */
  public static void checkAcceptsContent(ResourceType type, ObjectNode namespaceObject, ObjectNode body) {
    if (!namespaceObject.path("metadata").hasNonNull("deletionTimestamp")) {
      return;
    }
    String namespace = namespaceObject.path("metadata").path("name").asText();
    String name = body.path("metadata").path("name").asText("");
    if (name.isEmpty()) {
      name = body.path("metadata").path("generateName").asText("");
    }
    String resource = type.group().isEmpty() ? type.plural() : type.plural() + "." + type.group();
    String message = (name.isEmpty() ? resource : resource + " \"" + name + "\"") + " is forbidden: unable to "
        + "create new content in namespace " + namespace + " because it is being terminated";
    ObjectNode details = JsonNodeFactory.instance.objectNode();
    if (!name.isEmpty()) {
      details.put("name", name);
    }
    if (!type.group().isEmpty()) {
      details.put("group", type.group());
    }
    details.put("kind", type.plural());
    details.putArray("causes").addObject().put("reason", "NamespaceTerminating")
        .put("message", "namespace " + namespace + " is being terminated").put("field", "metadata.namespace");
    throw ApiError.of(403, "Forbidden", message, details);
  }
}
