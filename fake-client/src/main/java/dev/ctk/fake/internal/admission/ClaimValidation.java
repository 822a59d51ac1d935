package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;

/**
 * kube's {@code ValidatePersistentVolumeClaimUpdate} (1.32): a claim's spec is immutable except
 * {@code resources.requests.storage} of a Bound claim (expansion), a {@code volumeName} set for the first time, a
 * {@code storageClassName} set where there was none (and no beta storage-class annotation says otherwise) and
 * {@code volumeAttributesClassName}; anything else is {@code spec: Forbidden: spec is immutable after creation except
 * resources.requests and volumeAttributesClassName for bound claims} followed by a diff (see {@link SpecDiff}). A
 * request shrunk to {@code status.capacity} or below is
 * {@code spec.resources.requests.storage: Forbidden: field can not be less than status.capacity}, and
 * {@code volumeMode} is immutable.
 *
 * <p>Limits: the claim's own spec checks (access modes, storage request required, ...) are not made; the
 * storage-class beta annotation itself is not checked for immutability.
 */
final class ClaimValidation {

  static final String BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";

  private ClaimValidation() {}

  static FieldErrors update(JsonNode current, JsonNode next) {
    FieldErrors errors = new FieldErrors();
    JsonNode oldSpec = current.path("spec");
    ObjectNode newClone = next.path("spec").isObject() ? (ObjectNode) next.path("spec").deepCopy()
        : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    ObjectNode oldClone = oldSpec.isObject() ? (ObjectNode) oldSpec.deepCopy()
        : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    if (oldSpec.path("volumeName").asText("").isEmpty()) {
      set(oldClone, "volumeName", newClone.get("volumeName"));
    }
    JsonNode oldAnnotation = current.path("metadata").path("annotations").get(BETA_STORAGE_CLASS);
    JsonNode newClass = newClone.get("storageClassName");
    boolean oldClassNil = oldClone.get("storageClassName") == null || oldClone.get("storageClassName").isNull();
    if (oldClassNil && newClass != null && !newClass.isNull()
        && (oldAnnotation == null || oldAnnotation.asText().equals(newClass.asText()))) {
      newClone.remove("storageClassName");
      oldClone.remove("storageClassName");
    }
    boolean bound = "Bound".equals(next.path("status").path("phase").asText(""));
    if (bound && newClone.path("resources").get("requests") instanceof ObjectNode requests) {
      set(requests, "storage", oldSpec.path("resources").path("requests").get("storage"));
    }
    set(newClone, "volumeAttributesClassName", oldClone.get("volumeAttributesClassName"));
    if (!SpecDiff.equal(newClone, oldClone)) {
      errors.forbidden("spec", "spec is immutable after creation except resources.requests and "
          + "volumeAttributesClassName for bound claims\n" + SpecDiff.render("core.PersistentVolumeClaimSpec",
              oldClone, newClone));
    }
    BigDecimal oldSize = quantity(oldSpec.path("resources").path("requests").get("storage"));
    BigDecimal newSize = quantity(next.path("spec").path("resources").path("requests").get("storage"));
    BigDecimal statusSize = quantity(current.path("status").path("capacity").get("storage"));
    if (newSize.compareTo(oldSize) < 0 && newSize.compareTo(statusSize) <= 0) {
      errors.forbidden("spec.resources.requests.storage", "field can not be less than status.capacity");
    }
    JsonNode oldMode = oldSpec.get("volumeMode");
    JsonNode newMode = next.path("spec").get("volumeMode");
    if (!SpecDiff.equal(wrap(oldMode), wrap(newMode))) {
      errors.invalidRendered("volumeMode", newMode == null || newMode.isNull() ? "\"null\""
          : dev.ctk.fake.internal.status.GoText.quote(newMode.asText()), WorkloadValidation.IMMUTABLE);
    }
    return errors;
  }

  private static JsonNode wrap(JsonNode value) {
    ObjectNode holder = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    if (value != null) {
      holder.set("v", value);
    }
    return holder;
  }

  private static void set(ObjectNode node, String field, JsonNode value) {
    if (value == null) {
      node.remove(field);
    } else {
      node.set(field, value.deepCopy());
    }
  }

  private static BigDecimal quantity(JsonNode value) {
    if (value == null || value.isNull()) {
      return BigDecimal.ZERO;
    }
    try {
      return new Quantity(value.asText()).getNumericalAmount();
    } catch (RuntimeException e) {
      return BigDecimal.ZERO;
    }
  }
}
