package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether a JSON label selector ({@code matchLabels} and {@code matchExpressions} with In, NotIn, Exists,
 * DoesNotExist) selects a label set, as kube's {@code LabelSelectorAsSelector(...).Matches(...)} decides. An
 * unknown operator selects nothing.
 */
public final class Selection {

  private Selection() {}

  /**
   * Whether {@code selector} selects an object with {@code labels}.
   *
   * @param selector a {@code LabelSelector} ({@code matchLabels}, {@code matchExpressions}); empty selects all
   * @param labels the object's {@code metadata.labels} (missing for none)
   * @return whether it is selected
   */
  public static boolean matches(JsonNode selector, JsonNode labels) {
    for (var entry : selector.path("matchLabels").properties()) {
      if (!labels.has(entry.getKey()) || !labels.get(entry.getKey()).asText().equals(entry.getValue().asText())) {
        return false;
      }
    }
    for (JsonNode expression : selector.path("matchExpressions")) {
      String key = expression.path("key").asText();
      boolean has = labels.has(key);
      boolean listed = false;
      for (JsonNode value : expression.path("values")) {
        listed |= has && labels.get(key).asText().equals(value.asText());
      }
      boolean ok = switch (expression.path("operator").asText()) {
        case "In" -> listed;
        case "NotIn" -> !listed;
        case "Exists" -> has;
        case "DoesNotExist" -> !has;
        default -> false;
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
