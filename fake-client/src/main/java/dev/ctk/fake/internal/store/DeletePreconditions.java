package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.JsonNode;

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
}
