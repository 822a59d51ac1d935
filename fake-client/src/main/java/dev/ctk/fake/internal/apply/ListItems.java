package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Identifies the items of set and keyed lists: the path element of an item, or kube's reason why it has none. */
final class ListItems {

  private ListItems() {}

  /** Why an item of a set or keyed list cannot be identified. */
  static final class ItemException extends Exception {
    private static final long serialVersionUID = 1L;

    ItemException(String message) {
      super(message);
    }
  }

  /**
   * The path element of a list item.
   *
   * @param listType the type of the list ({@link FieldType.ListKind#SET} or {@link FieldType.ListKind#MAP})
   * @throws ItemException with kube's text when the item cannot be identified
   */
  static PathElement element(FieldType listType, JsonNode item) throws ItemException {
    if (listType.listKind() == FieldType.ListKind.MAP && !listType.listKeys().isEmpty()) {
      if (item.isNull()) {
        throw new ItemException("associative list with keys may not have a null element");
      }
      if (!item.isObject()) {
        throw new ItemException("associative list with keys may not have non-map elements");
      }
      List<PathElement.KeyField> fields = new ArrayList<>();
      for (String key : listType.listKeys()) {
        JsonNode value = item.get(key);
        if (value == null) {
          value = listType.keyDefault(key);
        }
        if (value == null) {
          throw new ItemException("associative list with keys has an element that omits key field \"" + key
              + "\" (and doesn't have default value)");
        }
        fields.add(new PathElement.KeyField(key, value));
      }
      return PathElement.key(fields);
    }
    if (item.isObject()) {
      throw new ItemException("associative list without keys has an element that's a map type");
    }
    if (item.isArray()) {
      throw new ItemException("not supported: associative list with lists as elements");
    }
    if (item.isNull()) {
      throw new ItemException("associative list without keys has an element that's an explicit null");
    }
    return PathElement.value(item);
  }

  /** The path element of a list item, or {@code null} when it has none (stored objects are not re-validated). */
  static PathElement elementOrNull(FieldType listType, JsonNode item) {
    try {
      return element(listType, item);
    } catch (ItemException e) {
      return null;
    }
  }
}
