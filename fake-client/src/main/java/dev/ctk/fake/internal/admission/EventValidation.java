package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * kube's {@code ValidateEventUpdate} for an update through {@code events.k8s.io/v1} (an update through
 * {@code core/v1} is not checked, for compatibility): every field but {@code series} and the metadata is immutable.
 * It runs on the stored {@code core/v1} form, so its causes name the core fields ({@code message},
 * {@code count}), as kube's do; values are printed as kube 1.32 prints them (strings quoted, timestamps as Go
 * prints a time, references and sources in Go syntax), and the 422 names the core kind {@code Event}: so it is thrown
 * here, not merged with other errors of the same update.
 */
final class EventValidation {

  /** The stored field, kube's path for it, and how its value prints. */
  private static final List<String[]> IMMUTABLE = List.of(
      new String[] {"involvedObject", "involvedObject", "reference"},
      new String[] {"reason", "reason", "string"},
      new String[] {"message", "message", "string"},
      new String[] {"source", "source", "source"},
      new String[] {"firstTimestamp", "firstTimestamp", "time"},
      new String[] {"lastTimestamp", "lastTimestamp", "time"},
      new String[] {"count", "count", "number"},
      new String[] {"type", "type", "string"},
      new String[] {"eventTime", "eventTime", "time"},
      new String[] {"action", "action", "string"},
      new String[] {"related", "related", "pointer"},
      new String[] {"reportingComponent", "reportingController", "string"},
      new String[] {"reportingInstance", "reportingInstance", "string"});

  private static final DateTimeFormatter GO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSSSSS] "
      + "'+0000 UTC'").withZone(ZoneOffset.UTC);

  private EventValidation() {}

  static FieldErrors eventsUpdate(JsonNode current, JsonNode next) {
    FieldErrors errors = new FieldErrors();
    for (String[] field : IMMUTABLE) {
      JsonNode before = current.get(field[0]);
      JsonNode after = next.get(field[0]);
      if (!zero(before) || !zero(after)) {
        if (before == null || after == null || !before.equals(after)) {
          errors.invalidRendered(field[1], render(after, field[2]), "field is immutable");
        }
      }
    }
    // kube names the stored core kind in this 422 ("Event", no group), not the kind of the request's resource
    errors.throwIfAny("", "Event", next.path("metadata").path("name").asText());
    return errors;
  }

  private static boolean zero(JsonNode value) {
    return value == null || value.isNull() || value.isTextual() && value.asText().isEmpty()
        || value.isNumber() && value.asLong() == 0 || value.isObject() && value.isEmpty();
  }

  private static String render(JsonNode value, String kind) {
    return switch (kind) {
      case "string" -> GoText.quote(value == null ? "" : value.asText());
      case "number" -> String.valueOf(value == null ? 0 : value.asLong());
      case "time" -> zero(value) ? "0001-01-01 00:00:00 +0000 UTC"
          : GO_TIME.format(Instant.parse(value.asText())).replace(".000000 ", " ");
      case "source" -> "core.EventSource{Component:" + quoted(value, "component") + ", Host:" + quoted(value, "host")
          + "}";
      case "pointer" -> value == null || value.isNull() ? "null" : render(value, "reference");
      default -> "core.ObjectReference{Kind:" + quoted(value, "kind") + ", Namespace:" + quoted(value, "namespace")
          + ", Name:" + quoted(value, "name") + ", UID:" + quoted(value, "uid") + ", APIVersion:"
          + quoted(value, "apiVersion") + ", ResourceVersion:" + quoted(value, "resourceVersion") + ", FieldPath:"
          + quoted(value, "fieldPath") + "}";
    };
  }

  private static String quoted(JsonNode object, String field) {
    return GoText.quote(object == null ? "" : object.path(field).asText(""));
  }
}
