package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OpenAPI v3 validation of a custom resource against its structural schema, with kube-apiserver's checks, order and
 * texts (kube-openapi's validator as kube 1.32 runs it, turned into field errors as the apiextensions-apiserver
 * does):
 *
 * <ul>
 *   <li>per value, in this order: {@code type} (and {@code nullable}, {@code x-kubernetes-int-or-string}), string
 *       checks ({@code maxLength}, then {@code minLength}, then {@code pattern}: the first failure only),
 *       {@code format} (see {@link Formats}), number checks ({@code multipleOf}, {@code minimum},
 *       {@code maximum}, each optionally exclusive), array checks (items first, then {@code minItems},
 *       {@code maxItems}), {@code enum}, object checks ({@code minProperties}, {@code maxProperties}, the
 *       properties and additionalProperties values, then {@code required});</li>
 *   <li>a {@code null} is checked for type and enum only;</li>
 *   <li>on update, validation ratchets as kube's {@code CRDValidationRatcheting} (on by default since 1.30): the
 *       errors of a value that equals its old value are dropped; values are matched to old ones through object
 *       fields, map keys and the keys of {@code x-kubernetes-list-type: map} lists.</li>
 * </ul>
 *
 * <p>Where kube walks a Go map (properties, additionalProperties) its error order is random; the fake reports them
 * in the order the object lists its fields.
 */
public final class SchemaValidator {

  private static final String IN = " in body";

  private enum Code { TYPE, REQUIRED, TOO_LONG, TOO_MANY, ENUM, INVALID }

  /** One kube-openapi failure, before it becomes a field error. */
  private record Failure(Code code, String name, JsonNode value, long actual, long limit, List<JsonNode> allowed,
      String message) {
  }

  private final List<Failure> failures = new ArrayList<>();
  private final Set<String> messages = new LinkedHashSet<>();

  private SchemaValidator() {}

  /**
   * Validates a value.
   *
   * @param value the value (the whole object, or its status)
   * @param schema the schema
   * @param old the previous value for ratcheting, or {@code null} (create, and status writes: kube does not ratchet
   *     those)
   * @param fieldPrefix the field path the errors start from ({@code ""} for the object, {@code "status"} for a
   *     status write validated against the status schema)
   * @return the field errors, in kube's order
   */
  public static List<SchemaError> validate(JsonNode value, Schema schema, JsonNode old, String fieldPrefix) {
    SchemaValidator validator = new SchemaValidator();
    validator.failures.addAll(validator.node(value, schema, "", old, old != null));
    List<SchemaError> out = new ArrayList<>();
    for (Failure failure : validator.failures) {
      // kube-openapi keeps one error per message text
      if (validator.messages.add(failure.message())) {
        out.add(toFieldError(failure, fieldPrefix));
      }
    }
    return out;
  }

  private List<Failure> node(JsonNode value, Schema s, String path, JsonNode old, boolean correlated) {
    List<Failure> out = new ArrayList<>();
    if (value == null || value.isNull()) {
      type(value, s, path, out);
      enumCheck(value, s, path, out);
    } else {
      type(value, s, path, out);
      if (value.isTextual()) {
        string(value.asText(), s, path, out);
        if (s.format() != null && Formats.supported(s.format()) && !Formats.valid(s.format(), value.asText())) {
          out.add(new Failure(Code.TYPE, path, value, 0, 0, null, path + IN + " must be of type " + s.format() + ": "
              + GoText.quote(value.asText())));
        }
      }
      if (value.isNumber()) {
        number(value, s, path, out);
      }
      if (value.isArray()) {
        array(value, s, path, old, correlated, out);
      }
      enumCheck(value, s, path, out);
      if (value.isObject()) {
        object(value, s, path, old, correlated, out);
      }
    }
    if (correlated && old != null && !out.isEmpty() && Equality.equal(value, old)) {
      return List.of();
    }
    return out;
  }

  private void type(JsonNode value, Schema s, String path, List<Failure> out) {
    if (s.types().isEmpty()) {
      return;
    }
    String expected = String.join(",", s.types());
    if (value == null || value.isNull()) {
      if (!s.nullable()) {
        out.add(typeFailure(path, expected, "null"));
      }
      return;
    }
    String actual = jsonType(value);
    boolean numeric = s.types().contains("number") || s.types().contains("integer");
    if (!numeric && s.format() != null && Formats.supported(s.format()) && (value.isTextual() || value.isArray())) {
      return;
    }
    boolean floatInt = actual.equals("number") && s.types().contains("integer") && isWhole(value.doubleValue());
    boolean intFloat = actual.equals("integer") && s.types().contains("number");
    if (!(s.types().contains(actual) || floatInt || intFloat)) {
      out.add(typeFailure(path, expected, actual));
    }
  }

  private static Failure typeFailure(String path, String expected, String actual) {
    return new Failure(Code.TYPE, path, new com.fasterxml.jackson.databind.node.TextNode(actual), 0, 0, null,
        path + IN + " must be of type " + expected + ": " + GoText.quote(actual));
  }

  private void string(String text, Schema s, String path, List<Failure> out) {
    long length = text.codePointCount(0, text.length());
    JsonNode value = new com.fasterxml.jackson.databind.node.TextNode(text);
    if (s.maxLength() != null && length > s.maxLength()) {
      out.add(new Failure(Code.TOO_LONG, path, value, length, s.maxLength(), null, path + IN + " should be at most "
          + s.maxLength() + " chars long"));
      return;
    }
    if (s.minLength() != null && length < s.minLength()) {
      out.add(new Failure(Code.INVALID, path, value, 0, 0, null, path + IN + " should be at least " + s.minLength()
          + " chars long"));
      return;
    }
    if (s.pattern() != null && s.compiledPattern() != null && !s.compiledPattern().matcher(text).find()) {
      out.add(new Failure(Code.INVALID, path, value, 0, 0, null, path + IN + " should match '" + s.pattern() + "'"));
    }
  }

  private void number(JsonNode value, Schema s, String path, List<Failure> out) {
    boolean integer = GoText.isInt64(value);
    if (s.multipleOf() != null) {
      multipleOf(value, integer, s.multipleOf().doubleValue(), path, out);
    }
    if (s.minimum() != null) {
      double min = s.minimum().doubleValue();
      boolean below = integer
          ? (s.exclusiveMinimum() ? value.asLong() <= (long) min : value.asLong() < (long) min)
          : (s.exclusiveMinimum() ? value.doubleValue() <= min : value.doubleValue() < min);
      if (below) {
        out.add(new Failure(Code.INVALID, path, value, 0, 0, null, path + IN + " should be greater than "
            + (s.exclusiveMinimum() ? "" : "or equal to ") + bound(min, integer)));
      }
    }
    if (s.maximum() != null) {
      double max = s.maximum().doubleValue();
      boolean above = integer
          ? (s.exclusiveMaximum() ? value.asLong() >= (long) max : value.asLong() > (long) max)
          : (s.exclusiveMaximum() ? value.doubleValue() >= max : value.doubleValue() > max);
      if (above) {
        out.add(new Failure(Code.INVALID, path, value, 0, 0, null, path + IN + " should be less than "
            + (s.exclusiveMaximum() ? "" : "or equal to ") + bound(max, integer)));
      }
    }
  }

  private void multipleOf(JsonNode value, boolean integer, double factor, String path, List<Failure> out) {
    if (integer) {
      long f = (long) factor;
      if (f <= 0) {
        out.add(new Failure(Code.INVALID, path, com.fasterxml.jackson.databind.node.LongNode.valueOf(f), 0, 0, null,
            "factor MultipleOf declared for " + path + " must be positive: " + f));
      } else if (value.asLong() % f != 0) {
        out.add(new Failure(Code.INVALID, path, value, 0, 0, null, path + IN + " should be a multiple of " + f));
      }
      return;
    }
    if (factor <= 0) {
      out.add(new Failure(Code.INVALID, path, com.fasterxml.jackson.databind.node.DoubleNode.valueOf(factor), 0, 0,
          null, "factor MultipleOf declared for " + path + " must be positive: " + GoText.floatText(factor)));
      return;
    }
    double data = value.doubleValue();
    double mult = factor < 1 ? 1 / factor * data : data / factor;
    if (!isWhole(mult)) {
      out.add(new Failure(Code.INVALID, path, value, 0, 0, null, path + IN + " should be a multiple of "
          + GoText.floatText(factor)));
    }
  }

  private void array(JsonNode value, Schema s, String path, JsonNode old, boolean correlated, List<Failure> out) {
    if (s.items() != null) {
      for (int i = 0; i < value.size(); i++) {
        JsonNode item = value.get(i);
        JsonNode oldItem = correlated ? ListMaps.correlate(s, item, old) : null;
        out.addAll(node(item, s.items(), path + "[" + i + "]", oldItem, oldItem != null));
      }
    }
    long size = value.size();
    if (s.minItems() != null && size < s.minItems()) {
      out.add(new Failure(Code.INVALID, path, com.fasterxml.jackson.databind.node.LongNode.valueOf(size), 0, 0, null,
          path + IN + " should have at least " + s.minItems() + " items"));
    }
    if (s.maxItems() != null && size > s.maxItems()) {
      out.add(new Failure(Code.TOO_MANY, path, null, size, s.maxItems(), null, path + IN + " should have at most "
          + s.maxItems() + " items"));
    }
  }

  private void enumCheck(JsonNode value, Schema s, String path, List<Failure> out) {
    if (s.enumValues().isEmpty()) {
      return;
    }
    if (value != null && !value.isNull()) {
      for (JsonNode allowed : s.enumValues()) {
        if (Equality.equal(value, allowed)) {
          return;
        }
      }
    }
    out.add(new Failure(Code.ENUM, path, value, 0, 0, s.enumValues(), path + IN + " should be one of "
        + GoText.crdValue(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode()
            .addAll(s.enumValues()))));
  }

  private void object(JsonNode value, Schema s, String path, JsonNode old, boolean correlated, List<Failure> out) {
    long size = value.size();
    if (s.minProperties() != null && size < s.minProperties()) {
      out.add(new Failure(Code.INVALID, path, com.fasterxml.jackson.databind.node.LongNode.valueOf(size), 0, 0, null,
          path + IN + " should have at least " + s.minProperties() + " properties"));
    }
    if (s.maxProperties() != null && size > s.maxProperties()) {
      out.add(new Failure(Code.TOO_MANY, path, null, size, s.maxProperties(), null, path + IN
          + " should have at most " + s.maxProperties() + " properties"));
    }
    for (Map.Entry<String, JsonNode> field : value.properties()) {
      String key = field.getKey();
      Schema property = s.properties().get(key);
      JsonNode oldField = correlated && old != null && old.isObject() ? old.get(key) : null;
      if (property != null) {
        out.addAll(node(field.getValue(), property, path.isEmpty() ? key : path + "." + key, oldField,
            oldField != null));
      } else if (s.additionalProperties() != null) {
        out.addAll(node(field.getValue(), s.additionalProperties(), path + "." + key, oldField, oldField != null));
      }
    }
    for (String name : s.required()) {
      if (!value.has(name)) {
        out.add(new Failure(Code.REQUIRED, path + "." + name, null, 0, 0, null, path + "." + name + IN
            + " is required"));
      }
    }
  }

  private static SchemaError toFieldError(Failure f, String prefix) {
    String name = f.name().startsWith(".") ? f.name().substring(1) : f.name();
    String field = prefix.isEmpty() ? name : (name.isEmpty() ? prefix : prefix + "." + name);
    return switch (f.code()) {
      case REQUIRED -> new SchemaError("FieldValueRequired", field, "Required value");
      case TOO_LONG -> new SchemaError("FieldValueTooLong", field, "Too long: may not be more than " + f.limit()
          + " bytes");
      case TOO_MANY -> new SchemaError("FieldValueTooMany", field, "Too many: " + f.actual() + ": must have at most "
          + f.limit() + " items");
      case ENUM -> new SchemaError("FieldValueNotSupported", field, "Unsupported value: "
          + GoText.fieldErrorValue(f.value()) + ": supported values: " + supported(f.allowed()));
      case TYPE -> new SchemaError("FieldValueTypeInvalid", field, "Invalid value: " + GoText.fieldErrorValue(f.value())
          + ": " + f.message());
      case INVALID -> new SchemaError("FieldValueInvalid", field, "Invalid value: " + GoText.fieldErrorValue(f.value())
          + ": " + f.message());
    };
  }

  private static String supported(List<JsonNode> allowed) {
    StringBuilder out = new StringBuilder();
    for (JsonNode value : allowed) {
      String text = value.isTextual() ? value.asText() : GoText.crdJsonText(value);
      out.append(out.length() == 0 ? "" : ", ").append(GoText.quote(text));
    }
    return out.toString();
  }

  private static String bound(double bound, boolean integer) {
    return integer ? Long.toString((long) bound) : GoText.floatText(bound);
  }

  private static String jsonType(JsonNode value) {
    if (value.isTextual()) {
      return "string";
    }
    if (value.isBoolean()) {
      return "boolean";
    }
    if (value.isArray()) {
      return "array";
    }
    if (value.isObject()) {
      return "object";
    }
    return GoText.isInt64(value) ? "integer" : "number";
  }

  private static boolean isWhole(double value) {
    return !Double.isNaN(value) && !Double.isInfinite(value) && value == Math.rint(value);
  }

  /** Numbers compare by value (kube compares an int64 with a float64 enum value after conversion). */
  static final class Equality {
    private Equality() {}

    static boolean equal(JsonNode a, JsonNode b) {
      if (a == null || b == null) {
        return a == b;
      }
      return a.equals((x, y) -> {
        if (x.equals(y)) {
          return 0;
        }
        if (x.isNumber() && y.isNumber()) {
          return x.decimalValue().compareTo(y.decimalValue());
        }
        return 1;
      }, b);
    }
  }
}
