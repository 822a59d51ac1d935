package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.apply.ManagedFields.EntryKey;
import dev.ctk.fake.internal.common.SemanticEquality;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.version.KubeMinor;

/**
 * Keeps {@code metadata.managedFields} on every write and computes server-side applies: the one entry point the
 * store calls, under its lock.
 *
 * <ul>
 *   <li>{@link #onCreate} and {@link #onUpdate} record an {@code Update} entry for the writer of a create, update
 *       or patch (main resource, {@code status} or {@code scale});
 *   <li>{@link #apply} merges an applied configuration into the live object and returns the object to write with
 *       its {@code Apply} entry;
 *   <li>{@link #keepTimesWhenUnchanged} undoes new timestamps when a write changes nothing else, so a no-op
 *       apply or update keeps the resourceVersion, as kube does.
 * </ul>
 *
 * <pre>{@code
 * tracking.onUpdate(type, current, next, sentManagedFields, owner, subresource, options.seeding(), crd, now);
 * }</pre>
 */
public final class FieldTracking {

  private final KubeMinor kubeMinor;

  /**
   * Creates the tracker (stateless).
   *
   * @param kubeMinor the minor emulated (a custom resource's {@code /status} resets its metadata from 1.36 on)
   */
  public FieldTracking(KubeMinor kubeMinor) {
    this.kubeMinor = kubeMinor;
  }

  /**
   * Stamps the managedFields of an object about to be created (after the metadata rules, before completion and
   * validation, as kube records the request before its registry fills in allocated fields).
   *
   * @param object the object to create (modified)
   * @param sentManagedFields {@code metadata.managedFields} as the request carried it, or {@code null}
   * @param seeding a test seeds the object: managedFields it carries are kept as given, none are added
   * @param crd the CustomResourceDefinition of a custom resource, else {@code null}
   * @param now the time of the write (RFC 3339)
   */
  public void onCreate(ResourceType type, ObjectNode object, JsonNode sentManagedFields, FieldOwner owner,
      boolean seeding, JsonNode crd, String now) {
    ObjectNode meta = metadata(object);
    if (seeding) {
      meta.remove("managedFields");
      if (sentManagedFields != null && sentManagedFields.isArray() && !sentManagedFields.isEmpty()
          && decodable(sentManagedFields)) {
        meta.set("managedFields", sentManagedFields.deepCopy());
      }
      return;
    }
    ManagedFields managers = decodeOrEmpty(sentManagedFields);
    Ownership ownership = ownership(type, crd, owner.subresource());
    // comparisons leave managedFields out: the object is compared as it is, not a copy without them
    managers = ownership.update(ZeroObjects.readOnly(type), object, managers,
        updater(type, owner), true, now);
    write(meta, managers);
  }

  /**
   * Stamps the managedFields of an object about to replace {@code current} (after the metadata rules, before
   * completion and validation).
   *
   * @param next the object to store (modified)
   * @param sentManagedFields {@code metadata.managedFields} as the request carried it, or {@code null}; a
   *     main-resource update that sends them sets them (an empty list resets them), as in kube
   * @param subresource the subresource written ({@code status}), or {@code null}
   */
  public void onUpdate(ResourceType type, ObjectNode current, ObjectNode next, JsonNode sentManagedFields,
      FieldOwner owner, String subresource, boolean seeding, JsonNode crd, String now) {
    ObjectNode meta = metadata(next);
    JsonNode live = current.path("metadata").get("managedFields");
    boolean viaSubresource = subresource != null || owner.subresource() != null;
    if (seeding && sentManagedFields != null && !sentManagedFields.isNull() && decodable(sentManagedFields)) {
      if (sentManagedFields.isEmpty()) {
        meta.remove("managedFields");
      } else {
        meta.set("managedFields", sentManagedFields.deepCopy());
      }
      return;
    }
    ManagedFields managers = null;
    if (!viaSubresource && isReset(sentManagedFields)) {
      managers = new ManagedFields();
    } else if (!viaSubresource) {
      ManagedFields sent = decodeOrEmpty(sentManagedFields);
      if (!sent.isEmpty()) {
        managers = sent;
      }
    }
    if (managers == null) {   // the stored ones are decoded only when the request's do not replace them
      managers = decodeOrEmpty(live);
    }
    String entrySubresource = owner.subresource() != null ? owner.subresource() : subresource;
    Ownership ownership = ownership(type, crd, entrySubresource);
    managers = ownership.update(current, next, managers,
        updater(type, owner), false, now);
    write(meta, managers);
  }

  /**
   * Computes a server-side apply.
   *
   * @param current the live object, or {@code null} when the apply creates it
   * @param namespace the namespace of the URL ({@code null} for cluster-scoped resources)
   * @param name the name of the URL
   * @param subresource {@code status} or {@code null}
   * @return the object to write and the managedFields to stamp on it
   * @throws ApiError 400 for a configuration of another kind or version, with managedFields, or naming another
   *     object; 409 Conflict with kube's field manager conflicts; 500 for lists kube cannot merge
   */
  public AppliedObject apply(ResourceType type, ObjectNode current, ApplyRequest request, String namespace,
      String name, String subresource, JsonNode crd, String now) {
    ObjectNode config = request.config();
    checkKind(type, config);
    JsonNode sentManaged = config.path("metadata").get("managedFields");
    if (sentManaged != null && !sentManaged.isNull()) {
      throw ApiError.badRequest("metadata.managedFields must be nil");
    }
    FieldType fieldType = fieldType(type, crd);
    IgnoredFields ignored = IgnoredFields.of(type.custom(), type.hasStatusSubresource(), subresource, kubeMinor);
    Ownership ownership = new Ownership(fieldType, ignored, type.apiVersion());
    EntryKey applier = EntryKey.applier(request.manager(), subresource);
    ObjectNode live;
    ManagedFields managers;
    if (current == null) {
      live = config.objectNode();
      live.put("apiVersion", type.apiVersion());
      live.put("kind", type.kind());
      managers = new ManagedFields();
    } else {
      live = ManagedFields.withoutThem(current);
      managers = decodeOrEmpty(current.path("metadata").get("managedFields"));
    }
    ObjectNode zero = ZeroObjects.readOnly(type);
    Ownership.Applied applied;
    try {
      applied = applyAllowingClientSideFields(ownership, fieldType, type, live, current, config, managers, applier,
          request.force(), now, zero);
    } catch (ApplyConflicts conflicts) {
      throw conflicts.toApiError();
    } catch (ApplyMerge.InvalidConfig e) {
      throw ApiError.untranslated(500, "failed to create typed patch object (" + identity(config) + "): "
          + e.getMessage());
    }
    ObjectNode object = (ObjectNode) applied.object();
    if (request.manager().equals(LastApplied.KUBECTL) && LastApplied.has(object)) {
      LastApplied.record(object, config);
    }
    checkIdentity(type, current, object, namespace, name);
    return new AppliedObject(object, applied.managers());
  }

  /** kube's last-applied bridge: for {@code kubectl}, conflicts its client-side annotation explains are forced. */
  private static Ownership.Applied applyAllowingClientSideFields(Ownership ownership, FieldType fieldType,
      ResourceType type, JsonNode live, JsonNode current, ObjectNode config, ManagedFields managers, EntryKey applier,
      boolean force, String now, JsonNode zero) throws ApplyConflicts, ApplyMerge.InvalidConfig {
    try {
      return ownership.apply(live, config, managers, applier, force, now, zero);
    } catch (ApplyConflicts conflicts) {
      if (!applier.manager().equals(LastApplied.KUBECTL)) {
        throw conflicts;
      }
      FieldSet allowed = LastApplied.allowedConflicts(current, type.apiVersion(), fieldType);
      if (allowed == null) {
        throw conflicts;
      }
      ApplyConflicts rest = conflicts.without(allowed);
      if (!rest.conflicts().isEmpty()) {
        throw rest;
      }
      return ownership.apply(live, config, managers, applier, true, now, zero);
    }
  }

  /**
   * After completion and validation: when the write changes nothing but managedFields timestamps, keep the stored
   * managedFields, so the write is a no-op (kube's {@code IgnoreManagedFieldsTimestampsTransformer}).
   *
   * @param next the object to store (modified)
   */
  public static void keepTimesWhenUnchanged(ObjectNode current, ObjectNode next) {
    JsonNode before = current.path("metadata").get("managedFields");
    JsonNode after = next.path("metadata").get("managedFields");
    if (SemanticEquality.equal(before, after)
        || !SemanticEquality.equal(ManagedFields.withoutThem(current), ManagedFields.withoutThem(next))) {
      return;
    }
    ManagedFields old;
    ManagedFields updated;
    try {
      old = ManagedFields.decode(before);
      updated = ManagedFields.decode(after);
    } catch (ManagedFields.DecodeException e) {
      return;
    }
    if (old.sameFieldsAs(updated)) {
      if (before == null) {
        metadata(next).remove("managedFields");
      } else {
        metadata(next).set("managedFields", before.deepCopy());
      }
    }
  }

  /** The applied object to write, and the managedFields to stamp on it once the metadata rules have run. */
  public static final class AppliedObject {
    private final ObjectNode object;
    private final ManagedFields managers;

    private AppliedObject(ObjectNode object, ManagedFields managers) {
      this.object = object;
      this.managers = managers;
    }

    /** The merged object (goes through defaulting, metadata rules and validation like an update). */
    public ObjectNode object() {
      return object;
    }

    /** Sets {@code metadata.managedFields} of the object about to be stored. */
    public void stamp(ObjectNode prepared) {
      write(metadata(prepared), managers);
    }
  }

  private static void checkKind(ResourceType type, ObjectNode config) {
    String apiVersion = config.path("apiVersion").asText("");
    String kind = config.path("kind").asText("");
    if (!apiVersion.equals(type.apiVersion()) || !kind.equals(type.kind())) {
      int slash = apiVersion.indexOf('/');
      String group = slash < 0 ? "" : apiVersion.substring(0, slash);
      String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
      throw ApiError.badRequest("invalid object type: " + group + "/" + version + ", Kind=" + kind);
    }
  }

  /** kube's checks on the patched object: same namespace, same name as the URL, no uid on a create. */
  private static void checkIdentity(ResourceType type, ObjectNode current, ObjectNode object, String namespace,
      String name) {
    ObjectNode meta = metadata(object);
    if (type.namespaced()) {
      String objectNamespace = meta.path("namespace").asText("");
      if (objectNamespace.isEmpty()) {
        meta.put("namespace", namespace);
      } else if (!objectNamespace.equals(namespace)) {
        throw ApiError.badRequest("the namespace of the provided object does not match the namespace sent on the "
            + "request");
      }
    } else {
      meta.remove("namespace");
    }
    String objectName = meta.path("name").asText("");
    if (objectName.isEmpty()) {
      throw ApiError.badRequest("the name of the object (" + name + " based on URL) was undeterminable: name must "
          + "be provided");
    }
    if (!objectName.equals(name)) {
      throw ApiError.badRequest("the name of the object (" + objectName + ") does not match the name on the URL ("
          + name + ")");
    }
    String uid = meta.path("uid").asText("");
    if (current == null && !uid.isEmpty()) {
      throw ApiError.conflict(type, name, "uid mismatch: the provided object specified uid " + uid
          + ", and no existing object was found");
    }
  }

  private static String identity(ObjectNode config) {
    JsonNode meta = config.path("metadata");
    String apiVersion = config.path("apiVersion").asText("");
    int slash = apiVersion.indexOf('/');
    String gv = slash < 0 ? "/" + apiVersion : apiVersion;
    return meta.path("namespace").asText("") + "/" + meta.path("name").asText("") + "; " + gv + ", Kind="
        + config.path("kind").asText("");
  }

  private Ownership ownership(ResourceType type, JsonNode crd, String subresource) {
    return new Ownership(fieldType(type, crd),
        IgnoredFields.of(type.custom(), type.hasStatusSubresource(), subresource, kubeMinor), type.apiVersion());
  }

  private static FieldType fieldType(ResourceType type, JsonNode crd) {
    return type.custom() ? CrdTypes.forVersion(crd, type.version())
        : BuiltinTypes.forType(type.goType().orElseThrow());
  }

  private static EntryKey updater(ResourceType type, FieldOwner owner) {
    return owner.manager() == null ? null : EntryKey.updater(owner.manager(), type.apiVersion(), owner.subresource());
  }

  /** kube resets managedFields when an update sends an empty list, or a list of one empty entry. */
  private static boolean isReset(JsonNode sent) {
    if (sent == null || !sent.isArray()) {
      return false;
    }
    return sent.isEmpty() || (sent.size() == 1 && sent.get(0).isObject() && sent.get(0).isEmpty());
  }

  private static boolean decodable(JsonNode managedFields) {
    try {
      ManagedFields.decode(managedFields);
      return true;
    } catch (ManagedFields.DecodeException e) {
      return false;
    }
  }

  private static ManagedFields decodeOrEmpty(JsonNode managedFields) {
    try {
      return ManagedFields.decode(managedFields);
    } catch (ManagedFields.DecodeException e) {
      return new ManagedFields();
    }
  }

  private static void write(ObjectNode meta, ManagedFields managers) {
    ArrayNode encoded = managers.encode();
    if (encoded == null) {
      meta.remove("managedFields");
    } else {
      meta.set("managedFields", encoded);
    }
  }

  private static ObjectNode metadata(ObjectNode object) {
    return object.path("metadata") instanceof ObjectNode meta ? meta : object.putObject("metadata");
  }
}
