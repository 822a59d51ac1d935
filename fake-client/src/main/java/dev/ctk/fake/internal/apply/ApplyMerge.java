package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Merges an applied configuration into a live object (kube's {@code TypedValue.Merge}): objects key by key unless
 * atomic, keyed lists and sets item by item, everything else replaced by the configuration. A {@code null} in the
 * configuration clears a scalar or atomic value; under a mergeable object or list it leaves the live value.
 *
 * <p>Item order follows kube: live items keep their places, the configuration orders the items it shares with the
 * live list, and its new items come where the configuration puts them.
 */
final class ApplyMerge {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ApplyMerge() {}

  /** An applied configuration that kube refuses to turn into a typed value. */
  static final class InvalidConfig extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidConfig(String message) {
      super(message);
    }
  }

  /**
   * The live object with the configuration merged in: a new tree that shares no node with {@code live} or {@code
   * config}, so callers may change it (the live object they pass shares its nodes with the stored version).
   *
   * @throws InvalidConfig when a list item of the configuration has no key, or a key twice
   */
  static JsonNode merge(JsonNode live, JsonNode config, FieldType type) throws InvalidConfig {
    validate(config, type, new ArrayList<>());
    return mergeNode(live, config, type);
  }

  /** kube validates the configuration before merging: every set or keyed list item must be identifiable once. */
  private static void validate(JsonNode value, FieldType type, List<PathElement> path) throws InvalidConfig {
    if (value == null) {
      return;
    }
    if (value.isObject() && !type.atomicObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        validate(field.getValue(), type.field(field.getKey()),
            FieldSets.append(path, PathElement.field(field.getKey())));
      }
    } else if (value.isArray() && type.listKind() != FieldType.ListKind.ATOMIC) {
      Set<PathElement> seen = new HashSet<>();
      for (int i = 0; i < value.size(); i++) {
        PathElement pe;
        try {
          pe = ListItems.element(type, value.get(i));
        } catch (ListItems.ItemException e) {
          throw new InvalidConfig(prefix(path) + "element " + i + ": " + e.getMessage());
        }
        if (!seen.add(pe)) {
          throw new InvalidConfig(prefix(path) + "duplicate entries for key " + pe);
        }
        validate(value.get(i), type.element(), FieldSets.append(path, pe));
      }
    }
  }

  private static String prefix(List<PathElement> path) {
    return path.isEmpty() ? "" : FieldSet.pathText(path) + ": ";
  }

  /** The merged value, or {@code null} when the field is to be absent. */
  private static JsonNode mergeNode(JsonNode live, JsonNode config, FieldType type) {
    if (config == null) {
      return live == null ? null : live.deepCopy();
    }
    if (live == null || live.isNull()) {
      return config.isNull() ? null : config.deepCopy();
    }
    if (config.isNull()) {
      boolean mergeable = (live.isObject() && !type.atomicObject())
          || (live.isArray() && type.listKind() != FieldType.ListKind.ATOMIC);
      return mergeable ? live.deepCopy() : null;
    }
    if (live.isObject() && config.isObject() && !type.atomicObject()) {
      if (live.isEmpty() && config.isEmpty()) {
        return config.deepCopy();
      }
      ObjectNode out = ((ObjectNode) live).deepCopy();
      for (Iterator<Map.Entry<String, JsonNode>> it = config.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        JsonNode merged = mergeNode(live.get(field.getKey()), field.getValue(), type.field(field.getKey()));
        if (merged == null) {
          out.remove(field.getKey());
        } else {
          out.set(field.getKey(), merged);
        }
      }
      return out.isEmpty() ? null : out;
    }
    if (live.isArray() && config.isArray() && type.listKind() != FieldType.ListKind.ATOMIC
        && !(live.isEmpty() && config.isEmpty())) {
      return mergeItems((ArrayNode) live, (ArrayNode) config, type);
    }
    return config.deepCopy();
  }

  /**
   * kube's item order: walk both lists; a live item the configuration lacks stays where it is; a shared item is
   * placed where the configuration puts it relative to the other shared items; a new item comes where the
   * configuration has it.
   */
  private static JsonNode mergeItems(ArrayNode live, ArrayNode config, FieldType type) {
    List<PathElement> liveKeys = new ArrayList<>();
    Map<PathElement, JsonNode> liveItems = new HashMap<>();
    for (JsonNode item : live) {
      PathElement pe = ListItems.elementOrNull(type, item);
      liveKeys.add(pe);
      if (pe != null) {
        // an item the live list holds twice is not merged with the configuration
        liveItems.put(pe, liveItems.containsKey(pe) ? NODES.nullNode() : item);
      }
    }
    List<PathElement> configKeys = new ArrayList<>();
    Map<PathElement, JsonNode> configItems = new HashMap<>();
    for (JsonNode item : config) {
      PathElement pe = ListItems.elementOrNull(type, item);
      configKeys.add(pe);
      configItems.put(pe, item);
    }
    List<PathElement> shared = new ArrayList<>();
    for (PathElement pe : configKeys) {
      if (liveItems.containsKey(pe)) {
        shared.add(pe);
      }
    }
    int nextShared = 0;
    Set<PathElement> done = new HashSet<>();
    ArrayNode out = NODES.arrayNode();
    int l = 0;
    int r = 0;
    while (l < liveKeys.size() || r < configKeys.size()) {
      if (l < liveKeys.size() && r < configKeys.size()) {
        PathElement pe = liveKeys.get(l);
        if (pe != null && pe.equals(configKeys.get(r))) {
          done.add(pe);
          add(out, mergeNode(nullAsAbsent(liveItems.get(pe)), configItems.get(pe), type.element()));
          l++;
          r++;
          nextShared++;
          continue;
        }
        if (pe != null && configItems.containsKey(pe) && nextShared < shared.size()
            && !shared.get(nextShared).equals(pe)) {
          l++;
          continue;
        }
      }
      if (l < liveKeys.size()) {
        PathElement pe = liveKeys.get(l);
        if (pe == null || !configItems.containsKey(pe)) {
          add(out, live.get(l).deepCopy());
          l++;
          continue;
        } else if (done.contains(pe)) {
          l++;
        }
      }
      if (r < configKeys.size()) {
        PathElement pe = configKeys.get(r);
        done.add(pe);
        add(out, mergeNode(nullAsAbsent(liveItems.get(pe)), configItems.get(pe), type.element()));
        r++;
        if (nextShared < shared.size() && shared.get(nextShared).equals(pe)) {
          nextShared++;
        }
      }
    }
    return out.isEmpty() ? null : out;
  }

  private static JsonNode nullAsAbsent(JsonNode node) {
    return node == null || node.isNull() ? null : node;
  }

  private static void add(ArrayNode out, JsonNode item) {
    if (item != null) {
      out.add(item);
    }
  }
}
