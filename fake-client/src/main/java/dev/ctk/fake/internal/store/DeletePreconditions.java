package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;

/**
 * {@code DeleteOptions.preconditions}: the delete happens only if the object still has this uid and/or
 * resourceVersion.
 *
 * @param uid expected {@code metadata.uid}, or {@code null}
 * @param resourceVersion expected {@code metadata.resourceVersion}, or {@code null}
 */
public record DeletePreconditions(String uid, String resourceVersion) {

  /** No precondition. */
  public static final DeletePreconditions NONE = new DeletePreconditions(null, null);

  /** Reads {@code preconditions} from a DeleteOptions body ({@code null} or missing = none). */
  public static DeletePreconditions from(JsonNode deleteOptions) {
    if (deleteOptions == null) {
      return NONE;
    }
    JsonNode p = deleteOptions.path("preconditions");
    String uid = p.hasNonNull("uid") ? p.get("uid").asText() : null;
    String rv = p.hasNonNull("resourceVersion") ? p.get("resourceVersion").asText() : null;
    return new DeletePreconditions(uid, rv);
  }

  /**
   * Checks the preconditions against the stored object, uid first, as kube-apiserver does before a delete.
   *
   * <p>kube's generic registry names the kind ({@code Operation cannot be fulfilled on ConfigMap "web": the UID in the
   * precondition (a) does not match the UID in record (b). The object might have been deleted and then recreated});
   * the Namespace registry checks them itself and keeps the storage layer's wording ({@code ... on namespaces "x":
   * Precondition failed: UID in precondition: a, UID in object meta: b}).
   *
   * @throws ApiError 409 Conflict when a precondition does not hold
   */
  public void check(ResourceType type, JsonNode current) {
    String name = current.path("metadata").path("name").asText();
    String currentUid = current.path("metadata").path("uid").asText();
    String currentRv = current.path("metadata").path("resourceVersion").asText();
    boolean namespace = NamespaceLifecycle.isNamespace(type);
    if (uid != null && !uid.equals(currentUid)) {
      throw namespace
          ? ApiError.conflict(type, name, "Precondition failed: UID in precondition: " + uid
              + ", UID in object meta: " + currentUid)
          : ApiError.conflict(type.group(), type.kind(), name, "the UID in the precondition (" + uid
              + ") does not match the UID in record (" + currentUid + "). The object might have been deleted and "
              + "then recreated");
    }
    if (resourceVersion != null && !resourceVersion.equals(currentRv)) {
      throw namespace
          ? ApiError.conflict(type, name, "Precondition failed: ResourceVersion in precondition: " + resourceVersion
              + ", ResourceVersion in object meta: " + currentRv)
          : ApiError.conflict(type.group(), type.kind(), name, "the ResourceVersion in the precondition ("
              + resourceVersion + ") does not match the ResourceVersion in record (" + currentRv + "). The object "
              + "might have been modified");
    }
  }
}
