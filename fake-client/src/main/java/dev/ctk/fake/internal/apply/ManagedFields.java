package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.status.GoText;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The decoded {@code metadata.managedFields} of an object: one field set per manager, keyed as kube keys them (an
 * applier by name and subresource; an updater by name, apiVersion and subresource), with the time of its last change.
 *
 * <p>Encoding writes kube's entry layout ({@code manager, operation, apiVersion, time, fieldsType, fieldsV1,
 * subresource}) sorted as kube sorts it: appliers first, then by time, manager, apiVersion and subresource.
 */
final class ManagedFields {

  static final String APPLY = "Apply";
  static final String UPDATE = "Update";

  /**
   * The key of an entry: who manages a set (kube's manager identifier).
   *
   * @param manager the field manager name
   * @param operation {@code Apply} or {@code Update}
   * @param apiVersion the apiVersion of an updater ({@code ""} for appliers: they keep one entry across versions)
   * @param subresource {@code ""}, {@code status} or {@code scale}
   */
  record EntryKey(String manager, String operation, String apiVersion, String subresource) {

    static EntryKey applier(String manager, String subresource) {
      return new EntryKey(manager, APPLY, "", subresource == null ? "" : subresource);
    }

    static EntryKey updater(String manager, String apiVersion, String subresource) {
      return new EntryKey(manager, UPDATE, apiVersion, subresource == null ? "" : subresource);
    }

    boolean applied() {
      return APPLY.equals(operation);
    }

    /** kube's manager identifier: the JSON of the entry without fields, time (and apiVersion for appliers). */
    String identity() {
      StringBuilder out = new StringBuilder("{");
      appendField(out, "manager", manager);
      appendField(out, "operation", operation);
      appendField(out, "apiVersion", apiVersion);
      appendField(out, "subresource", subresource);
      return out.append('}').toString();
    }

    private static void appendField(StringBuilder out, String name, String value) {
      if (value.isEmpty()) {
        return;
      }
      out.append(out.length() > 1 ? "," : "");
      out.append(GoText.jsonString(name)).append(':').append(GoText.jsonString(value));
    }

    /** How kube names the manager in conflict messages: {@code "kubectl" using apps/v1}. */
    String describe() {
      String text = quote(manager);
      if (!subresource.isEmpty()) {
        text += " with subresource " + quote(subresource);
      }
      return applied() ? text : text + " using " + apiVersion;
    }

    private static String quote(String text) {
      return GoText.quote(text);
    }
  }

  /**
   * One manager's fields.
   *
   * @param apiVersion the version the set was last recorded in
   * @param time RFC 3339 time of the last change, or {@code null}
   */
  record Entry(String apiVersion, String time, FieldSet fields) {
    Entry withFields(FieldSet newFields) {
      return new Entry(apiVersion, time, newFields);
    }
  }

  /** A {@code metadata.managedFields} list kube cannot decode. */
  static final class DecodeException extends Exception {
    private static final long serialVersionUID = 1L;

    DecodeException(String message) {
      super(message);
    }
  }

  private final Map<EntryKey, Entry> entries = new LinkedHashMap<>();

  ManagedFields() {}

  Map<EntryKey, Entry> entries() {
    return entries;
  }

  boolean isEmpty() {
    return entries.isEmpty();
  }

  /** A copy to change: its own map of the same entries (an entry and its set never change). */
  ManagedFields copy() {
    ManagedFields out = new ManagedFields();
    out.entries.putAll(entries);
    return out;
  }

  /**
   * An object as kube compares it, without its {@code metadata.managedFields}: when its top-level {@code metadata} has
   * them, a shallow copy of the object with a shallow copy of its {@code metadata} that leaves them out; else the
   * object itself. Every other field is the object's own, not copied: read the answer, never change it.
   */
  static ObjectNode withoutThem(ObjectNode object) {
    JsonNode metadata = object.get("metadata");
    JsonNode left = metadataWithoutThem(metadata);
    if (left == metadata) {
      return object;
    }
    ObjectNode copy = object.objectNode();
    copy.setAll(object);
    copy.set("metadata", left);
    return copy;
  }

  /**
   * A top-level {@code metadata} without its managedFields: a shallow copy when it has them, else the node itself
   * (read only, as {@link #withoutThem}).
   */
  static JsonNode metadataWithoutThem(JsonNode metadata) {
    if (!(metadata instanceof ObjectNode object) || !object.has("managedFields")) {
      return metadata;
    }
    ObjectNode copy = object.objectNode();
    copy.setAll(object);
    copy.remove("managedFields");
    return copy;
  }

  /**
   * Decodes a {@code metadata.managedFields} value.
   *
   * @param value the list, or {@code null}/missing for none
   * @throws DecodeException when an entry is malformed (kube then falls back to the live object's entries)
   */
  static ManagedFields decode(JsonNode value) throws DecodeException {
    ManagedFields out = new ManagedFields();
    if (value == null || value.isNull() || value.isMissingNode()) {
      return out;
    }
    if (!value.isArray()) {
      throw new DecodeException("managedFields must be a list");
    }
    int i = 0;
    for (JsonNode entry : value) {
      String operation = entry.path("operation").asText("");
      if (!operation.equals(APPLY) && !operation.equals(UPDATE)) {
        throw new DecodeException("operation must be `Apply` or `Update`");
      }
      String apiVersion = entry.path("apiVersion").asText("");
      if (apiVersion.isEmpty()) {
        throw new DecodeException("apiVersion must not be empty");
      }
      String fieldsType = entry.path("fieldsType").asText("");
      if (fieldsType.isEmpty()) {
        throw new DecodeException("missing fieldsType in managed fields entry " + i);
      }
      if (!fieldsType.equals("FieldsV1")) {
        throw new DecodeException("invalid fieldsType \"" + fieldsType + "\" in managed fields entry " + i);
      }
      FieldSet fields;
      try {
        fields = FieldSet.fromFieldsV1(entry.get("fieldsV1"));
      } catch (IllegalArgumentException e) {
        throw new DecodeException("error decoding set: " + e.getMessage());
      }
      String manager = entry.path("manager").asText("");
      String subresource = entry.path("subresource").asText("");
      EntryKey key = operation.equals(APPLY) ? EntryKey.applier(manager, subresource)
          : EntryKey.updater(manager, apiVersion, subresource);
      String time = entry.hasNonNull("time") ? entry.get("time").asText() : null;
      out.entries.put(key, new Entry(apiVersion, time, fields));
      i++;
    }
    return out;
  }

  /** The {@code metadata.managedFields} list, or {@code null} when there are no entries (the field is omitted). */
  ArrayNode encode() {
    if (entries.isEmpty()) {
      return null;
    }
    List<Map.Entry<EntryKey, Entry>> sorted = new ArrayList<>(entries.entrySet());
    sorted.sort(Comparator
        .comparing((Map.Entry<EntryKey, Entry> e) -> e.getKey().operation())
        .thenComparingLong(e -> seconds(e.getValue().time()))
        .thenComparing(e -> e.getKey().manager())
        .thenComparing(e -> e.getValue().apiVersion())
        .thenComparing(e -> e.getKey().subresource()));
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    for (Map.Entry<EntryKey, Entry> e : sorted) {
      ObjectNode entry = out.addObject();
      if (!e.getKey().manager().isEmpty()) {
        entry.put("manager", e.getKey().manager());
      }
      entry.put("operation", e.getKey().operation());
      entry.put("apiVersion", e.getValue().apiVersion());
      if (e.getValue().time() != null) {
        entry.put("time", e.getValue().time());
      }
      entry.put("fieldsType", "FieldsV1");
      entry.set("fieldsV1", e.getValue().fields().toFieldsV1());
      if (!e.getKey().subresource().isEmpty()) {
        entry.put("subresource", e.getKey().subresource());
      }
    }
    return out;
  }

  /** Whether both hold the same managers with the same sets and versions (times are not compared). */
  boolean sameFieldsAs(ManagedFields other) {
    if (!entries.keySet().equals(other.entries.keySet())) {
      return false;
    }
    for (Map.Entry<EntryKey, Entry> e : entries.entrySet()) {
      Entry theirs = other.entries.get(e.getKey());
      if (!e.getValue().apiVersion().equals(theirs.apiVersion())
          || !e.getValue().fields().equals(theirs.fields())) {
        return false;
      }
    }
    return true;
  }

  static long seconds(String time) {
    if (time == null) {
      return 0;
    }
    try {
      return Instant.parse(time).getEpochSecond();
    } catch (DateTimeParseException e) {
      return 0;
    }
  }
}
