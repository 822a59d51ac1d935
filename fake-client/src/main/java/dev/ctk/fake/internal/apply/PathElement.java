package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.status.GoText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a field path, as kube's managedFields spell it: a field of an object ({@code f:replicas}), an item of
 * a keyed list ({@code k:{"name":"nginx"}}), an item of a set ({@code v:"finalizer"}) or a position in a list
 * ({@code i:0}).
 *
 * <p>Elements are ordered as kube orders them (fields, then keys, then values, then indexes), which is the order of
 * the members of a {@code fieldsV1} object.
 */
final class PathElement implements Comparable<PathElement> {

  private static final ObjectMapper JSON = new ObjectMapper();

  enum Kind { FIELD, KEY, VALUE, INDEX }

  /** One field of a list item's key: its name and value. */
  record KeyField(String name, JsonNode value) {
  }

  private final Kind kind;
  private final String name;
  private final List<KeyField> key;
  private final JsonNode value;
  private final int index;

  private PathElement(Kind kind, String name, List<KeyField> key, JsonNode value, int index) {
    this.kind = kind;
    this.name = name;
    this.key = key;
    this.value = value;
    this.index = index;
  }

  static PathElement field(String name) {
    return new PathElement(Kind.FIELD, Objects.requireNonNull(name, "name"), null, null, 0);
  }

  /** A keyed item; the fields are sorted by name, as kube sorts them. */
  static PathElement key(List<KeyField> fields) {
    List<KeyField> sorted = new ArrayList<>(fields);
    sorted.sort((a, b) -> a.name().compareTo(b.name()));
    return new PathElement(Kind.KEY, null, Collections.unmodifiableList(sorted), null, 0);
  }

  static PathElement value(JsonNode value) {
    return new PathElement(Kind.VALUE, null, null, value, 0);
  }

  static PathElement index(int index) {
    return new PathElement(Kind.INDEX, null, null, null, index);
  }

  Kind kind() {
    return kind;
  }

  /** The field name of a {@link Kind#FIELD} element, else {@code null}. */
  String fieldName() {
    return name;
  }

  boolean isField() {
    return kind == Kind.FIELD;
  }

  @Override
  public int compareTo(PathElement other) {
    if (kind != other.kind) {
      return kind.compareTo(other.kind);
    }
    switch (kind) {
      case FIELD:
        return name.compareTo(other.name);
      case KEY:
        for (int i = 0; i < Math.min(key.size(), other.key.size()); i++) {
          int c = key.get(i).name().compareTo(other.key.get(i).name());
          if (c == 0) {
            c = JsonValues.compare(key.get(i).value(), other.key.get(i).value());
          }
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(key.size(), other.key.size());
      case VALUE:
        return JsonValues.compare(value, other.value);
      default:
        return Integer.compare(index, other.index);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PathElement other && compareTo(other) == 0;
  }

  @Override
  public int hashCode() {
    return switch (kind) {
      case FIELD -> name.hashCode();
      case KEY -> 31 * key.size() + (key.isEmpty() ? 0 : key.get(0).name().hashCode());
      case VALUE -> 17;
      case INDEX -> index;
    };
  }

  /** kube's text of the element in conflict messages: {@code .replicas}, {@code [name="nginx"]}, {@code [="x"]}. */
  @Override
  public String toString() {
    switch (kind) {
      case FIELD:
        return "." + name;
      case KEY:
        List<String> parts = new ArrayList<>();
        for (KeyField field : key) {
          parts.add(field.name() + "=" + JsonValues.pathText(field.value()));
        }
        return "[" + String.join(",", parts) + "]";
      case VALUE:
        return "[=" + JsonValues.pathText(value) + "]";
      default:
        return "[" + index + "]";
    }
  }

  /** The element as a {@code fieldsV1} member name: {@code f:name}, {@code k:{...}}, {@code v:...}, {@code i:0}. */
  String serialize() {
    switch (kind) {
      case FIELD:
        return "f:" + name;
      case KEY:
        StringBuilder out = new StringBuilder("k:{");
        for (int i = 0; i < key.size(); i++) {
          out.append(i == 0 ? "" : ",");
          out.append(GoText.jsonString(key.get(i).name())).append(':').append(GoText.jsonText(key.get(i).value()));
        }
        return out.append('}').toString();
      case VALUE:
        return "v:" + GoText.jsonText(value);
      default:
        return "i:" + index;
    }
  }

  /**
   * Reads a {@code fieldsV1} member name.
   *
   * @return the element, or {@code null} for a prefix kube does not know (skipped, as kube skips it)
   * @throws IllegalArgumentException when the text is malformed
   */
  static PathElement parse(String text) {
    if (text.length() < 2 || text.charAt(1) != ':') {
      throw new IllegalArgumentException("missing colon: " + text);
    }
    String rest = text.substring(2);
    switch (text.charAt(0)) {
      case 'f':
        return field(rest);
      case 'v':
        return value(readJson(rest));
      case 'i':
        try {
          return index(Integer.parseInt(rest));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("not an index: " + text, e);
        }
      case 'k':
        JsonNode object = readJson(rest);
        if (!(object instanceof ObjectNode)) {
          throw new IllegalArgumentException("a key must be a JSON object: " + text);
        }
        List<KeyField> fields = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> field = it.next();
          fields.add(new KeyField(field.getKey(), field.getValue()));
        }
        return key(fields);
      default:
        return null;
    }
  }

  private static JsonNode readJson(String text) {
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + text, e);
    }
  }
}
