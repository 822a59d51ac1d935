package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.select.LabelValidation;
import dev.ctk.fake.internal.version.KubeMinor;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * kube's {@code ValidateObjectMeta} checks that controllers trip over, in kube's order: {@code generateName},
 * {@code name}, {@code labels} (keys and values), {@code annotations} (keys and the 256 KiB total size).
 *
 * <p>Labels and annotations are checked in the order the object lists them (kube walks a Go map, whose order is
 * random, so with several bad entries the order of kube's causes varies from call to call).
 */
final class MetadataValidation {

  /** kube's {@code TotalAnnotationSizeLimitB}. */
  static final long TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

  private MetadataValidation() {}

  /** The checks made on create. */
  static FieldErrors onCreate(JsonNode object, NameRule rule) {
    FieldErrors errors = new FieldErrors();
    JsonNode meta = object.path("metadata");
    String generateName = meta.path("generateName").asText("");
    if (!generateName.isEmpty()) {
      for (String problem : rule.problems(generateName, true)) {
        errors.invalid("metadata.generateName", generateName, problem);
      }
    }
    String name = meta.path("name").asText("");
    if (name.isEmpty()) {
      errors.required("metadata.name", "name or generateName is required");
    } else {
      for (String problem : rule.problems(name, false)) {
        errors.invalid("metadata.name", name, problem);
      }
    }
    return errors.addAll(labelsAndAnnotations(meta));
  }

  /**
   * The checks made on update (name and namespace cannot change: the store keeps them). A changed {@code uid} (a
   * patch that sets one; a PUT's is refused earlier, as a precondition) is reported twice, as kube 1.32 does: once by
   * the generic registry's common-field checks, once by the kind's own update validation; once from
   * {@link KubeMinor#UID_REPORTED_ONCE}.
   */
  static FieldErrors onUpdate(JsonNode current, JsonNode object) {
    FieldErrors errors = new FieldErrors();
    String uid = object.path("metadata").path("uid").asText("");
    if (!uid.equals(current.path("metadata").path("uid").asText(""))) {
      errors.invalid("metadata.uid", uid, "field is immutable")
          .invalidBefore(KubeMinor.UID_REPORTED_ONCE, "metadata.uid", uid, "field is immutable");
    }
    return errors.addAll(labelsAndAnnotations(object.path("metadata")));
  }

  private static FieldErrors labelsAndAnnotations(JsonNode meta) {
    FieldErrors errors = new FieldErrors();
    labels(meta.path("labels"), "metadata.labels", errors);
    long size = 0;
    for (Map.Entry<String, JsonNode> annotation : meta.path("annotations").properties()) {
      for (String problem : LabelValidation.keyErrors(annotation.getKey().toLowerCase(Locale.ROOT))) {
        errors.invalid("metadata.annotations", annotation.getKey(), problem);
      }
      size += bytes(annotation.getKey()) + bytes(annotation.getValue().asText(""));
    }
    if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
      errors.tooLong("metadata.annotations", TOTAL_ANNOTATION_SIZE_LIMIT);
    }
    return errors;
  }

  /** kube's {@code ValidateLabels}: every bad key and value is reported on the map's own path. */
  static void labels(JsonNode labels, String field, FieldErrors errors) {
    for (Map.Entry<String, JsonNode> label : labels.properties()) {
      for (String problem : LabelValidation.keyErrors(label.getKey())) {
        errors.invalid(field, label.getKey(), problem);
      }
      String value = label.getValue().asText("");
      for (String problem : LabelValidation.valueErrors(value)) {
        errors.invalid(field, value, problem);
      }
    }
  }

  private static int bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
