package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Field sets of values and the removal of a field set from a value, with kube's rules: scalars, atomic values, empty
 * objects and nulls are members; a list item of a set or keyed list is a member and so are its fields; a key of a
 * free-form map is a member even when it has fields below it.
 */
final class FieldSets {

  private FieldSets() {}

  /** The paths of every field a value sets (kube's {@code ToFieldSet}). */
  static FieldSet of(JsonNode value, FieldType type) {
    FieldSet set = new FieldSet();
    collect(value, type, new ArrayList<>(), set);
    return set;
  }

  private static void collect(JsonNode value, FieldType type, List<PathElement> path, FieldSet set) {
    if (value == null) {
      return;
    }
    if (value.isObject()) {
      if (type.atomicObject()) {
        set.insert(path);
        return;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        List<PathElement> child = append(path, PathElement.field(field.getKey()));
        JsonNode v = field.getValue();
        collect(v, type.field(field.getKey()), child, set);
        if (v.isNull() || (v.isObject() && v.isEmpty()) || !type.declares(field.getKey())) {
          set.insert(child);
        }
      }
    } else if (value.isArray()) {
      if (type.listKind() == FieldType.ListKind.ATOMIC) {
        set.insert(path);
        return;
      }
      List<PathElement> elements = new ArrayList<>();
      Set<PathElement> seen = new HashSet<>();
      Set<PathElement> duplicates = new HashSet<>();
      for (JsonNode item : value) {
        PathElement pe = ListItems.elementOrNull(type, item);
        elements.add(pe);
        if (pe != null && !seen.add(pe) && duplicates.add(pe)) {
          set.insert(append(path, pe));
        }
      }
      for (int i = 0; i < value.size(); i++) {
        PathElement pe = elements.get(i);
        if (pe == null || duplicates.contains(pe)) {
          continue;
        }
        List<PathElement> child = append(path, pe);
        collect(value.get(i), type.element(), child, set);
        set.insert(child);
      }
    } else {
      set.insert(path);
    }
  }

  /**
   * The value without the fields of {@code toRemove} (kube's {@code RemoveItems}): a member goes with everything below
   * it; an object or list left empty by the removal goes too.
   *
   * @return the remaining value, or {@code null} when nothing remains
   */
  static JsonNode remove(JsonNode value, FieldSet toRemove, FieldType type) {
    if (value == null) {
      return null;
    }
    if (value.isObject()) {
      if (value.isEmpty()) {
        return null;
      }
      if (type.atomicObject()) {
        return null;
      }
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        PathElement pe = PathElement.field(field.getKey());
        if (toRemove.hasMember(pe)) {
          continue;
        }
        FieldSet below = toRemove.withPrefix(pe);
        if (below.isEmpty()) {
          out.set(field.getKey(), field.getValue().deepCopy());
          continue;
        }
        JsonNode rest = remove(field.getValue(), below, type.field(field.getKey()));
        if (rest != null) {
          out.set(field.getKey(), rest);
        }
      }
      return out.isEmpty() ? null : out;
    }
    if (value.isArray()) {
      if (value.isEmpty() || type.listKind() == FieldType.ListKind.ATOMIC) {
        return null;
      }
      ArrayNode out = JsonNodeFactory.instance.arrayNode();
      for (JsonNode item : value) {
        PathElement pe = ListItems.elementOrNull(type, item);
        if (pe != null && toRemove.hasMember(pe)) {
          continue;
        }
        FieldSet below = pe == null ? new FieldSet() : toRemove.withPrefix(pe);
        if (below.isEmpty()) {
          out.add(item.deepCopy());
          continue;
        }
        JsonNode rest = remove(item, below, type.element());
        out.add(rest == null ? JsonNodeFactory.instance.objectNode() : rest);
      }
      return out.isEmpty() ? null : out;
    }
    return value.deepCopy();
  }

  static List<PathElement> append(List<PathElement> path, PathElement element) {
    List<PathElement> out = new ArrayList<>(path.size() + 1);
    out.addAll(path);
    out.add(element);
    return out;
  }
}
