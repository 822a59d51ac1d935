package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.SemanticEquality;
import java.util.List;

/**
 * apps/v1 and batch/v1 spec checks, in kube's order (the new spec's own checks, then the update rules). On create,
 * a selector is required and must select the template's labels, and the template must be a valid pod spec with
 * the restartPolicy the kind allows; on update, the same, then the immutable fields (Deployment, ReplicaSet and
 * DaemonSet {@code spec.selector}; StatefulSet everything but replicas, ordinals, template, updateStrategy,
 * persistentVolumeClaimRetentionPolicy and minReadySeconds; Job {@code spec.selector} and {@code spec.template}).
 */
final class WorkloadValidation {

  static final String IMMUTABLE = "field is immutable";
  private static final List<String> STATEFUL_SET_MUTABLE = List.of("replicas", "ordinals", "template",
      "updateStrategy", "persistentVolumeClaimRetentionPolicy", "minReadySeconds");

  private WorkloadValidation() {}

  /**
   * Deployment, ReplicaSet, StatefulSet, DaemonSet: selector, template labels, template spec, restartPolicy.
   *
   * @param selectorOwner the word kube's "empty selector is invalid for ..." text uses (kube's ReplicaSet check
   *     says {@code deployment} too)
   */
  static FieldErrors controller(JsonNode object, String selectorOwner) {
    FieldErrors errors = new FieldErrors();
    JsonNode spec = object.path("spec");
    JsonNode selector = spec.get("selector");
    if (selector == null || selector.isNull()) {
      errors.required("spec.selector", "");
      selector = null;
    } else if (selector.path("matchLabels").isEmpty() && selector.path("matchExpressions").isEmpty()) {
      errors.invalidValue("spec.selector", GoSyntax.printedLabelSelector(selector), "empty selector is invalid for "
          + selectorOwner);
    }
    template(spec, selector, List.of("Always"), errors);
    return errors;
  }

  /** Job: the (generated or manual) selector must select the template; restartPolicy OnFailure or Never. */
  static FieldErrors job(JsonNode job) {
    FieldErrors errors = new FieldErrors();
    JsonNode spec = job.path("spec");
    JsonNode selector = spec.get("selector");
    if (selector == null || selector.isNull()) {
      errors.required("spec.selector", "");
    }
    template(spec, selector == null || selector.isNull() ? null : selector, List.of("OnFailure", "Never"), errors);
    return errors;
  }

  /** Deployment, ReplicaSet, DaemonSet: the new spec's checks, then (as kube's strategy) the immutable selector. */
  static FieldErrors selectorUpdate(JsonNode current, JsonNode next, String selectorOwner) {
    FieldErrors errors = controller(next, selectorOwner);
    immutableSelector(current, next, errors);
    return errors;
  }

  /** StatefulSet: only some spec fields may change. */
  static FieldErrors statefulSetUpdate(JsonNode current, JsonNode next) {
    FieldErrors errors = controller(next, "statefulset");
    JsonNode before = current.path("spec").deepCopy();
    JsonNode after = next.path("spec").deepCopy();
    if (before instanceof ObjectNode b && after instanceof ObjectNode a) {
      b.remove(STATEFUL_SET_MUTABLE);
      a.remove(STATEFUL_SET_MUTABLE);
    }
    if (!SemanticEquality.equal(before, after)) {
      errors.forbidden("spec", "updates to statefulset spec for fields other than 'replicas', 'ordinals', "
          + "'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are "
          + "forbidden");
    }
    return errors;
  }

  /**
   * Job: selector and template are immutable. kube prints the whole template as a Go struct
   * ({@code core.PodTemplateSpec{...}}); the fake prints {@code core.PodTemplateSpec{...}} literally.
   */
  static FieldErrors jobUpdate(JsonNode current, JsonNode next) {
    FieldErrors errors = job(next);
    immutableSelector(current, next, errors);
    if (!SemanticEquality.equal(current.path("spec").path("template"),
        next.path("spec").path("template"))) {
      errors.invalidRendered("spec.template", "core.PodTemplateSpec{...}", IMMUTABLE);
    }
    return errors;
  }

  private static void immutableSelector(JsonNode current, JsonNode next, FieldErrors errors) {
    JsonNode before = current.path("spec").path("selector");
    JsonNode after = next.path("spec").path("selector");
    if (!SemanticEquality.equal(before, after)) {
      // kube prints a nil selector as the string "null"
      if (after.isMissingNode() || after.isNull()) {
        errors.invalidRendered("spec.selector", "\"null\"", IMMUTABLE);
      } else {
        errors.invalidValue("spec.selector", GoSyntax.printedLabelSelector(after), IMMUTABLE);
      }
    }
  }

  private static void template(JsonNode spec, JsonNode selector, List<String> restartPolicies,
      FieldErrors errors) {
    JsonNode template = spec.path("template");
    // a missing selector selects nothing (kube's labels.Nothing()), so the template never matches it
    if (selector == null || !Selection.matches(selector, template.path("metadata").path("labels"))) {
      errors.invalidValue("spec.template.metadata.labels",
          GoSyntax.printedStringMap(template.path("metadata").get("labels")), "`selector` does not match template `labels`");
    }
    MetadataValidation.labels(template.path("metadata").path("labels"), "spec.template.metadata.labels", errors);
    errors.addAll(PodValidation.spec(template.path("spec"), "spec.template.spec"));
    PodValidation.restartPolicy(template.path("spec"), "spec.template.spec", restartPolicies, errors);
  }
}
