package dev.ctk.contract.scenarios;

import static dev.ctk.contract.scenarios.Manifests.configMap;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.contract.ContractTarget;
import dev.ctk.contract.Observation;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * Watches read over HTTP streaming until the server ends them ({@code timeoutSeconds=1}): resume from a
 * resourceVersion, selector transitions, the initial state from resourceVersion 0, 410 Gone.
 */
final class WatchScenarios {

  private static final String GROUP = "watch";
  private static final int SECONDS = 1;
  /** {@code {"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":null}} and a newline, base64-encoded. */
  private static final String BLUEPRINT_CONFIGMAPS =
      "eyJraW5kIjoiQ29uZmlnTWFwTGlzdCIsImFwaVZlcnNpb24iOiJ2MSIsIm1ldGFkYXRhIjp7fSwiaXRlbXMiOm51bGx9Cg==";

  private WatchScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "a watch from a resourceVersion replays exactly the later events").body((t, o) -> {
          Response a = t.create(t.core("configmaps"), configMap("a"));
          t.api().patch(t.core("configmaps/a"), RawApi.MERGE_PATCH, "{\"data\":{\"k\":\"2\"}}");
          t.create(t.core("configmaps"), configMap("b"));
          t.api().delete(t.core("configmaps/a"));
          settle(t);
          List<JsonNode> events = t.api().watch(t.core("configmaps?resourceVersion=" + a.resourceVersion()),
              SECONDS);
          o.check("events", render(events), List.of("MODIFIED a k=2", "ADDED b k=v", "DELETED a k=2"));
          o.check("resourceVersions increase from the start", increasing(a.resourceVersion(), events), true);
        }),

        Scenario.named(GROUP, "a label-selector watch sees objects enter as ADDED and leave as DELETED")
            .body((t, o) -> {
              Response start = t.create(t.core("configmaps"), configMap("a", "{\"app\":\"web\"}"));
              t.create(t.core("configmaps"), configMap("b", "{\"app\":\"db\"}"));
              t.api().patch(t.core("configmaps/a"), RawApi.MERGE_PATCH, labels("db"));
              t.api().patch(t.core("configmaps/b"), RawApi.MERGE_PATCH, labels("web"));
              t.api().patch(t.core("configmaps/b"), RawApi.MERGE_PATCH, "{\"data\":{\"k\":\"2\"}}");
              t.api().patch(t.core("configmaps/a"), RawApi.MERGE_PATCH, "{\"data\":{\"k\":\"3\"}}");
              settle(t);
              List<JsonNode> events = t.api().watch(t.core("configmaps?labelSelector=app%3Dweb&resourceVersion="
                  + start.resourceVersion()), SECONDS);
              o.check("events", render(events), List.of("DELETED a k=v", "ADDED b k=v", "MODIFIED b k=2"));
              o.check("DELETED carries the object as it was before it left", events.isEmpty() ? null
                  : events.get(0).at("/object/metadata/labels/app").asText(), "web");
            }),

        Scenario.named(GROUP, "a field-selector watch follows one name").body((t, o) -> {
          Response start = t.create(t.core("configmaps"), configMap("a"));
          t.create(t.core("configmaps"), configMap("b"));
          t.api().patch(t.core("configmaps/a"), RawApi.MERGE_PATCH, "{\"data\":{\"k\":\"2\"}}");
          t.api().patch(t.core("configmaps/b"), RawApi.MERGE_PATCH, "{\"data\":{\"k\":\"2\"}}");
          t.api().delete(t.core("configmaps/a"));
          settle(t);
          List<JsonNode> events = t.api().watch(t.core("configmaps?fieldSelector=metadata.name%3Da&resourceVersion="
              + start.resourceVersion()), SECONDS);
          o.check("events", render(events), List.of("MODIFIED a k=2", "DELETED a k=2"));
        }),

        Scenario.named(GROUP, "a watch from resourceVersion 0 starts with an ADDED event per object")
            .body((t, o) -> {
              t.create(t.core("configmaps"), configMap("a"));
              t.create(t.core("configmaps"), configMap("b"));
              t.api().patch(t.core("configmaps/a"), RawApi.MERGE_PATCH, "{\"data\":{\"k\":\"2\"}}");
              settle(t);
              List<JsonNode> events = t.api().watch(t.core("configmaps?resourceVersion=0"), SECONDS);
              List<String> rendered = render(events);
              rendered.sort(null);
              o.check("events (sorted)", rendered, List.of("ADDED a k=2", "ADDED b k=v"));
              List<JsonNode> fresh = t.api().watch(t.core("configmaps"), SECONDS);
              List<String> freshRendered = render(fresh);
              freshRendered.sort(null);
              o.check("events without resourceVersion (sorted)", freshRendered, List.of("ADDED a k=2", "ADDED b k=v"));
            }),

        Scenario.named(GROUP, "a watch from a resourceVersion not reached yet stays open and silent, no error")
            .body((t, o) -> {
              Response a = t.create(t.core("configmaps"), configMap("a"));
              long future = Long.parseLong(a.resourceVersion()) + 1_000_000;
              List<JsonNode> events = t.api().watch(t.core("configmaps?resourceVersion=" + future), SECONDS);
              o.check("events", render(events), List.of());
            }),

        Scenario.named(GROUP, "watch-list options are validated: 422 naming each rule broken").body((t, o) -> {
          Response noMatch = t.api().get(t.core("configmaps?watch=true&sendInitialEvents=true"));
          o.check("sendInitialEvents without resourceVersionMatch", noMatch.outcome(), "422 Invalid");
          o.check("its message", noMatch.message(), "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: "
              + "Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan");
          o.check("its causes", noMatch.causes(), List.of("FieldValueForbidden resourceVersionMatch: Forbidden: "
              + "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
          Response matchAlone = t.api().get(t.core("configmaps?watch=true&resourceVersionMatch=NotOlderThan"
              + "&resourceVersion=1"));
          o.check("resourceVersionMatch without sendInitialEvents", matchAlone.outcome() + " " + matchAlone.message(),
              "422 Invalid ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: "
                  + "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided");
          Response onList = t.api().get(t.core("configmaps?sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
              + "&resourceVersion=0"));
          o.check("sendInitialEvents on a list", onList.outcome() + " " + onList.message(), "422 Invalid "
              + "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is "
              + "forbidden for list");
        }),

        Scenario.named(GROUP, "the legacy /watch/ path is no watch-list: its options are a list's").body((t, o) -> {
          t.create(t.core("configmaps"), configMap("a"));
          settle(t);
          String legacy = "/api/v1/watch/namespaces/" + t.namespace() + "/configmaps";
          // not RawApi.watch, which adds watch=true: with it, the path's ListOptions are a watch's again
          Response stream = t.api().get(legacy + "?allowWatchBookmarks=true&timeoutSeconds=" + SECONDS);
          List<String> types = new ArrayList<>();
          for (String line : stream.text().split("\n")) {
            if (!line.isBlank()) {
              types.add(line.replaceAll("^\\{\"type\":\"([A-Z]+)\".*$", "$1"));
            }
          }
          o.check("event types (no initial-events-end bookmark)", types, List.of("ADDED"));
          Response refused = t.api().get(legacy + "?sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
              + "&resourceVersion=0");
          o.check("sendInitialEvents there", refused.outcome() + " " + refused.message(), "422 Invalid "
              + "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is "
              + "forbidden for list");
          Response continued = t.api().get(t.core("configmaps?watch=true&continue=abc"));
          o.check("a defaulted watch-list with continue", continued.outcome() + " " + continued.message(),
              "422 Invalid ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: "
                  + "resourceVersionMatch is forbidden when continue is provided");
        }),

        Scenario.named(GROUP, "sendInitialEvents=false from resourceVersion 0 sends no initial state").body((t, o) -> {
          t.create(t.core("configmaps"), configMap("a"));
          settle(t);
          List<JsonNode> events = t.api().watch(t.core("configmaps?sendInitialEvents=false"
              + "&resourceVersionMatch=NotOlderThan&resourceVersion=0"), SECONDS);
          o.check("events", render(events), List.of());
        }),

        Scenario.named(GROUP, "a watch from resourceVersion 0 with bookmarks ends its initial events with a bookmark")
            .body((t, o) -> {
              t.create(t.core("configmaps"), configMap("a"));
              settle(t);
              List<JsonNode> events = t.api().watch(t.core("configmaps?resourceVersion=0&allowWatchBookmarks=true"),
                  SECONDS);
              List<String> types = new ArrayList<>();
              events.forEach(e -> types.add(e.path("type").asText()));
              o.check("event types", types, List.of("ADDED", "BOOKMARK"));
              JsonNode bookmark = events.isEmpty() ? null : events.get(events.size() - 1).path("object");
              // 1.32 adds the empty list's JSON, base64-encoded; 1.34 and later do not
              o.check("bookmark annotations", bookmark == null ? null : bookmark.at("/metadata/annotations"),
                  "{\"k8s.io/initial-events-end\":\"true\",\"kubernetes.io/initial-events-list-blueprint\":\""
                      + BLUEPRINT_CONFIGMAPS + "\"}");
              // (before 1.34 kube's bookmark metadata also holds "creationTimestamp": null; the fake's does not, as
              // the watch package's limits say)
              t.installCrd(Manifests.widgetCrd(t.crdGroup()));
              String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
              t.create(widgets, Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":1}"));
              List<JsonNode> crEvents = t.api().watch(widgets + "?resourceVersion=0&allowWatchBookmarks=true",
                  SECONDS);
              JsonNode crBookmark = crEvents.isEmpty() ? null : crEvents.get(crEvents.size() - 1).path("object");
              String blueprint = crBookmark == null ? null
                  : crBookmark.at("/metadata/annotations/kubernetes.io~1initial-events-list-blueprint").asText("");
              o.check("custom resource blueprint, decoded", blueprint == null ? null
                  : new String(java.util.Base64.getDecoder().decode(blueprint), java.nio.charset.StandardCharsets.UTF_8)
                      .replace(t.crdGroup(), "<group>"),
                  "{\"apiVersion\":\"<group>/v1\",\"items\":[],\"kind\":\"WidgetList\"}\n");
            }),

        Scenario.named(GROUP, "a watch from a resourceVersion older than its kind's CRD ends with 410 Expired")
            .body((t, o) -> {
              // The namespace is older than the CRD: kube-apiserver's watch cache of widgets begins when the CRD is
              // established, so this resourceVersion is too old there (though well within etcd's history); so does
              // the fake's watch window of the kind.
              String before = t.api().get("/api/v1/namespaces/" + t.namespace()).resourceVersion();
              t.installCrd(Manifests.widgetCrd(t.crdGroup()));
              String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
              for (String name : List.of("a", "b", "c", "d")) {
                t.create(widgets, Manifests.widget(t.crdGroup(), "v1", name, "{\"size\":1}"));
              }
              List<JsonNode> events = t.api().watch(widgets + "?resourceVersion=" + before, SECONDS);
              o.check("events", render(events).stream()
                      .map(e -> e.replaceAll("version: \\d+ \\(\\d+\\)", "version: N (N)")).toList(),
                  List.of("ERROR 410 Expired: too old resource version: N (N)"));
              o.check("reported resourceVersion", events.isEmpty() ? null
                  : events.get(0).at("/object/message").asText().contains("version: " + before + " ("), true);
            }));
  }

  private static String labels(String app) {
    return "{\"metadata\":{\"labels\":{\"app\":\"" + app + "\"}}}";
  }

  /**
   * Returns once kube-apiserver's watch cache holds every write made so far, so that a watch replays them all: a
   * list at the current resourceVersion is answered from the cache only once the cache is that fresh (the fake
   * answers at once).
   */
  private static void settle(ContractTarget t) {
    String current = t.api().get(t.core("configmaps")).resourceVersion();
    t.api().get(t.core("configmaps?resourceVersion=" + current));
  }

  /** {@code TYPE name k=<data.k>}, or {@code ERROR code reason: message}. */
  static List<String> render(List<JsonNode> events) {
    List<String> out = new ArrayList<>();
    for (JsonNode e : events) {
      JsonNode object = e.path("object");
      String type = e.path("type").asText();
      if ("ERROR".equals(type)) {
        out.add(type + " " + object.path("code").asText() + " " + object.path("reason").asText() + ": "
            + object.path("message").asText());
      } else {
        out.add(type + " " + object.at("/metadata/name").asText() + " k=" + object.at("/data/k").asText());
      }
    }
    return out;
  }

  private static boolean increasing(String start, List<JsonNode> events) {
    String previous = start;
    for (JsonNode e : events) {
      String rv = e.at("/object/metadata/resourceVersion").asText();
      if (!"increased".equals(Observation.order(previous, rv))) {
        return false;
      }
      previous = rv;
    }
    return true;
  }
}
