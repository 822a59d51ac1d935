package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.status.ApiError;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code DeleteOptions.propagationPolicy}: what happens to an object's dependents (objects whose
 * {@code ownerReferences} name its uid) when it is deleted.
 *
 * <ul>
 *   <li>{@link #BACKGROUND}: the owner goes at once, the garbage collector deletes the dependents afterwards;</li>
 *   <li>{@link #FOREGROUND}: the owner gets finalizer {@code foregroundDeletion} and stays until its blocking
 *       dependents ({@code blockOwnerDeletion: true}) are gone;</li>
 *   <li>{@link #ORPHAN}: the owner gets finalizer {@code orphan}; the garbage collector removes the owner's
 *       reference from every dependent, then the finalizer.</li>
 * </ul>
 */
public enum PropagationPolicy {
  /** Delete the owner now, the dependents afterwards. */
  BACKGROUND,
  /** Delete the blocking dependents first, then the owner. */
  FOREGROUND,
  /** Keep the dependents, without their reference to the owner. */
  ORPHAN;

  /** The finalizer kube-apiserver adds for {@link #FOREGROUND}. */
  public static final String FOREGROUND_FINALIZER = "foregroundDeletion";
  /** The finalizer kube-apiserver adds for {@link #ORPHAN}. */
  public static final String ORPHAN_FINALIZER = "orphan";

  /**
   * Reads the policy as kube-apiserver does: from the DeleteOptions body when there is one, otherwise from the
   * query parameters; {@code orphanDependents} (deprecated) maps to Orphan or Background; nothing means Background.
   *
   * @param deleteOptions the DeleteOptions body, or {@code null}
   * @param queryPolicy the {@code propagationPolicy} query parameter, or {@code null}
   * @param queryOrphan the {@code orphanDependents} query parameter, or {@code null}
   * @throws ApiError 422 for an unknown policy, or when both fields are set
   */
  public static PropagationPolicy from(JsonNode deleteOptions, String queryPolicy, String queryOrphan) {
    String policy;
    String orphan;
    if (deleteOptions != null) {
      policy = deleteOptions.hasNonNull("propagationPolicy") ? deleteOptions.get("propagationPolicy").asText() : null;
      orphan = deleteOptions.hasNonNull("orphanDependents") ? deleteOptions.get("orphanDependents").asText() : null;
    } else {
      policy = emptyToNull(queryPolicy);
      orphan = emptyToNull(queryOrphan);
    }
    if (policy != null && orphan != null) {
      throw invalid("FieldValueInvalid", "Invalid value: \"" + policy + "\": orphanDependents and "
          + "deletionPropagation cannot be both set");
    }
    if (orphan != null) {
      return Boolean.parseBoolean(orphan) ? ORPHAN : BACKGROUND;
    }
    if (policy == null) {
      return BACKGROUND;
    }
    return switch (policy) {
      case "Background" -> BACKGROUND;
      case "Foreground" -> FOREGROUND;
      case "Orphan" -> ORPHAN;
      default -> throw invalid("FieldValueNotSupported", "Unsupported value: \"" + policy + "\": supported "
          + "values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"");
    };
  }

  /** 422 as kube's {@code NewInvalid} for DeleteOptions: no name (omitted, empty), one cause. */
  private static ApiError invalid(String causeReason, String causeMessage) {
    ObjectNode details = JsonNodeFactory.instance.objectNode();
    details.put("group", "meta.k8s.io").put("kind", "DeleteOptions");
    details.putArray("causes").addObject().put("reason", causeReason).put("message", causeMessage)
        .put("field", "propagationPolicy");
    return ApiError.of(422, "Invalid", "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: "
        + causeMessage, details);
  }

  /**
   * The finalizers an object has after a delete with this policy, as kube-apiserver sets them: the object's own,
   * without {@code orphan} and {@code foregroundDeletion}, plus the one this policy adds (if any).
   *
   * @param finalizers the object's finalizers before the delete
   */
  public List<String> finalizersOnDelete(List<String> finalizers) {
    List<String> out = new ArrayList<>();
    for (String f : finalizers) {
      if (!f.equals(ORPHAN_FINALIZER) && !f.equals(FOREGROUND_FINALIZER)) {
        out.add(f);
      }
    }
    if (this == ORPHAN) {
      out.add(ORPHAN_FINALIZER);
    } else if (this == FOREGROUND) {
      out.add(FOREGROUND_FINALIZER);
    }
    return out;
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }
}
