package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.cel.CustomResourceRules;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.status.GoText;
import dev.ctk.fake.internal.version.KubeMinor;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The field errors one validation pass finds, in the order kube reports them, turned into kube's 422 Invalid
 * {@code Status}: one {@code details.causes} entry per error ({@code reason} = the cause type, {@code message} =
 * the error body, {@code field} = the path) and the message {@code <Kind>[.<group>] "<name>" is invalid: <errors>}
 * where several distinct errors are joined as {@code [a, b]}, as kube's error aggregate prints them.
 */
final class FieldErrors {

  /**
   * One field error: kube's cause type, the field path and the error body (without the path), as the oldest minor the
   * fake emulates words it; {@code later} holds how later minors word the body (from that minor on; {@code null}: the
   * error is not reported from that minor on), empty when all alike.
   */
  record FieldError(String type, String field, String body, NavigableMap<Integer, String> later) {
    String body(int minor) {
      Map.Entry<Integer, String> entry = later.floorEntry(minor);
      return entry == null ? body : entry.getValue();
    }

    String text(int minor) {
      return field + ": " + body(minor);
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

  /**
   * {@code Invalid value: <value>: <detail>} for a structured value, which kube prints in Go syntax up to 1.33
   * ({@code []string{"a"}}) and as JSON from 1.34 ({@code ["a"]}).
   *
   * @param value the value in both printings, from {@link GoSyntax}
   */
  FieldErrors invalidValue(String field, GoSyntax.Printed value, String detail) {
    TreeMap<Integer, String> later = new TreeMap<>();
    later.put(KubeMinor.FIELD_VALUES_AS_JSON, "Invalid value: " + value.json() + detailText(detail));
    errors.add(new FieldError("FieldValueInvalid", field, "Invalid value: " + value.go() + detailText(detail),
        later));
    return this;
  }

  /**
   * {@code Invalid value: <value>: <detail>} for a string value, an error kube reports only before minor
   * {@code fromMinor} (a later minor leaves it out).
   */
  FieldErrors invalidBefore(int fromMinor, String field, String value, String detail) {
    TreeMap<Integer, String> later = new TreeMap<>();
    later.put(fromMinor, null);
    errors.add(new FieldError("FieldValueInvalid", field, "Invalid value: " + GoText.quote(value) + detailText(detail),
        later));
    return this;
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
      errors.add(new FieldError(error.type(), error.field(), error.body(), error.later()));
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
   * Throws kube's 422 Invalid when any error was found, worded as the oldest emulated minor words it and, where a
   * later minor words an error otherwise, as that minor does ({@link ApiError#toStatus(KubeMinor)} picks).
   *
   * @param group the kind's API group ({@code ""} for core)
   * @param kind the kind, e.g. {@code Deployment}
   * @param name the object's name
   */
  void throwIfAny(String group, String kind, String name) {
    if (errors.isEmpty()) {
      return;
    }
    Set<Integer> changes = new TreeSet<>();
    errors.forEach(e -> changes.addAll(e.later().keySet()));
    throw ApiError.wordedByMinor(minor -> invalid(group, kind, name, minor), changes);
  }

  private ApiError invalid(String group, String kind, String name, int minor) {
    ObjectNode details = JsonNodeFactory.instance.objectNode();
    details.put("name", name);
    if (!group.isEmpty()) {
      details.put("group", group);
    }
    details.put("kind", kind);
    ArrayNode causes = details.putArray("causes");
    Set<String> distinct = new LinkedHashSet<>();
    for (FieldError error : errors) {
      if (error.body(minor) == null) {
        continue;
      }
      causes.addObject().put("reason", error.type()).put("message", error.body(minor)).put("field", error.field());
      distinct.add(error.text(minor));
    }
    String joined = distinct.size() == 1 ? distinct.iterator().next() : "[" + String.join(", ", distinct) + "]";
    String qualifiedKind = group.isEmpty() ? kind : kind + "." + group;
    return ApiError.invalid(qualifiedKind + " " + GoText.quote(name) + " is invalid: " + joined, details);
  }

  private FieldErrors add(String type, String field, String body) {
    errors.add(new FieldError(type, field, body, new TreeMap<>()));
    return this;
  }

  private static String detailText(String detail) {
    return detail == null || detail.isEmpty() ? "" : ": " + detail;
  }
}
