package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Which old list item an item of an updated list corresponds to, for ratcheting: kube correlates the items of
 * {@code x-kubernetes-list-type: map} lists by their {@code x-kubernetes-list-map-keys} and those of {@code set}
 * lists by value; items of other (atomic) lists have no old counterpart.
 */
final class ListMaps {

  private ListMaps() {}

  /**
   * The old counterpart of {@code item}, or {@code null}.
   *
   * @param list the list's schema
   * @param item the new item
   * @param oldList the old list (any node)
   */
  static JsonNode correlate(Schema list, JsonNode item, JsonNode oldList) {
    if (oldList == null || !oldList.isArray() || list.listType() == null) {
      return null;
    }
    for (JsonNode candidate : oldList) {
      if (list.listType().equals("set") && SchemaValidator.Equality.equal(candidate, item)) {
        return candidate;
      }
      if (list.listType().equals("map") && !list.listMapKeys().isEmpty() && sameKeys(list, item, candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private static boolean sameKeys(Schema list, JsonNode a, JsonNode b) {
    for (String key : list.listMapKeys()) {
      if (!SchemaValidator.Equality.equal(a.get(key), b.get(key))) {
        return false;
      }
    }
    return true;
  }
}
