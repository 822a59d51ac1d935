package dev.ctk.fake.internal.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The two views of one stored Event, as kube-apiserver converts them: objects are kept as {@code core/v1} Events;
 * {@code events.k8s.io/v1} reads and writes them with kube's field names ({@code regarding}, {@code note},
 * {@code deprecatedSource}, {@code deprecatedFirstTimestamp}, {@code deprecatedLastTimestamp},
 * {@code deprecatedCount}, {@code reportingController}). Each view answers the zero values kube's Go types print
 * ({@code core/v1}: {@code involvedObject: {}}, {@code source: {}}, {@code firstTimestamp}, {@code lastTimestamp}
 * and {@code eventTime} {@code null}, {@code reportingComponent} and {@code reportingInstance} {@code ""};
 * {@code events.k8s.io/v1}: {@code regarding: {}}, {@code deprecatedSource: {}}, the two timestamps and
 * {@code eventTime} {@code null}) and leaves out the empty ones Go omits.
 */
final class EventForms {

  /** core/v1 field, events.k8s.io/v1 field. */
  private static final List<String[]> RENAMED = List.of(
      new String[] {"involvedObject", "regarding"},
      new String[] {"message", "note"},
      new String[] {"source", "deprecatedSource"},
      new String[] {"firstTimestamp", "deprecatedFirstTimestamp"},
      new String[] {"lastTimestamp", "deprecatedLastTimestamp"},
      new String[] {"count", "deprecatedCount"},
      new String[] {"reportingComponent", "reportingController"});

  /** The core/v1 view: the stored form, with kube's zero values. */
  static final StoredForm CORE = new StoredForm() {
    @Override
    public String storageGroup() {
      return "";
    }

    @Override
    public ObjectNode toStorage(ObjectNode served) {
      return withoutZeroValues(served);
    }

    @Override
    public ObjectNode fromStorage(ObjectNode stored) {
      if (stored.has("involvedObject") && stored.has("source") && stored.has("firstTimestamp")
          && stored.has("lastTimestamp") && stored.has("eventTime") && stored.has("reportingComponent")
          && stored.has("reportingInstance")) {
        return stored;
      }
      ObjectNode out = stored.deepCopy();
      zeroObject(out, "involvedObject");
      zeroObject(out, "source");
      zeroNull(out, "firstTimestamp");
      zeroNull(out, "lastTimestamp");
      zeroNull(out, "eventTime");
      if (!out.has("reportingComponent")) {
        out.put("reportingComponent", "");
      }
      if (!out.has("reportingInstance")) {
        out.put("reportingInstance", "");
      }
      return out;
    }
  };

  /** The events.k8s.io/v1 view. */
  static final StoredForm EVENTS_V1 = new StoredForm() {
    @Override
    public String storageGroup() {
      return "";
    }

    @Override
    public ObjectNode toStorage(ObjectNode served) {
      for (String[] names : RENAMED) {
        // a field of the other view is unknown to this one: kube's decoder drops it
        served.remove(names[0]);
      }
      for (String[] names : RENAMED) {
        JsonNode value = served.remove(names[1]);
        if (value != null && !value.isNull()) {
          served.set(names[0], value);
        }
      }
      return withoutZeroValues(served);
    }

    @Override
    public ObjectNode fromStorage(ObjectNode stored) {
      ObjectNode out = stored.deepCopy();
      for (String[] names : RENAMED) {
        JsonNode value = out.remove(names[0]);
        if (value != null && !empty(value)) {
          out.set(names[1], value);
        }
      }
      out.remove("reportingInstance");
      JsonNode instance = stored.get("reportingInstance");
      if (instance != null && !empty(instance)) {
        out.set("reportingInstance", instance);
      }
      for (String omitted : List.of("action", "reason", "type")) {
        if (out.has(omitted) && empty(out.get(omitted))) {
          out.remove(omitted);
        }
      }
      zeroObject(out, "regarding");
      zeroObject(out, "deprecatedSource");
      zeroNull(out, "deprecatedFirstTimestamp");
      zeroNull(out, "deprecatedLastTimestamp");
      zeroNull(out, "eventTime");
      return out;
    }
  };

  private EventForms() {}

  /** The form of a built-in kind's resource, or {@code null} for the resources kept as they are served. */
  static StoredForm of(String group, String kind) {
    if (!kind.equals("Event")) {
      return null;
    }
    return group.isEmpty() ? CORE : group.equals("events.k8s.io") ? EVENTS_V1 : null;
  }

  /**
   * The stored form holds no zero value the views add back, so that a write that changes nothing (a patch of a
   * view's zero values) stores an equal object.
   */
  private static ObjectNode withoutZeroValues(ObjectNode event) {
    for (String field : List.of("involvedObject", "source")) {
      JsonNode value = event.get(field);
      if (value != null && (value.isNull() || value.isObject() && value.isEmpty())) {
        event.remove(field);
      }
    }
    for (String field : List.of("firstTimestamp", "lastTimestamp", "eventTime", "reportingComponent",
        "reportingInstance", "count", "message", "reason", "type", "action")) {
      if (event.has(field) && empty(event.get(field))) {
        event.remove(field);
      }
    }
    return event;
  }

  private static boolean empty(JsonNode value) {
    return value.isNull() || value.isTextual() && value.asText().isEmpty()
        || value.isNumber() && value.asLong() == 0;
  }

  private static void zeroObject(ObjectNode object, String field) {
    if (!object.has(field) || object.get(field).isNull()) {
      object.putObject(field);
    }
  }

  private static void zeroNull(ObjectNode object, String field) {
    if (!object.has(field)) {
      object.putNull(field);
    }
  }
}
