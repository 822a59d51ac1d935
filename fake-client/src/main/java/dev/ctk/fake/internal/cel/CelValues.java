package dev.ctk.fake.internal.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import dev.ctk.fake.internal.schema.Schema;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON value as CEL sees it through its schema ({@code UnstructuredToVal}): struct-typed objects become maps keyed
 * by the escaped names of the properties CEL can see (unknown and untyped fields are left out; a resource root keeps
 * {@code apiVersion}, {@code kind} and {@code metadata.name}/{@code generateName}), {@code additionalProperties}
 * objects maps keyed as written, arrays lists, integers {@code long}, numbers {@code double}, and strings with a
 * {@code byte}, {@code duration}, {@code date} or {@code date-time} format bytes, durations and timestamps.
 */
final class CelValues {

  private CelValues() {}

  /**
   * Converts a value.
   *
   * @param value the JSON value (not {@code null} itself; JSON null gives CEL's {@code null})
   * @param schema its schema
   * @param resourceRoot whether the value is the root of a resource
   * @return the CEL value
   */
  static Object of(JsonNode value, Schema schema, boolean resourceRoot) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return NullValue.NULL_VALUE;
    }
    if (schema == null || schema.intOrString() || schema.types().isEmpty()) {
      return plain(value);
    }
    switch (schema.types().get(0)) {
      case "array":
        if (!value.isArray() || schema.items() == null) {
          return plain(value);
        }
        List<Object> items = new ArrayList<>(value.size());
        value.forEach(item -> items.add(of(item, schema.items(), schema.items().embeddedResource())));
        return Collections.unmodifiableList(items);
      case "object":
        if (!value.isObject()) {
          return plain(value);
        }
        return schema.additionalProperties() != null ? map(value, schema.additionalProperties())
            : struct(value, schema, resourceRoot);
      case "string":
        return value.isTextual() ? string(value.asText(), schema.format()) : plain(value);
      case "number":
        return value.isNumber() ? (Object) value.doubleValue() : plain(value);
      case "integer":
        return value.isNumber() ? (Object) value.longValue() : plain(value);
      default:
        return plain(value);
    }
  }

  private static Map<String, Object> map(JsonNode value, Schema values) {
    Map<String, Object> out = new LinkedHashMap<>();
    value.properties().forEach(e -> out.put(e.getKey(), of(e.getValue(), values, values.embeddedResource())));
    return Collections.unmodifiableMap(out);
  }

  private static Map<String, Object> struct(JsonNode value, Schema schema, boolean resourceRoot) {
    Map<String, Object> out = new LinkedHashMap<>();
    value.properties().forEach(e -> {
      Schema property = schema.properties().get(e.getKey());
      String escaped = PropertyNames.escape(e.getKey());
      // a null in an object with properties is an absent field (has() is false), as kube's values do
      if (property != null && escaped != null && CelTypes.declared(property) && !e.getValue().isNull()) {
        out.put(escaped, of(e.getValue(), property, property.embeddedResource()));
      }
    });
    if (resourceRoot) {
      for (String field : List.of("apiVersion", "kind")) {
        if (value.path(field).isTextual()) {
          out.put(field, value.get(field).asText());
        } else {
          out.remove(field);
        }
      }
      JsonNode metadata = value.path("metadata");
      if (metadata.isObject()) {
        Map<String, Object> meta = new LinkedHashMap<>();
        for (String field : List.of("name", "generateName")) {
          if (metadata.path(field).isTextual()) {
            meta.put(field, metadata.get(field).asText());
          }
        }
        out.put("metadata", Collections.unmodifiableMap(meta));
      } else {
        out.remove("metadata");
      }
    }
    return Collections.unmodifiableMap(out);
  }

  private static Object string(String text, String format) {
    try {
      switch (format == null ? "" : format) {
        case "byte":
          return CelByteString.of(Base64.getDecoder().decode(text));
        case "duration":
          return GoDuration.parse(text);
        case "date":
          return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC);
        case "date-time":
          return dateTime(text);
        default:
          return text;
      }
    } catch (IllegalArgumentException | DateTimeParseException e) {
      // invalid formats never get here (schema validation refuses them first), except unchanged values on update
      return text;
    }
  }

  private static Instant dateTime(String text) {
    return OffsetDateTime.parse(text.replace(' ', 'T')).toInstant();
  }

  /** A value without a (usable) schema: plain JSON types. */
  static Object plain(JsonNode value) {
    if (value == null || value.isNull()) {
      return NullValue.NULL_VALUE;
    }
    if (value.isTextual()) {
      return value.asText();
    }
    if (value.isBoolean()) {
      return value.asBoolean();
    }
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.longValue();
    }
    if (value.isNumber()) {
      return value.doubleValue();
    }
    if (value.isArray()) {
      List<Object> items = new ArrayList<>(value.size());
      value.forEach(item -> items.add(plain(item)));
      return Collections.unmodifiableList(items);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    value.properties().forEach(e -> out.put(e.getKey(), plain(e.getValue())));
    return Collections.unmodifiableMap(out);
  }
}
