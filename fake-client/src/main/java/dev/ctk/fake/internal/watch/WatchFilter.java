package dev.ctk.fake.internal.watch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.select.FieldSelector;
import dev.ctk.fake.internal.select.LabelSelector;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which objects one watch (or list) selects: a collection, optionally one namespace, a label selector and a field
 * selector.
 *
 * @param storageKey collection identity ({@code group/plural})
 * @param namespace a namespace, or {@code null} for all
 * @param labels label selector (never null)
 * @param fields field selector, or {@code null} for everything
 */
public record WatchFilter(String storageKey, String namespace, LabelSelector labels, FieldSelector fields) {

  /** Whether the object is selected. */
  public boolean matches(JsonNode object) {
    JsonNode metadata = object.path("metadata");
    if (namespace != null && !namespace.equals(metadata.path("namespace").asText(""))) {
      return false;
    }
    if (!labels.isEverything() && !labels.matches(labelsOf(metadata))) {
      return false;
    }
    return fields == null || fields.isEverything() || fields.matches(object);
  }

  /** {@code metadata.labels} as a map (empty when absent). */
  public static Map<String, String> labelsOf(JsonNode metadata) {
    Map<String, String> labels = new LinkedHashMap<>();
    metadata.path("labels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
    return labels;
  }
}
