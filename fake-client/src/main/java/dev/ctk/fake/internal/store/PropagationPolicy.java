package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.status.ApiError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code DeleteOptions.propagationPolicy}: what happens to an object's dependents (objects whose
 * {@code ownerReferences} name its uid) when it is deleted.
 *
 * <ul>
 *   <li>{@link #BACKGROUND}: the owner goes at once, the garbage collector deletes the dependents afterwards;</li>
 *   <li>{@link #FOREGROUND}: the owner gets finalizer {@code foregroundDeletion} and stays until its blocking
 *       dependents ({@code blockOwnerDeletion: true}) are gone;</li>
 *   <li>{@link #ORPHAN}: the owner gets finalizer {@code orphan}; the garbage collector removes the owner's
 *       reference from every dependent, then the finalizer;</li>
 *   <li>{@link #UNSET}: the request names no policy: the object's own {@code orphan} or {@code foregroundDeletion}
 *       finalizer decides, else its kind's default ({@link KindPolicy}).</li>
 * </ul>
 */
public enum PropagationPolicy {
  /** Delete the owner now, the dependents afterwards. */
  BACKGROUND,
  /** Delete the blocking dependents first, then the owner. */
  FOREGROUND,
  /** Keep the dependents, without their reference to the owner. */
  ORPHAN,
  /** No policy given: the object's finalizers, else its kind's default, decide. */
  UNSET;

  /**
   * A kind's own garbage-collection policy, as its kube-apiserver strategy names it
   * ({@code DefaultGarbageCollectionPolicy}): what a delete without a policy does.
   */
  public enum KindPolicy {
    /** Dependents are deleted (Background): most kinds, custom resources included. */
    DELETE_DEPENDENTS,
    /**
     * Dependents are orphaned: kube keeps this default for {@code batch/v1} Jobs and {@code v1}
     * ReplicationControllers, for backward compatibility, so a Job deleted without a policy leaves its Pods.
     */
    ORPHAN_DEPENDENTS,
    /** No garbage collection: Events; a delete adds neither finalizer, whatever the policy. */
    UNSUPPORTED;

    /**
     * The policy of a kind, by its group and kind as kube 1.32 serves them.
     *
     * @param group the API group, {@code ""} for the core group
     * @param kind the kind
     */
    public static KindPolicy of(String group, String kind) {
      if (group.isEmpty() && kind.equals("ReplicationController") || group.equals("batch") && kind.equals("Job")) {
        return ORPHAN_DEPENDENTS;
      }
      if ((group.isEmpty() || group.equals("events.k8s.io")) && kind.equals("Event")) {
        return UNSUPPORTED;
      }
      return DELETE_DEPENDENTS;
    }
  }

  /** The finalizer kube-apiserver adds for {@link #FOREGROUND}. */
  public static final String FOREGROUND_FINALIZER = "foregroundDeletion";
  /** The finalizer kube-apiserver adds for {@link #ORPHAN}. */
  public static final String ORPHAN_FINALIZER = "orphan";

  /**
   * Reads the policy as kube-apiserver does: from the DeleteOptions body when there is one, otherwise from the
   * query parameters; {@code orphanDependents} (deprecated) maps to Orphan or Background; nothing is {@link #UNSET}.
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
      // as kube decodes query parameters: an empty value is a value ("" for the policy, refused below; true for
      // orphanDependents)
      policy = queryPolicy;
      orphan = queryOrphan;
    }
    if (policy != null && orphan != null) {
      throw invalid("FieldValueInvalid", "Invalid value: \"" + policy + "\": orphanDependents and "
          + "deletionPropagation cannot be both set");
    }
    if (orphan != null) {
      return dev.ctk.fake.internal.common.QueryBoolean.parse(orphan) ? ORPHAN : BACKGROUND;
    }
    if (policy == null) {
      return UNSET;
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
   * The finalizers an object has after a delete with this policy, as kube-apiserver sets them
   * ({@code deletionFinalizersForGarbageCollection}): the object's own without {@code orphan} and
   * {@code foregroundDeletion}, plus the one this policy adds. With {@link #UNSET}, the first of those two finalizers
   * the object has is kept, and with neither the kind's default applies. A kind without garbage collection gets
   * neither. When the result holds the same finalizers as before, the object's own list is returned, order kept.
   *
   * @param finalizers the object's finalizers before the delete
   * @param kind the kind's own policy
   */
  public List<String> finalizersOnDelete(List<String> finalizers, KindPolicy kind) {
    PropagationPolicy effective = kind == KindPolicy.UNSUPPORTED ? BACKGROUND : this;
    if (effective == UNSET) {
      effective = finalizers.stream().filter(f -> f.equals(ORPHAN_FINALIZER) || f.equals(FOREGROUND_FINALIZER))
          .findFirst().map(f -> f.equals(ORPHAN_FINALIZER) ? ORPHAN : FOREGROUND)
          .orElse(kind == KindPolicy.ORPHAN_DEPENDENTS ? ORPHAN : BACKGROUND);
    }
    List<String> out = new ArrayList<>();
    for (String f : finalizers) {
      if (!f.equals(ORPHAN_FINALIZER) && !f.equals(FOREGROUND_FINALIZER)) {
        out.add(f);
      }
    }
    if (effective == ORPHAN) {
      out.add(ORPHAN_FINALIZER);
    } else if (effective == FOREGROUND) {
      out.add(FOREGROUND_FINALIZER);
    }
    return Set.copyOf(out).equals(Set.copyOf(finalizers)) ? finalizers : out;
  }

  /**
   * The policy kube's garbage collector deletes a dependent with when no owner holds it: the dependent's own
   * {@code orphan} finalizer, else its {@code foregroundDeletion} finalizer, else Background.
   *
   * @param object the dependent
   */
  public static PropagationPolicy byFinalizers(JsonNode object) {
    List<String> finalizers = ObjectRules.finalizers(object);
    if (finalizers.contains(ORPHAN_FINALIZER)) {
      return ORPHAN;
    }
    return finalizers.contains(FOREGROUND_FINALIZER) ? FOREGROUND : BACKGROUND;
  }
}
