package dev.ctk.fake.internal.patch;

import dev.ctk.fake.internal.status.GoText;
import static dev.ctk.fake.internal.patch.StrategicMergePatch.DELETE;
import static dev.ctk.fake.internal.patch.StrategicMergePatch.DIRECTIVE;
import static dev.ctk.fake.internal.patch.StrategicMergePatch.MERGE;
import static dev.ctk.fake.internal.patch.StrategicMergePatch.REPLACE;
import static dev.ctk.fake.internal.patch.StrategicMergePatch.SET_ELEMENT_ORDER;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The list half of {@link StrategicMergePatch}: merging lists by merge key or as sets, list-element
 * directives, {@code $deleteFromPrimitiveList} and the element order kube produces (with or without
 * {@code $setElementOrder}).
 */
final class ListMerge {

  private ListMerge() {}

  /** Go's dynamic types of decoded JSON values, which kube compares with {@code reflect.TypeOf}. */
  private enum GoType { MAP, SLICE, STRING, INT64, FLOAT64, BOOL, NIL }

  /**
   * Merges a patch list into a stored list whose field merges ({@code patchStrategy: merge}), or
   * removes values from a list of primitives when {@code deleteList}.
   */
  static ArrayNode merge(ArrayNode original, ArrayNode patch, PatchSchema elements, String mergeKey, boolean deleteList) {
    if (original.isEmpty() && patch.isEmpty()) {
      return original;
    }
    GoType type = elementType(original, patch);
    List<JsonNode> stored = list(original);
    List<JsonNode> patchItems = list(patch);
    Set<JsonNode> fromPatch = Collections.newSetFromMap(new IdentityHashMap<>());
    List<JsonNode> merged;
    if (type != GoType.MAP) {
      if (deleteList) {
        List<JsonNode> kept = new ArrayList<>();
        for (JsonNode value : stored) {
          if (indexOf(patchItems, value, null) < 0) {
            kept.add(value);
          }
        }
        return array(kept);
      }
      merged = new ArrayList<>();
      for (JsonNode value : concat(stored, patchItems)) {
        if (indexOf(merged, value, null) < 0) {
          merged.add(value);
        }
      }
    } else {
      if (mergeKey == null) {
        throw PatchException.unclassified("cannot merge lists without merge key for string");
      }
      List<JsonNode> plain = new ArrayList<>();
      boolean replace = false;
      for (JsonNode item : patchItems) {
        JsonNode directive = item.get(DIRECTIVE);
        if (directive == null) {
          plain.add(item);
        } else if (isText(directive, DELETE)) {
          JsonNode key = item.get(mergeKey);
          if (key == null) {
            throw noMergeKey(item, mergeKey);
          }
          for (int at = find(stored, mergeKey, key); at >= 0; at = find(stored, mergeKey, key)) {
            stored.remove(at);
          }
        } else if (isText(directive, REPLACE)) {
          replace = true;
        } else if (isText(directive, MERGE)) {
          throw PatchException.unclassified("merging lists cannot yet be specified in the patch");
        } else {
          throw StrategicMergePatch.badPatchType(directive, item);
        }
      }
      if (replace) {
        stored = plain;
        plain = new ArrayList<>();
        fromPatch.addAll(stored);
      }
      merged = new ArrayList<>(stored);
      for (JsonNode item : plain) {
        JsonNode key = item.get(mergeKey);
        if (key == null) {
          throw noMergeKey(item, mergeKey);
        }
        int at = find(merged, mergeKey, key);
        if (at >= 0) {
          merged.set(at, StrategicMergePatch.mergeMap((ObjectNode) merged.get(at), (ObjectNode) item, elements));
        } else {
          merged.add(item);
          fromPatch.add(item);
        }
      }
      patchItems = plain;
    }
    List<List<JsonNode>> parts = partition(merged, patchItems, mergeKey);
    List<JsonNode> ordered = normalize(parts.get(0), parts.get(1), patchItems, stored, mergeKey, type == GoType.MAP);
    List<JsonNode> result = new ArrayList<>();
    for (JsonNode item : ordered) {
      result.add(fromPatch.contains(item) ? StrategicMergePatch.decoded(item) : item);
    }
    return array(result);
  }

  /**
   * Handles every {@code $setElementOrder/<field>} of {@code patch}: merges the field's list if the
   * patch has one, then orders the result by the directive; removes both from the patch.
   */
  static void applySetElementOrder(ObjectNode original, ObjectNode patch, PatchSchema schema) {
    List<String> keys = new ArrayList<>();
    patch.fieldNames().forEachRemaining(key -> {
      if (key.startsWith(SET_ELEMENT_ORDER)) {
        keys.add(key);
      }
    });
    for (String key : keys) {
      JsonNode order = patch.remove(key);
      if (!order.isArray()) {
        throw badArgType("[]interface {}", order);
      }
      String field = StrategicMergePatch.extractKey(key, SET_ELEMENT_ORDER, "invalid patch format of setElementOrder list");
      JsonNode originalList = original.get(field);
      JsonNode patchList = patch.get(field);
      if (originalList != null && !originalList.isArray()) {
        throw badArgType("[]interface {}", originalList);
      }
      if (patchList != null && !patchList.isArray()) {
        throw badArgType("[]interface {}", patchList);
      }
      String mergeKey = schema.mergeKey(field);
      List<JsonNode> orderItems = list(order);
      List<JsonNode> stored = originalList == null ? List.of() : list(originalList);
      List<JsonNode> patched = patchList == null ? List.of() : list(patchList);
      validateOrder(patched, orderItems, mergeKey, order, patchList);
      ArrayNode merged;
      if (originalList != null && patchList == null) {
        merged = (ArrayNode) originalList;
      } else if (originalList == null && patchList != null) {
        merged = (ArrayNode) StrategicMergePatch.newValue(patchList);
      } else if (originalList != null) {
        merged = schema.mergesList(field)
            ? merge((ArrayNode) originalList, (ArrayNode) patchList, schema.child(field), mergeKey, false)
            : (ArrayNode) StrategicMergePatch.decoded(patchList);
      } else {
        continue;
      }
      List<List<JsonNode>> parts = partition(list(merged), orderItems, mergeKey);
      GoType type = elementType(array(stored), array(patched));
      original.set(field, array(normalize(parts.get(0), parts.get(1), orderItems, stored, mergeKey, type == GoType.MAP)));
      patch.remove(field);
    }
  }

  /** kube's check that the patch list's elements appear in the {@code $setElementOrder} list in order. */
  private static void validateOrder(List<JsonNode> patchList, List<JsonNode> order, String mergeKey,
      JsonNode orderNode, JsonNode patchNode) {
    if (order.isEmpty() || patchList.isEmpty()) {
      return;
    }
    List<JsonNode> kept = new ArrayList<>();
    for (JsonNode item : patchList) {
      if (mergeKey != null && !item.isObject()) {
        throw badArgType("map[string]interface {}", item);
      }
      if (mergeKey == null || !isText(item.get(DIRECTIVE), DELETE)) {
        kept.add(item);
      }
    }
    int p = 0;
    int o = 0;
    while (p < kept.size() && o < order.size()) {
      JsonNode item = kept.get(p);
      if (item.isObject() && item.has(DIRECTIVE)) {
        p++;
        continue;
      }
      if (sameMergeKey(item, order.get(o), mergeKey)) {
        p++;
      }
      o++;
    }
    if (p < kept.size()) {
      throw PatchException.unclassified("the order in patch list:\n" + GoText.value(patchNode)
          + "\n doesn't match " + SET_ELEMENT_ORDER + " list:\n" + GoText.value(orderNode));
    }
  }

  private static boolean sameMergeKey(JsonNode left, JsonNode right, String mergeKey) {
    if (mergeKey == null) {
      return goEquals(left, right);
    }
    for (JsonNode side : List.of(left, right)) {
      if (!side.isObject()) {
        throw badArgType("map[string]interface {}", side);
      }
      if (!side.has(mergeKey)) {
        throw noMergeKey(side, mergeKey);
      }
    }
    return goEquals(left.get(mergeKey), right.get(mergeKey));
  }

  /** Splits {@code merged} into the items present in {@code by} and the server-only ones. */
  private static List<List<JsonNode>> partition(List<JsonNode> merged, List<JsonNode> by, String mergeKey) {
    List<JsonNode> present = new ArrayList<>();
    List<JsonNode> serverOnly = new ArrayList<>();
    for (JsonNode item : merged) {
      boolean found;
      if (mergeKey == null) {
        found = indexOf(by, item, null) >= 0;
      } else {
        if (!item.isObject()) {
          throw badArgType("map[string]interface {}", item);
        }
        JsonNode key = item.get(mergeKey);
        if (key == null) {
          throw noMergeKey(item, mergeKey);
        }
        found = find(by, mergeKey, key) >= 0;
      }
      (found ? present : serverOnly).add(item);
    }
    return List.of(present, serverOnly);
  }

  /**
   * kube's element order: patch items sorted by the patch (or {@code $setElementOrder}) order,
   * server-only items by the stored order, then interleaved, a server-only item going first only
   * when both are in the stored list and it comes earlier there.
   */
  private static List<JsonNode> normalize(List<JsonNode> patchItems, List<JsonNode> serverOnly,
      List<JsonNode> patchOrder, List<JsonNode> serverOrder, String mergeKey, boolean maps) {
    List<JsonNode> right = sortBy(patchItems, patchOrder, mergeKey, maps);
    List<JsonNode> left = sortBy(serverOnly, serverOrder, mergeKey, maps);
    List<JsonNode> result = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < left.size() || j < right.size()) {
      if (i >= left.size()) {
        result.add(right.get(j++));
      } else if (j >= right.size()) {
        result.add(left.get(i++));
      } else {
        int li = indexOf(serverOrder, left.get(i), mergeKey);
        int ri = indexOf(serverOrder, right.get(j), mergeKey);
        result.add(li >= 0 && ri >= 0 && li < ri ? left.get(i++) : right.get(j++));
      }
    }
    return result;
  }

  private static List<JsonNode> sortBy(List<JsonNode> items, List<JsonNode> order, String mergeKey, boolean maps) {
    List<JsonNode> sorted = new ArrayList<>();
    List<JsonNode> deletions = new ArrayList<>();
    for (JsonNode item : items) {
      if (maps && mergeKey != null) {
        sameMergeKey(item, item, mergeKey);
      }
      (maps && isText(item.get(DIRECTIVE), DELETE) ? deletions : sorted).add(item);
    }
    if (maps && mergeKey != null) {
      order.forEach(item -> sameMergeKey(item, item, mergeKey));
    }
    sorted.sort((a, b) -> {
      int ia = indexOf(order, a, mergeKey);
      int ib = indexOf(order, b, mergeKey);
      return ia >= 0 && ib >= 0 ? Integer.compare(ia, ib) : 0;
    });
    sorted.addAll(deletions);
    return sorted;
  }

  /** Index of the first item equal to {@code value} (or with the same merge key value). */
  private static int indexOf(List<JsonNode> items, JsonNode value, String mergeKey) {
    JsonNode wanted = mergeKey == null ? value : keyOf(value, mergeKey);
    for (int i = 0; i < items.size(); i++) {
      JsonNode candidate = mergeKey == null ? items.get(i) : keyOf(items.get(i), mergeKey);
      if (goEquals(candidate, wanted)) {
        return i;
      }
    }
    return -1;
  }

  private static JsonNode keyOf(JsonNode item, String mergeKey) {
    return item != null && item.isObject() ? item.get(mergeKey) : null;
  }

  /** kube's {@code findMapInSliceBasedOnKeyValue}: first map whose merge key equals {@code value}. */
  private static int find(List<JsonNode> items, String mergeKey, JsonNode value) {
    for (int i = 0; i < items.size(); i++) {
      JsonNode item = items.get(i);
      if (!item.isObject()) {
        throw PatchException.unclassified("value for key " + i + " is not a map");
      }
      if (item.has(mergeKey) && goEquals(item.get(mergeKey), value)) {
        return i;
      }
    }
    return -1;
  }

  /** The common Go type of the elements of both lists; kube refuses lists of lists and mixed lists. */
  private static GoType elementType(ArrayNode original, ArrayNode patch) {
    GoType type = null;
    for (ArrayNode list : List.of(original, patch)) {
      for (JsonNode element : list) {
        GoType current = goType(element);
        if (type == null) {
          type = current;
          if (type == GoType.SLICE) {
            throw PatchException.unprocessable("lists of lists are not supported");
          }
        } else if (type != current) {
          throw PatchException.unclassified("list element types are not identical: ["
              + GoText.value(original) + " " + GoText.value(patch) + "]");
        }
      }
    }
    if (type == null) {
      throw PatchException.unclassified("no elements in any of the given slices");
    }
    return type;
  }

  private static GoType goType(JsonNode node) {
    if (node == null || node.isNull()) {
      return GoType.NIL;
    }
    if (node.isObject()) {
      return GoType.MAP;
    }
    if (node.isArray()) {
      return GoType.SLICE;
    }
    if (node.isTextual()) {
      return GoType.STRING;
    }
    if (node.isBoolean()) {
      return GoType.BOOL;
    }
    return node.isIntegralNumber() ? GoType.INT64 : GoType.FLOAT64;
  }

  /** Go's {@code ==} on decoded JSON values: same dynamic type and value; maps and lists never equal. */
  static boolean goEquals(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b || (a == null ? b.isNull() : a.isNull());
    }
    GoType type = goType(a);
    if (type != goType(b) || type == GoType.MAP || type == GoType.SLICE) {
      return false;
    }
    switch (type) {
      case INT64:
        return a.bigIntegerValue().equals(b.bigIntegerValue());
      case FLOAT64:
        return a.doubleValue() == b.doubleValue();
      case NIL:
        return true;
      default:
        return a.equals(b);
    }
  }

  private static PatchException noMergeKey(JsonNode map, String mergeKey) {
    return PatchException.unclassified(
        "map: " + GoText.value(map) + " does not contain declared merge key: " + mergeKey);
  }

  private static PatchException badArgType(String expected, JsonNode actual) {
    return PatchException.unclassified("expected a " + expected + ", but received a " + GoText.typeName(actual));
  }

  private static boolean isText(JsonNode node, String text) {
    return node != null && node.isTextual() && node.textValue().equals(text);
  }

  private static List<JsonNode> list(JsonNode array) {
    List<JsonNode> items = new ArrayList<>();
    array.forEach(items::add);
    return items;
  }

  private static List<JsonNode> concat(List<JsonNode> a, List<JsonNode> b) {
    List<JsonNode> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static ArrayNode array(List<JsonNode> items) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    items.forEach(array::add);
    return array;
  }
}
