package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.select.FieldSelector;
import dev.ctk.fake.internal.select.LabelSelector;
import dev.ctk.fake.internal.select.SelectorException;
import dev.ctk.fake.internal.status.ApiError;

/**
 * Parses the {@code labelSelector} and {@code fieldSelector} query parameters for list, watch and
 * deletecollection; errors become 400 BadRequest. Field selectors follow kube's per-kind field labels (Pod
 * {@code status.phase}, Secret {@code type}, ...; see {@link FieldSelector#parse(String, dev.ctk.fake.internal.select.FieldLabels)}).
 */
final class Selectors {

  private Selectors() {}

  static LabelSelector labels(ApiRequest request) {
    try {
      return LabelSelector.parse(request.param("labelSelector"));
    } catch (SelectorException e) {
      throw ApiError.badRequest(e.getMessage());
    }
  }

  /**
   * The field selector of a request; {@code name} (from a URL naming one object) adds {@code metadata.name=name}.
   */
  static FieldSelector fields(ApiRequest request, ResourceType type, String name) {
    String expression = request.param("fieldSelector");
    if (name != null) {
      String byName = "metadata.name=" + name;
      expression = expression == null || expression.isBlank() ? byName : byName + "," + expression;
    }
    try {
      return FieldSelector.parse(expression, type.fieldLabels());
    } catch (SelectorException e) {
      throw ApiError.badRequest(e.getMessage());
    }
  }
}
