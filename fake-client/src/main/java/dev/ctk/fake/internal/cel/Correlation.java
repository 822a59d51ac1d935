package dev.ctk.fake.internal.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.schema.Schema;

/**
 * Ratcheting of rule errors on update, as kube's {@code CorrelatedObject} (feature {@code CRDValidationRatcheting},
 * on by default): a value is correlated with its old value through object fields and the keys of
 * {@code x-kubernetes-list-type: map} lists; the errors of a rule that does not use {@code oldSelf} are dropped (kube
 * sends them as warnings) when its value, or else the nearest correlated ancestor, equals its old value.
 *
 * @param value the new value of the current node ({@code null} when the node is not correlated)
 * @param old its old value
 * @param schema its schema
 * @param parent the nearest correlated ancestor when this node is not correlated, else the node's parent
 */
record Correlation(JsonNode value, JsonNode old, Schema schema, Correlation parent) {

  /** No correlation at all (create, status writes): nothing is ratcheted. */
  static final Correlation NONE = new Correlation(null, null, null, null);

  /** The root of an update. */
  static Correlation root(JsonNode value, JsonNode old, Schema schema) {
    return new Correlation(value, old, schema, null);
  }

  private boolean correlated() {
    return value != null;
  }

  /** Whether errors of the current node are dropped. */
  boolean ratchets() {
    if (correlated()) {
      return equal(value, old);
    }
    return parent != null && parent.correlated() && equal(parent.value, parent.old);
  }

  Correlation field(String name, Schema child) {
    if (!correlated()) {
      return this;
    }
    if (parent == null && (name.equals("apiVersion") || name.equals("kind"))) {
      return NONE;
    }
    JsonNode next = value.isObject() ? value.get(name) : null;
    JsonNode previous = old != null && old.isObject() ? old.get(name) : null;
    if (next == null || previous == null) {
      return new Correlation(null, null, child, this);
    }
    return new Correlation(next, previous, child, this);
  }

  Correlation item(int index, Schema child) {
    if (!correlated()) {
      return this;
    }
    JsonNode next = value.isArray() && index < value.size() ? value.get(index) : null;
    JsonNode previous = next == null ? null : RuleNode.mapListItem(schema, next, old);
    if (previous == null) {
      return new Correlation(null, null, child, this);
    }
    return new Correlation(next, previous, child, this);
  }

  /** JSON equality, numbers compared by value. */
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
