package dev.ctk.contract.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.contract.Observation;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.List;
import java.util.Objects;

/**
 * Events: {@code core/v1} and {@code events.k8s.io/v1} serve one stored object under two shapes (kube converts
 * {@code involvedObject}/{@code regarding}, {@code message}/{@code note}, {@code source}/{@code deprecatedSource}, the
 * timestamps and the count), so a write through one API is read, listed, patched and deleted through the other;
 * through {@code events.k8s.io/v1} an existing Event's fields are immutable (but {@code series}).
 */
final class EventScenarios {

  private static final String GROUP = "events";

  private EventScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "core/v1 and events.k8s.io/v1 Events are two views of one object").body((t, o) -> {
          Response core = t.create(t.core("events"), coreEvent("started", t.namespace()));
          Response asEvents = t.api().get(t.apis("events.k8s.io/v1", "events/started"));
          o.check("core event read as events.k8s.io/v1", withoutMetadata(asEvents), "{\"apiVersion\":"
              + "\"events.k8s.io/v1\",\"deprecatedCount\":3,\"deprecatedFirstTimestamp\":\"<time>\","
              + "\"deprecatedLastTimestamp\":\"<time>\",\"deprecatedSource\":{\"component\":\"kubelet\",\"host\":"
              + "\"node-1\"},\"eventTime\":null,\"kind\":\"Event\",\"note\":\"started it\",\"reason\":\"Started\","
              + "\"regarding\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"<ns>\"},"
              + "\"type\":\"Normal\"}");
          o.check("same uid", Objects.equals(core.at("/metadata/uid"), asEvents.at("/metadata/uid")), true);
          o.check("same resourceVersion", Observation.order(core.resourceVersion(), asEvents.resourceVersion()),
              "same");
          o.check("core event read back", withoutMetadata(t.api().get(t.core("events/started"))), "{\"apiVersion\":"
              + "\"v1\",\"count\":3,\"eventTime\":null,\"firstTimestamp\":\"<time>\",\"involvedObject\":{"
              + "\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"<ns>\"},\"kind\":\"Event\","
              + "\"lastTimestamp\":\"<time>\",\"message\":\"started it\",\"reason\":\"Started\","
              + "\"reportingComponent\":\"\",\"reportingInstance\":\"\",\"source\":{\"component\":\"kubelet\","
              + "\"host\":\"node-1\"},\"type\":\"Normal\"}");

          Response created = t.create(t.apis("events.k8s.io/v1", "events"), eventsEvent("pulled", t.namespace()));
          o.check("events.k8s.io/v1 event as created", withoutMetadata(created), "{\"action\":\"Pull\","
              + "\"apiVersion\":\"events.k8s.io/v1\",\"deprecatedFirstTimestamp\":null,"
              + "\"deprecatedLastTimestamp\":null,\"deprecatedSource\":{},\"eventTime\":\"<time>\",\"kind\":\"Event\","
              + "\"note\":\"pulled it\",\"reason\":\"Pulled\",\"regarding\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
              + "\"name\":\"p\",\"namespace\":\"<ns>\"},\"reportingController\":\"kubelet\",\"reportingInstance\":"
              + "\"node-1\",\"type\":\"Normal\"}");
          o.check("events.k8s.io/v1 event read as core/v1", withoutMetadata(t.api().get(t.core("events/pulled"))),
              "{\"action\":\"Pull\",\"apiVersion\":\"v1\",\"eventTime\":\"<time>\",\"firstTimestamp\":null,"
                  + "\"involvedObject\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"<ns>\"},"
                  + "\"kind\":\"Event\",\"lastTimestamp\":null,\"message\":\"pulled it\",\"reason\":\"Pulled\","
                  + "\"reportingComponent\":\"kubelet\",\"reportingInstance\":\"node-1\",\"source\":{},"
                  + "\"type\":\"Normal\"}");
          o.check("core list", ReadScenarios.names(t.api().get(t.core("events"))), List.of("pulled", "started"));
          o.check("events.k8s.io/v1 list", ReadScenarios.names(t.api().get(t.apis("events.k8s.io/v1", "events"))),
              List.of("pulled", "started"));

          Response immutable = t.api().patch(t.apis("events.k8s.io/v1", "events/started"), RawApi.MERGE_PATCH,
              "{\"note\":\"restarted it\",\"deprecatedCount\":4}");
          o.check("patch through events.k8s.io/v1", immutable.outcome(), "422 Invalid");
          o.check("patch through events.k8s.io/v1 message", immutable.message(), "Event \"started\" is invalid: "
              + "[message: Invalid value: \"restarted it\": field is immutable, count: Invalid value: 4: field is "
              + "immutable]");
          Response patched = t.api().patch(t.core("events/started"), RawApi.MERGE_PATCH,
              "{\"message\":\"restarted it\",\"count\":4}");
          o.check("patch through core/v1", patched.at("/message") + " " + patched.at("/count"), "restarted it 4");
          Response reread = t.api().get(t.apis("events.k8s.io/v1", "events/started"));
          o.check("patch seen through events.k8s.io/v1", reread.at("/note") + " " + reread.at("/deprecatedCount"),
              "restarted it 4");
          Response deleted = t.api().delete(t.core("events/pulled"));
          o.check("delete through core/v1", deleted.outcome(), "200");
          o.check("gone through events.k8s.io/v1", t.api().get(t.apis("events.k8s.io/v1", "events/pulled"))
              .outcome(), "404 NotFound");
        }));
  }

  private static String coreEvent(String name, String namespace) {
    return """
        {"apiVersion":"v1","kind":"Event","metadata":{"name":"%s"},
         "involvedObject":{"apiVersion":"v1","kind":"Pod","name":"p","namespace":"%s"},"reason":"Started",
         "message":"started it",
         "type":"Normal","source":{"component":"kubelet","host":"node-1"},"firstTimestamp":"2026-01-01T00:00:00Z",
         "lastTimestamp":"2026-01-01T00:00:05Z","count":3}""".formatted(name, namespace);
  }

  private static String eventsEvent(String name, String namespace) {
    return """
        {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"%s"},
         "regarding":{"apiVersion":"v1","kind":"Pod","name":"p","namespace":"%s"},"reason":"Pulled",
         "note":"pulled it","type":"Normal","action":"Pull","reportingController":"kubelet",
         "reportingInstance":"node-1","eventTime":"2026-01-01T00:00:00.000000Z"}""".formatted(name, namespace);
  }

  /** The object without {@code metadata}, as canonical JSON (compared after normalization). */
  private static JsonNode withoutMetadata(Response r) {
    if (!(r.body() instanceof ObjectNode object)) {
      return r.body();
    }
    ObjectNode copy = object.deepCopy();
    copy.remove("metadata");
    return copy;
  }
}
