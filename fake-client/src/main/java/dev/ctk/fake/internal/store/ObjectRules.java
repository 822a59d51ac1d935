package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.SemanticEquality;
import dev.ctk.fake.internal.registry.GenerationPolicy;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.version.KubeMinor;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The metadata rules kube-apiserver's generic registry applies on create, update and delete: server-set fields
 * ({@code uid}, {@code creationTimestamp}, {@code generation}), {@code generateName}, what an update may change,
 * the status subresource split, and finalizer-aware deletion.
 *
 * <p>Pure functions over private copies; the {@link ObjectStore} calls them under its lock. No defaulting and no
 * validation beyond the checks named in each method: those are the separate admission step
 * ({@link dev.ctk.fake.internal.admission.Admission}).
 */
public final class ObjectRules {

  private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ISO_INSTANT;

  /**
   * The subresources that write single fields of the object ({@code parent, field}), everything else kept as
   * stored: {@code pods/binding} (node name and conditions, set by the binding handler),
   * {@code namespaces/finalize}, {@code pods/ephemeralcontainers}.
   */
  private static final java.util.Map<String, List<String[]>> FIELD_SUBRESOURCES = java.util.Map.of(
      "binding", List.of(new String[] {"spec", "nodeName"}, new String[] {"status", "conditions"}),
      "finalize", List.<String[]>of(new String[] {"spec", "finalizers"}),
      "ephemeralcontainers", List.<String[]>of(new String[] {"spec", "ephemeralContainers"}));
  private static final int GENERATE_NAME_ATTEMPTS = 8;

  private final NameGenerator names;
  private final Clock clock;
  private volatile Stamp lastStamp;

  /**
   * Creates the rules.
   *
   * @param names source of generated names and uids
   * @param clock source of timestamps
   */
  public ObjectRules(NameGenerator names, Clock clock) {
    this.names = names;
    this.clock = clock;
  }

  /** Now, as kube writes timestamps: RFC 3339 in UTC with whole seconds. */
  public String now() {
    long second = clock.instant().getEpochSecond();
    Stamp last = lastStamp;
    if (last == null || last.second() != second) {
      last = new Stamp(second, RFC3339.format(Instant.ofEpochSecond(second)));
      lastStamp = last;
    }
    return last.text();
  }

  /** A second and its RFC 3339 text: the writes of one second format it once. */
  private record Stamp(long second, String text) {
  }

  /**
   * Prepares a create. {@code body} is a private copy and is modified in place.
   *
   * @param type the resource
   * @param urlNamespace the namespace in the URL ({@code null} for cluster-scoped resources)
   * @param body the object sent
   * @param keepStatus whether {@code status} is stored as sent (seeding) rather than dropped (API create on a kind
   *     with a status subresource)
   * @param taken whether a name is already used in that namespace (for generateName)
   */
  public void prepareForCreate(ResourceType type, String urlNamespace, ObjectNode body, boolean keepStatus,
      Predicate<String> taken) {
    checkKind(type, body);
    ObjectNode metadata = metadata(body);
    if (type.namespaced()) {
      String bodyNamespace = metadata.path("namespace").asText("");
      if (!bodyNamespace.isEmpty() && !bodyNamespace.equals(urlNamespace)) {
        throw ApiError.badRequest("the namespace of the provided object does not match the namespace sent on the "
            + "request");
      }
      metadata.put("namespace", urlNamespace);
    } else {
      metadata.remove("namespace");
    }
    String name = metadata.path("name").asText("");
    String generateName = metadata.path("generateName").asText("");
    if (name.isEmpty()) {
      if (generateName.isEmpty()) {
        throw ApiError.invalid(type.group(), type.kind(), "", "metadata.name", "FieldValueRequired",
            "Required value: name or generateName is required");
      }
      name = names.generate(generateName);
      for (int i = 1; i < GENERATE_NAME_ATTEMPTS && taken.test(name); i++) {
        name = names.generate(generateName);
      }
      metadata.put("name", name);
    }
    if (!metadata.path("resourceVersion").asText("").isEmpty()) {
      throw ApiError.untranslated(500, "resourceVersion should not be set on objects to be created");
    }
    metadata.remove("resourceVersion");
    metadata.remove("selfLink");
    metadata.remove("deletionTimestamp");
    metadata.remove("deletionGracePeriodSeconds");
    metadata.remove("managedFields");
    metadata.put("uid", names.uid());
    metadata.put("creationTimestamp", now());
    if (type.generationPolicy() == GenerationPolicy.NONE) {
      metadata.remove("generation");
    } else {
      metadata.put("generation", 1L);
    }
    if (type.hasStatusSubresource() && !keepStatus) {
      body.remove("status");
    }
    if (isNamespace(type)) {
      if (!body.has("status")) {
        body.putObject("status").put("phase", "Active");
      }
      requireKubernetesFinalizer(body);
      labelNamespace(body);
    }
  }

  /**
   * kube's namespace strategy makes every new Namespace carry {@code spec.finalizers: [kubernetes]} (appended to the
   * ones sent), which the namespace controller removes once a deleted namespace is empty.
   */
  private static void requireKubernetesFinalizer(ObjectNode namespace) {
    ObjectNode spec = namespace.get("spec") instanceof ObjectNode s ? s : namespace.putObject("spec");
    ArrayNode finalizers = spec.get("finalizers") instanceof ArrayNode f ? f : spec.putArray("finalizers");
    for (JsonNode finalizer : finalizers) {
      if (NamespaceLifecycle.KUBERNETES_FINALIZER.equals(finalizer.asText())) {
        return;
      }
    }
    finalizers.add(NamespaceLifecycle.KUBERNETES_FINALIZER);
  }

  private static boolean isNamespace(ResourceType type) {
    return type.kind().equals("Namespace") && type.group().isEmpty();
  }

  /** kube-apiserver's namespace strategy always sets {@code kubernetes.io/metadata.name} to the name. */
  private static void labelNamespace(ObjectNode namespace) {
    ObjectNode meta = metadata(namespace);
    JsonNode labels = meta.get("labels");
    ObjectNode labelMap = labels instanceof ObjectNode l ? l : meta.putObject("labels");
    labelMap.put("kubernetes.io/metadata.name", meta.path("name").asText());
  }

  /**
   * Checks an update's uid precondition: a PUT whose {@code metadata.uid} is set must name the stored object's uid,
   * as kube-apiserver makes it a storage precondition, checked before the resourceVersion.
   *
   * @throws ApiError 409 Conflict with kube's storage error text (the object's etcd key, both uids)
   */
  public void checkUid(ResourceType type, ObjectNode current, ObjectNode body) {
    String sent = body.path("metadata").path("uid").asText("");
    String stored = current.path("metadata").path("uid").asText("");
    if (sent.isEmpty() || sent.equals(stored)) {
      return;
    }
    String name = current.path("metadata").path("name").asText();
    String key = EtcdKeys.of(type, current.path("metadata").path("namespace").asText(""), name);
    throw ApiError.conflict(type, name, "StorageError: invalid object, Code: 4, Key: " + key + ", ResourceVersion: 0, "
        + "AdditionalErrorMsg: Precondition failed: UID in precondition: " + sent + ", UID in object meta: " + stored);
  }

  /**
   * Refuses an update whose body (a PUT's, or a patch's result) has no name, or another name than the URL's, as
   * kube's {@code checkName} does before any precondition is checked.
   *
   * @throws ApiError 400 {@code the name of the object (<name> based on URL) was undeterminable: name must be
   *     provided}, or {@code the name of the object (<sent>) does not match the name on the URL (<name>)}
   */
  public void checkNamed(ObjectNode current, ObjectNode body) {
    checkName(current.path("metadata").path("name").asText(), body.path("metadata").path("name").asText(""));
  }

  /**
   * kube's {@code checkName} on a name sent for the object at {@code name}.
   *
   * @param name the name in the URL
   * @param sent the body's {@code metadata.name}, {@code ""} when it has none
   * @throws ApiError 400 when {@code sent} is empty or another name
   */
  public static void checkName(String name, String sent) {
    if (sent.isEmpty()) {
      throw ApiError.badRequest("the name of the object (" + name + " based on URL) was undeterminable: name must "
          + "be provided");
    }
    if (!sent.equals(name)) {
      throw ApiError.badRequest("the name of the object (" + sent + ") does not match the name on the URL (" + name
          + ")");
    }
  }

  /**
   * Checks an update's resourceVersion precondition.
   *
   * @throws ApiError 409 Conflict on a stale resourceVersion; 422 when the kind requires one and none was sent
   */
  public void checkResourceVersion(ResourceType type, ObjectNode current, ObjectNode body) {
    String sent = body.path("metadata").path("resourceVersion").asText("");
    String name = current.path("metadata").path("name").asText();
    if (sent.isEmpty()) {
      if (!type.allowsUnconditionalUpdate()) {
        // the value is a uint64 zero: %#v (0x0) up to 1.33, JSON (0) from 1.34
        ApiError later = ApiError.invalid(type.group(), type.plural(), name, "metadata.resourceVersion",
            "FieldValueInvalid", "Invalid value: 0: must be specified for an update");
        throw ApiError.invalid(type.group(), type.plural(), name, "metadata.resourceVersion", "FieldValueInvalid",
            "Invalid value: 0x0: must be specified for an update").wordedFrom(KubeMinor.FIELD_VALUES_AS_JSON, later);
      }
      return;
    }
    if (!sent.equals(current.path("metadata").path("resourceVersion").asText())) {
      throw ApiError.conflict(type, name, ApiError.OPTIMISTIC_LOCK_MESSAGE);
    }
  }

  /**
   * The object an update (PUT, or the result of a PATCH) would store, before resourceVersion is assigned.
   *
   * @param type the resource
   * @param current the stored object (not modified)
   * @param body the object sent (a private copy, may be modified)
   * @param subresource {@code "status"} or {@code null}
   * @param keepStatus whether a main-resource write may change status (seeding); a seeding write also keeps the
   *     stored uid whatever the body says, where an API write keeps the body's for validation to refuse
   * @return the new object; its {@code metadata.resourceVersion} is still the current one
   */
  public ObjectNode prepareForUpdate(ResourceType type, ObjectNode current, ObjectNode body, String subresource,
      boolean keepStatus) {
    checkKind(type, body);
    ObjectNode currentMeta = (ObjectNode) current.get("metadata");
    String name = currentMeta.path("name").asText();
    String bodyName = body.path("metadata").path("name").asText("");
    if (!bodyName.isEmpty()) {
      checkName(name, bodyName);   // a seeding write may leave the name out
    }
    String bodyNamespace = body.path("metadata").path("namespace").asText("");
    if (type.namespaced() && !bodyNamespace.isEmpty()
        && !bodyNamespace.equals(currentMeta.path("namespace").asText())) {
      throw ApiError.badRequest("the namespace of the provided object does not match the namespace sent on the "
          + "request");
    }
    ObjectNode next;
    if ("status".equals(subresource)) {
      // only status of what was sent, as a custom resource's status strategy keeps it; a built-in kind's strategy
      // in kube also saves most metadata sent to /status (docs/limitations.md)
      next = current.deepCopy();
      JsonNode status = body.get("status");
      if (status == null || status.isNull()) {
        next.remove("status");
      } else {
        next.set("status", status.deepCopy());
      }
    } else if ("resize".equals(subresource)) {
      next = current.deepCopy();
      PodResize.apply(body, next);
    } else if (subresource != null && FIELD_SUBRESOURCES.containsKey(subresource)) {
      next = current.deepCopy();
      for (String[] field : FIELD_SUBRESOURCES.get(subresource)) {
        JsonNode value = body.path(field[0]).get(field[1]);
        ObjectNode parent = next.get(field[0]) instanceof ObjectNode p ? p : next.putObject(field[0]);
        if (value == null || value.isNull()) {
          parent.remove(field[1]);
        } else {
          parent.set(field[1], value.deepCopy());
        }
      }
    } else {
      next = body;
      ObjectNode meta = metadata(next);
      for (String field : List.of("name", "namespace", "uid", "creationTimestamp", "deletionTimestamp",
          "deletionGracePeriodSeconds", "generation", "resourceVersion", "managedFields", "selfLink")) {
        if (field.equals("uid") && !keepStatus && !meta.path("uid").asText("").isEmpty()) {
          // as kube: only a missing uid is filled in from the stored object; a different one is refused by
          // validation (a PUT's was refused already as a precondition)
          continue;
        }
        if (currentMeta.has(field)) {
          meta.set(field, currentMeta.get(field).deepCopy());
        } else {
          meta.remove(field);
        }
      }
      if (type.hasStatusSubresource() && !keepStatus) {
        if (current.has("status")) {
          next.set("status", current.get("status").deepCopy());
        } else {
          next.remove("status");
        }
      }
      next.put("apiVersion", current.path("apiVersion").asText());
      next.put("kind", type.kind());
    }
    if (isNamespace(type)) {
      labelNamespace(next);
    }
    checkNoNewFinalizersWhileDeleting(type, current, next);
    if (type.generationPolicy() != GenerationPolicy.NONE && generationRelevantChange(type, current, next)) {
      metadata(next).put("generation", currentMeta.path("generation").asLong(0) + 1);
    }
    return next;
  }

  /** Whether an object being deleted has no finalizers left (the store then removes it). */
  public static boolean readyToRemove(JsonNode object) {
    JsonNode meta = object.path("metadata");
    return meta.hasNonNull("deletionTimestamp") && finalizers(object).isEmpty();
  }

  /**
   * The object a delete leaves behind when finalizers keep it: {@code deletionTimestamp} now,
   * {@code deletionGracePeriodSeconds} 0 and, for kinds that track it, generation + 1.
   */
  public ObjectNode markDeleting(ObjectNode current) {
    ObjectNode next = current.deepCopy();
    ObjectNode meta = metadata(next);
    meta.put("deletionTimestamp", now());
    meta.put("deletionGracePeriodSeconds", 0L);
    if (meta.path("generation").asLong(0) > 0) {
      meta.put("generation", meta.get("generation").asLong() + 1);
    }
    return next;
  }

  /**
   * Drops owner references equal to an earlier one, as kube's handlers do on every create, update and patch after
   * mutating admission, and on a create before it too ({@code dedupOwnerReferences}); kube also answers a
   * {@code Warning} header naming the duplicate UIDs, which the fake does not send (and an update's mutating hooks
   * see the duplicates in the fake, where kube drops them first).
   *
   * @param object the object to store (modified)
   */
  public static void dedupOwnerReferences(ObjectNode object) {
    if (!(object.path("metadata").get("ownerReferences") instanceof ArrayNode refs) || refs.size() < 2) {
      return;
    }
    List<JsonNode> kept = new ArrayList<>();
    for (JsonNode ref : refs) {
      if (!kept.contains(ref)) {   // a whole entry equal to one kept before; same-UID entries that differ stay
        kept.add(ref);
      }
    }
    if (kept.size() < refs.size()) {
      refs.removeAll();
      refs.addAll(kept);
    }
  }

  /** {@code metadata.finalizers}, in order. */
  public static List<String> finalizers(JsonNode object) {
    List<String> out = new ArrayList<>();
    object.path("metadata").path("finalizers").forEach(f -> out.add(f.asText()));
    return out;
  }

  private void checkNoNewFinalizersWhileDeleting(ResourceType type, ObjectNode current, ObjectNode next) {
    if (!current.path("metadata").hasNonNull("deletionTimestamp")) {
      return;
    }
    Set<String> before = new HashSet<>(finalizers(current));
    List<String> added = new ArrayList<>();
    for (String f : finalizers(next)) {
      if (!before.contains(f)) {
        added.add(f);
      }
    }
    if (!added.isEmpty()) {
      StringBuilder list = new StringBuilder("[]string{");
      for (int i = 0; i < added.size(); i++) {
        list.append(i == 0 ? "" : ", ").append('"').append(added.get(i)).append('"');
      }
      list.append('}');
      throw ApiError.invalid(type.group(), type.kind(), current.path("metadata").path("name").asText(),
          "metadata.finalizers", "FieldValueForbidden",
          "Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers " + list);
    }
  }

  private static boolean generationRelevantChange(ResourceType type, ObjectNode before, ObjectNode after) {
    if (!SemanticEquality.equal(withoutMetadataAndStatus(type, before), withoutMetadataAndStatus(type, after))) {
      return true;
    }
    return type.generationPolicy() == GenerationPolicy.TRACKED_WITH_ANNOTATIONS
        && !SemanticEquality.equal(before.path("metadata").path("annotations"),
            after.path("metadata").path("annotations"));
  }

  private static ObjectNode withoutMetadataAndStatus(ResourceType type, ObjectNode object) {
    ObjectNode copy = object.deepCopy();
    copy.remove("metadata");
    copy.remove("apiVersion");
    copy.remove("kind");
    if (type.hasStatusSubresource()) {
      copy.remove("status");
    }
    return copy;
  }

  private static void checkKind(ResourceType type, ObjectNode body) {
    String kind = body.path("kind").asText("");
    String apiVersion = body.path("apiVersion").asText("");
    if (!kind.isEmpty() && !kind.equals(type.kind())) {
      throw ApiError.badRequest(kind + " in version \"" + versionOf(apiVersion) + "\" cannot be handled as a "
          + type.kind() + ": the kind in the body does not match the resource in the URL ("
          + type.qualifiedResource() + ")");
    }
    if (!apiVersion.isEmpty() && !groupOf(apiVersion).equals(type.group())) {
      throw ApiError.badRequest("the API version in the data (" + apiVersion
          + ") does not match the expected API version (" + type.apiVersion() + ")");
    }
    body.put("apiVersion", type.apiVersion());
    body.put("kind", type.kind());
  }

  private static String groupOf(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  private static String versionOf(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
  }

  private static ObjectNode metadata(ObjectNode object) {
    JsonNode meta = object.get("metadata");
    if (meta instanceof ObjectNode m) {
      return m;
    }
    return object.putObject("metadata");
  }
}
