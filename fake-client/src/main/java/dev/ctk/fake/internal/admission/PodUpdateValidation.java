package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code ValidatePodUpdate} (1.32): a Pod's spec is immutable except the container and init container
 * images, {@code activeDeadlineSeconds} (set once, then only lowered), additions to {@code tolerations} (existing
 * ones may change only {@code tolerationSeconds}), removals from {@code schedulingGates}, and
 * {@code terminationGracePeriodSeconds} going from a negative value to 1. Anything else is
 * {@code spec: Forbidden: pod updates may not change fields other than ...} followed by a diff (see
 * {@link SpecDiff}).
 *
 * <p>Limits: the relaxations for scheduling-gated Pods (additions to {@code nodeSelector} and node affinity) are
 * not made; toleration values are not validated; quantities compare as written ({@code 1000m} differs from
 * {@code 1}).
 */
final class PodUpdateValidation {

  static final String UPDATABLE = "`spec.containers[*].image`,`spec.initContainers[*].image`,"
      + "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),"
      + "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";
  private static final long MAX_INT32 = Integer.MAX_VALUE;

  private PodUpdateValidation() {}

  /** The new spec's own checks, then the update rules, in kube's order. */
  static FieldErrors update(JsonNode current, JsonNode next) {
    FieldErrors errors = PodValidation.spec(next.path("spec"), "spec");
    JsonNode oldSpec = current.path("spec");
    JsonNode newSpec = next.path("spec");
    if (containers(newSpec.path("containers"), oldSpec.path("containers"), "spec.containers", errors)
        || containers(newSpec.path("initContainers"), oldSpec.path("initContainers"), "spec.initContainers",
            errors)) {
      return errors;
    }
    if (!activeDeadline(newSpec, oldSpec, errors)) {
      return errors;
    }
    tolerations(newSpec.path("tolerations"), oldSpec.path("tolerations"), errors);
    schedulingGates(newSpec.path("schedulingGates"), oldSpec.path("schedulingGates"), errors);
    if (SpecDiff.equal(newSpec, oldSpec)) {
      return errors;
    }
    ObjectNode munged = newSpec.isObject() ? newSpec.deepCopy()
        : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    oldImages(munged, oldSpec, "containers");
    oldImages(munged, oldSpec, "initContainers");
    copy(munged, oldSpec, "activeDeadlineSeconds");
    copy(munged, oldSpec, "schedulingGates");
    copy(munged, oldSpec, "tolerations");
    JsonNode oldGrace = oldSpec.get("terminationGracePeriodSeconds");
    JsonNode newGrace = munged.get("terminationGracePeriodSeconds");
    if (oldGrace != null && oldGrace.isNumber() && oldGrace.asLong() < 0 && newGrace != null
        && newGrace.isNumber() && newGrace.asLong() == 1) {
      munged.set("terminationGracePeriodSeconds", oldGrace.deepCopy());
    }
    if (!SpecDiff.equal(munged, oldSpec)) {
      errors.forbidden("spec", "pod updates may not change fields other than " + UPDATABLE + "\n"
          + SpecDiff.render("core.PodSpec", oldSpec, munged));
    }
    return errors;
  }

  /** kube's {@code ValidateContainerUpdates}; returns whether validation stops (a container was added or removed). */
  private static boolean containers(JsonNode now, JsonNode before, String path, FieldErrors errors) {
    if (now.size() != before.size()) {
      errors.forbidden(path, "pod updates may not add or remove containers");
      return true;
    }
    for (int i = 0; i < now.size(); i++) {
      String image = now.get(i).path("image").asText("");
      if (image.isEmpty()) {
        errors.required(path + "[" + i + "].image", "");
      }
      if (image.strip().length() != image.length()) {
        errors.invalid(path + "[" + i + "].image", image, "must not have leading or trailing whitespace");
      }
    }
    return false;
  }

  /** Returns false when kube stops validating here. */
  private static boolean activeDeadline(JsonNode now, JsonNode before, FieldErrors errors) {
    JsonNode next = now.get("activeDeadlineSeconds");
    JsonNode old = before.get("activeDeadlineSeconds");
    boolean hasNext = next != null && !next.isNull();
    boolean hasOld = old != null && !old.isNull();
    if (hasNext) {
      long value = next.asLong();
      if (value < 0 || value > MAX_INT32) {
        errors.invalidRendered("spec.activeDeadlineSeconds", Long.toString(value),
            "must be between 0 and " + MAX_INT32 + ", inclusive");
        return false;
      }
      if (hasOld && old.asLong() < value) {
        errors.invalidRendered("spec.activeDeadlineSeconds", Long.toString(value),
            "must be less than or equal to previous value");
        return false;
      }
    } else if (hasOld) {
      errors.invalidRendered("spec.activeDeadlineSeconds", "\"null\"", "must not update from a positive integer to "
          + "nil value");
    }
    return true;
  }

  private static void tolerations(JsonNode now, JsonNode before, FieldErrors errors) {
    for (JsonNode old : before) {
      boolean found = false;
      for (JsonNode candidate : now) {
        if (toleration(old).equals(toleration(candidate))) {
          found = true;
          break;
        }
      }
      if (!found) {
        errors.forbidden("spec.tolerations", "existing toleration can not be modified except its tolerationSeconds");
        return;
      }
    }
  }

  /** A toleration without tolerationSeconds, absent fields as Go's zero values. */
  private static List<String> toleration(JsonNode t) {
    return List.of(t.path("key").asText(""), t.path("operator").asText(""), t.path("value").asText(""),
        t.path("effect").asText(""));
  }

  private static void schedulingGates(JsonNode now, JsonNode before, FieldErrors errors) {
    Map<String, Integer> added = new LinkedHashMap<>();
    for (int i = 0; i < now.size(); i++) {
      added.put(now.get(i).path("name").asText(""), i);
    }
    before.forEach(gate -> added.remove(gate.path("name").asText("")));
    added.forEach((gate, i) -> errors.forbidden("spec.schedulingGates[" + i + "].name",
        "only deletion is allowed, but found new scheduling gate '" + gate + "'"));
  }

  private static void oldImages(ObjectNode munged, JsonNode oldSpec, String list) {
    if (munged.get(list) instanceof ArrayNode containers) {
      for (int i = 0; i < containers.size() && i < oldSpec.path(list).size(); i++) {
        if (containers.get(i) instanceof ObjectNode container) {
          JsonNode oldImage = oldSpec.path(list).get(i).get("image");
          if (oldImage == null) {
            container.remove("image");
          } else {
            container.set("image", oldImage.deepCopy());
          }
        }
      }
    }
  }

  private static void copy(ObjectNode munged, JsonNode oldSpec, String field) {
    JsonNode old = oldSpec.get(field);
    if (old == null) {
      munged.remove(field);
    } else {
      munged.set(field, old.deepCopy());
    }
  }
}
