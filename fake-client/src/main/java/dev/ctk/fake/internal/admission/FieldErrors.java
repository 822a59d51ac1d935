package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.cel.CustomResourceRules;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.status.GoText;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The field errors one validation pass finds, in the order kube reports them, turned into kube's 422 Invalid
 * {@code Status}: one {@code details.causes} entry per error ({@code reason} = the cause type, {@code message} =
 * the error body, {@code field} = the path) and the message {@code <Kind>[.<group>] "<name>" is invalid: <errors>}
 * where several distinct errors are joined as {@code [a, b]}, as kube's error aggregate prints them.
 */
final class FieldErrors {

  /** One field error: kube's cause type, the field path and the error body (without the path). */
  record FieldError(String type, String field, String body) {
    String text() {
      return field + ": " + body;
    }
  }

  private final List<FieldError> errors = new ArrayList<>();

  /** {@code Required value} (FieldValueRequired), with an optional detail. */
  FieldErrors required(String field, String detail) {
    return add("FieldValueRequired", field, "Required value" + detailText(detail));
  }

  /** {@code Invalid value: <value>: <detail>} (FieldValueInvalid) for a string value, printed as Go's %q. */
  FieldErrors invalid(String field, String value, String detail) {
    return invalidRendered(field, GoText.quote(value), detail);
  }

  /** {@code Invalid value: <rendered>: <detail>} with the value already printed as kube prints it. */
  FieldErrors invalidRendered(String field, String renderedValue, String detail) {
    return add("FieldValueInvalid", field, "Invalid value: " + renderedValue + detailText(detail));
  }

  /** {@code Forbidden: <detail>} (FieldValueForbidden). */
  FieldErrors forbidden(String field, String detail) {
    return add("FieldValueForbidden", field, "Forbidden" + detailText(detail));
  }

  /** {@code Duplicate value: "<value>"} (FieldValueDuplicate). */
  FieldErrors duplicate(String field, String value) {
    return add("FieldValueDuplicate", field, "Duplicate value: " + GoText.quote(value));
  }

  /** {@code Too long: may not be more than <n> bytes} (FieldValueTooLong). */
  FieldErrors tooLong(String field, long maxBytes) {
    return add("FieldValueTooLong", field, "Too long: may not be more than " + maxBytes + " bytes");
  }

  /** {@code Unsupported value: "<value>": supported values: "a", "b"} (FieldValueNotSupported). */
  FieldErrors notSupported(String field, String value, List<String> supported) {
    StringBuilder list = new StringBuilder();
    for (String s : supported) {
      list.append(list.length() == 0 ? "" : ", ").append(GoText.quote(s));
    }
    return add("FieldValueNotSupported", field,
        "Unsupported value: " + GoText.quote(value) + ": supported values: " + list);
  }

  /** Adds the errors a custom resource schema check found (already worded by kube's rules). */
  FieldErrors addSchema(java.util.List<dev.ctk.fake.internal.schema.SchemaError> schemaErrors) {
    for (dev.ctk.fake.internal.schema.SchemaError error : schemaErrors) {
      add(error.type(), error.field(), error.body());
    }
    return this;
  }

  /** Adds every error of another pass. */
  FieldErrors addAll(FieldErrors other) {
    errors.addAll(other.errors);
    return this;
  }

  boolean isEmpty() {
    return errors.isEmpty();
  }

  /** Whether the errors so far keep kube from evaluating CRD validation rules ({@code hasBlockingErr}). */
  boolean blocksValidationRules() {
    return CustomResourceRules.blocks(errors.stream().map(FieldError::type).toList());
  }

  List<FieldError> errors() {
    return List.copyOf(errors);
  }

  /**
   * Throws kube's 422 Invalid when any error was found.
   *
   * @param group the kind's API group ({@code ""} for core)
   * @param kind the kind, e.g. {@code Deployment}
   * @param name the object's name
   */
  void throwIfAny(String group, String kind, String name) {
    if (errors.isEmpty()) {
      return;
    }
    ObjectNode details = JsonNodeFactory.instance.objectNode();
    details.put("name", name);
    if (!group.isEmpty()) {
      details.put("group", group);
    }
    details.put("kind", kind);
    ArrayNode causes = details.putArray("causes");
    Set<String> distinct = new LinkedHashSet<>();
    for (FieldError error : errors) {
      causes.addObject().put("reason", error.type()).put("message", error.body()).put("field", error.field());
      distinct.add(error.text());
    }
    String joined = distinct.size() == 1 ? distinct.iterator().next() : "[" + String.join(", ", distinct) + "]";
    String qualifiedKind = group.isEmpty() ? kind : kind + "." + group;
    throw ApiError.invalid(qualifiedKind + " " + GoText.quote(name) + " is invalid: " + joined, details);
  }

  private FieldErrors add(String type, String field, String body) {
    errors.add(new FieldError(type, field, body));
    return this;
  }

  private static String detailText(String detail) {
    return detail == null || detail.isEmpty() ? "" : ": " + detail;
  }
}
