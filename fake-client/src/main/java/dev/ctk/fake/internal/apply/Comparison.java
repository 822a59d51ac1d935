package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields one value changes relative to another (kube's {@code Compare}): {@link #added}, {@link #modified} and
 * {@link #removed}. Objects and lists that appear or disappear are members themselves as well as their fields;
 * atomic values, scalars and values that change shape are compared whole. {@code metadata.managedFields} is left
 * out, as kube strips it before comparing (without copying the objects: only a {@code metadata} that has them is
 * copied, shallow).
 *
 * @param added fields the new value has and the old one lacks
 * @param modified fields both have, with different values
 * @param removed fields the old value has and the new one lacks
 */
record Comparison(FieldSet added, FieldSet modified, FieldSet removed) {

  /** Compares {@code before} with {@code after}; either may be {@code null} (absent). */
  static Comparison of(JsonNode before, JsonNode after, FieldType type) {
    Comparison c = new Comparison(new FieldSet(), new FieldSet(), new FieldSet());
    c.compare(new Position(c), before, after, type);
    return c;
  }

  /** This comparison with the given fields left out (kube's ignore filter). */
  Comparison filtered(IgnoredFields ignored) {
    return new Comparison(ignored.filter(added), ignored.filter(modified), ignored.filter(removed));
  }

  /** Fields that were added or modified (the added set itself when nothing was modified: sets are not changed). */
  FieldSet changed() {
    return modified.isEmpty() ? added : added.union(modified);
  }

  /**
   * A place in the walk: its element and, made when a path is first inserted below it, its node in each of the three
   * sets. The walk inserts into the sets' nodes directly, without building a path for every field it visits.
   */
  private static final class Position {
    private static final int ADDED = 0;
    private static final int MODIFIED = 1;
    private static final int REMOVED = 2;

    private final Position parent;
    private final PathElement element;
    private final FieldSet[] nodes = new FieldSet[3];

    /** The root: the sets themselves. */
    Position(Comparison sets) {
      parent = null;
      element = null;
      nodes[ADDED] = sets.added;
      nodes[MODIFIED] = sets.modified;
      nodes[REMOVED] = sets.removed;
    }

    private Position(Position parent, PathElement element) {
      this.parent = parent;
      this.element = element;
    }

    boolean isRoot() {
      return parent == null;
    }

    Position child(PathElement childElement) {
      return new Position(this, childElement);
    }

    /** Adds this path to a set (the root's empty path adds nothing, as in kube). */
    void insert(int set) {
      if (parent != null) {
        parent.node(set).addMember(element);
      }
    }

    private FieldSet node(int set) {
      FieldSet node = nodes[set];
      if (node == null) {
        node = parent.node(set).childToBuild(element);
        nodes[set] = node;
      }
      return node;
    }
  }

  private void compare(Position at, JsonNode before, JsonNode after, FieldType type) {
    boolean leaf;
    if (isObjectLike(before, after)) {
      leaf = type.atomicObject() || (emptyObject(before) && emptyObject(after));
      if (leaf) {
        leaf(at, before, after);
      } else {
        // the keys of both sides, each once (the sets are ordered, so the order of the walk does not matter)
        for (Iterator<String> it = fieldNames(before); it.hasNext(); ) {
          compareField(at, it.next(), before, after, type);
        }
        for (Iterator<String> it = fieldNames(after); it.hasNext(); ) {
          String key = it.next();
          if (child(before, key) == null) {
            compareField(at, key, before, after, type);
          }
        }
      }
    } else if (isListLike(before, after)) {
      leaf = type.listKind() == FieldType.ListKind.ATOMIC || (emptyList(before) && emptyList(after));
      if (leaf) {
        leaf(at, before, after);
      } else {
        compareItems(at, before, after, type);
      }
    } else {
      leaf(at, before, after);
      leaf = true;
    }
    if (!leaf) {
      if (before == null) {
        at.insert(Position.ADDED);
      } else if (after == null) {
        at.insert(Position.REMOVED);
      }
    }
  }

  private void compareField(Position at, String key, JsonNode before, JsonNode after, FieldType type) {
    JsonNode from = child(before, key);
    JsonNode to = child(after, key);
    if (at.isRoot() && key.equals("metadata")) {
      from = ManagedFields.metadataWithoutThem(from);
      to = ManagedFields.metadataWithoutThem(to);
    }
    compare(at.child(PathElement.field(key)), from, to, type.field(key));
  }

  private void leaf(Position at, JsonNode before, JsonNode after) {
    if (before == null) {
      at.insert(Position.ADDED);
    } else if (after == null) {
      at.insert(Position.REMOVED);
    } else if (!JsonValues.equal(before, after)) {
      at.insert(Position.MODIFIED);
    }
  }

  private void compareItems(Position at, JsonNode before, JsonNode after, FieldType type) {
    Map<PathElement, List<JsonNode>> left = index(before, type);
    Map<PathElement, List<JsonNode>> right = index(after, type);
    Set<PathElement> all = new LinkedHashSet<>(left.keySet());
    all.addAll(right.keySet());
    for (PathElement pe : all) {
      List<JsonNode> l = left.getOrDefault(pe, List.of());
      List<JsonNode> r = right.getOrDefault(pe, List.of());
      Position item = at.child(pe);
      if (l.size() <= 1 && r.size() <= 1) {
        compare(item, l.isEmpty() ? null : l.get(0), r.isEmpty() ? null : r.get(0), type.element());
      } else if (l.size() >= 2 && r.size() >= 2) {
        if (!sameItems(l, r)) {
          item.insert(Position.MODIFIED);
        }
      } else if (l.size() >= 2) {
        if (!r.isEmpty()) {
          compare(item, null, r.get(0), type.element());
        }
        item.insert(Position.REMOVED);
      } else {
        if (!l.isEmpty()) {
          compare(item, l.get(0), null, type.element());
        }
        item.insert(Position.ADDED);
      }
    }
  }

  private static boolean sameItems(List<JsonNode> a, List<JsonNode> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!JsonValues.equal(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static Map<PathElement, List<JsonNode>> index(JsonNode list, FieldType type) {
    Map<PathElement, List<JsonNode>> out = new LinkedHashMap<>();
    if (list == null || !list.isArray()) {
      return out;
    }
    for (JsonNode item : list) {
      PathElement pe = ListItems.elementOrNull(type, item);
      if (pe != null) {
        out.computeIfAbsent(pe, k -> new ArrayList<>()).add(item);
      }
    }
    return out;
  }

  /** Both sides are objects, or an object and an absent value or null. */
  private static boolean isObjectLike(JsonNode a, JsonNode b) {
    return (a == null || a.isNull() || a.isObject()) && (b == null || b.isNull() || b.isObject())
        && ((a != null && a.isObject()) || (b != null && b.isObject()));
  }

  private static boolean isListLike(JsonNode a, JsonNode b) {
    return (a == null || a.isNull() || a.isArray()) && (b == null || b.isNull() || b.isArray())
        && ((a != null && a.isArray()) || (b != null && b.isArray()));
  }

  private static boolean emptyObject(JsonNode node) {
    return node == null || node.isNull() || node.isEmpty();
  }

  private static boolean emptyList(JsonNode node) {
    return node == null || node.isNull() || node.isEmpty();
  }

  private static Iterator<String> fieldNames(JsonNode node) {
    return node != null && node.isObject() ? node.fieldNames() : Collections.emptyIterator();
  }

  private static JsonNode child(JsonNode node, String key) {
    return node != null && node.isObject() ? node.get(key) : null;
  }
}
