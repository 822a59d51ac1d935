package dev.ctk.fake.internal.common;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;

/**
 * JSON equality as kube-apiserver sees it after decoding: numbers compare by value ({@code 1} equals
 * {@code 1L} equals {@code 1.0}), everything else structurally.
 */
public final class SemanticEquality {

  private static final Comparator<JsonNode> NUMBERS_BY_VALUE = (a, b) -> {
    if (a.equals(b)) {
      return 0;
    }
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue());
    }
    return 1;
  };

  private SemanticEquality() {}

  /** Whether two JSON trees are equal, numbers compared by value; {@code null} equals only {@code null}. */
  public static boolean equal(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b;
    }
    return a.equals(NUMBERS_BY_VALUE, b);
  }
}
