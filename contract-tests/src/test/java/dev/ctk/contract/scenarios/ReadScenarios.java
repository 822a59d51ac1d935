package dev.ctk.contract.scenarios;

import static dev.ctk.contract.scenarios.Manifests.configMap;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.contract.Observation;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads: label selectors (every operator), field selectors (generic and Pod-specific; unsupported ones), pagination
 * with {@code limit}/{@code continue}/{@code remainingItemCount}, the list's resourceVersion, lists at an exact older
 * resourceVersion and {@code resourceVersionMatch}.
 */
final class ReadScenarios {

  private static final String GROUP = "reads";

  private ReadScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "label selectors with every operator select the same objects").body((t, o) -> {
          t.create(t.core("configmaps"), configMap("a", "{\"tier\":\"web\",\"env\":\"prod\"}"));
          t.create(t.core("configmaps"), configMap("b", "{\"tier\":\"web\"}"));
          t.create(t.core("configmaps"), configMap("c", "{\"tier\":\"db\",\"env\":\"dev\"}"));
          t.create(t.core("configmaps"), configMap("d", "{}"));
          for (String selector : List.of("tier=web", "tier==web", "tier!=web", "tier in (web,db)",
              "tier notin (web)", "env", "!env", "tier=web,env", "tier in (web),env notin (prod)", "missing=x")) {
            o.check(selector, names(t.api().get(t.core("configmaps?labelSelector=" + encode(selector)))),
                switch (selector) {
                  case "tier=web", "tier==web" -> List.of("a", "b");
                  case "tier!=web", "tier notin (web)" -> List.of("c", "d");
                  case "tier in (web,db)" -> List.of("a", "b", "c");
                  case "env" -> List.of("a", "c");
                  case "!env" -> List.of("b", "d");
                  case "tier=web,env" -> List.of("a");
                  case "tier in (web),env notin (prod)" -> List.of("b");
                  default -> List.of();
                });
          }
        }),

        Scenario.named(GROUP, "field selectors on metadata.name and metadata.namespace").body((t, o) -> {
          for (String name : List.of("a", "b", "c")) {
            t.create(t.core("configmaps"), configMap(name));
          }
          o.check("name=", names(t.api().get(t.core("configmaps?fieldSelector=metadata.name%3Db"))), List.of("b"));
          o.check("name==", names(t.api().get(t.core("configmaps?fieldSelector=metadata.name%3D%3Db"))),
              List.of("b"));
          o.check("name!=", names(t.api().get(t.core("configmaps?fieldSelector=metadata.name!%3Db"))),
              List.of("a", "c"));
          o.check("namespace", names(t.api().get("/api/v1/configmaps?fieldSelector="
              + encode("metadata.namespace=" + t.namespace() + ",metadata.name!=a"))), List.of("b", "c"));
        }),

        Scenario.named(GROUP, "Pod field selectors on status.phase and spec.nodeName").body((t, o) -> {
          t.create(t.core("pods"), Manifests.pod("unscheduled"));
          t.create(t.core("pods"), Manifests.pod("placed").replace("\"spec\":{", "\"spec\":{\"nodeName\":\"node-1\","));
          o.check("status.phase=Pending", names(t.api().get(t.core("pods?fieldSelector=status.phase%3DPending"))),
              List.of("placed", "unscheduled"));
          o.check("status.phase=Running", names(t.api().get(t.core("pods?fieldSelector=status.phase%3DRunning"))),
              List.of());
          o.check("spec.nodeName=", names(t.api().get(t.core("pods?fieldSelector=spec.nodeName%3D"))),
              List.of("unscheduled"));
          o.check("spec.nodeName=node-1", names(t.api().get(t.core("pods?fieldSelector=spec.nodeName%3Dnode-1"))),
              List.of("placed"));
        }),

        Scenario.named(GROUP, "an unsupported field selector answers 400 BadRequest").body((t, o) -> {
          Response configMaps = t.api().get(t.core("configmaps?fieldSelector=spec.foo%3Dbar"));
          o.check("configmaps", configMaps.outcome(), "400 BadRequest");
          o.check("configmaps message", configMaps.message(),
              "\"spec.foo\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
          Response pods = t.api().get(t.core("pods?fieldSelector=spec.foo%3Dbar"));
          o.check("pods", pods.outcome(), "400 BadRequest");
          o.check("pods message", pods.message(), "field label not supported: spec.foo");
        }),

        Scenario.named(GROUP, "limit and continue page through a consistent snapshot with remainingItemCount")
            .body((t, o) -> {
              for (String name : List.of("a", "b", "c", "d", "e")) {
                t.create(t.core("configmaps"), configMap(name));
              }
              Response first = t.api().get(t.core("configmaps?limit=2"));
              o.check("page 1", names(first), List.of("a", "b"));
              o.check("page 1 remainingItemCount", first.at("/metadata/remainingItemCount"), "3");
              o.check("page 1 has continue", first.at("/metadata/continue") != null, true);
              t.create(t.core("configmaps"), configMap("f"));
              Response second = t.api().get(t.core("configmaps?limit=2&continue=" + first.at("/metadata/continue")));
              o.check("page 2", names(second), List.of("c", "d"));
              o.check("page 2 remainingItemCount", second.at("/metadata/remainingItemCount"), "1");
              o.check("page 2 resourceVersion",
                  Observation.order(first.resourceVersion(), second.resourceVersion()), "same");
              Response third = t.api().get(t.core("configmaps?limit=2&continue=" + second.at("/metadata/continue")));
              o.check("page 3 (the snapshot, without f)", names(third), List.of("e"));
              o.check("page 3 continue", third.at("/metadata/continue"), Observation.ABSENT);
              o.check("page 3 remainingItemCount", third.at("/metadata/remainingItemCount"), Observation.ABSENT);
              Response withVersion = t.api().get(t.core("configmaps?limit=2&resourceVersion=1&continue="
                  + first.at("/metadata/continue")));
              o.check("continue with resourceVersion", withVersion.outcome(), "400 BadRequest");
              o.check("continue with resourceVersion message", withVersion.message(),
                  "specifying resource version is not allowed when using continue");
              o.check("fresh list", names(t.api().get(t.core("configmaps"))), List.of("a", "b", "c", "d", "e", "f"));
            }),

        Scenario.named(GROUP, "a list's resourceVersion is not older than the last write").body((t, o) -> {
          Response created = t.create(t.core("configmaps"), configMap("a"));
          Response list = t.api().get(t.core("configmaps"));
          o.check("list after create", notOlder(created.resourceVersion(), list.resourceVersion()), true);
          o.check("list kind", list.at("/kind") + " " + list.at("/apiVersion"), "ConfigMapList v1");
          o.check("item kind", list.at("/items/0/kind") + " " + list.at("/items/0/apiVersion"), "null null");
          Response updated = t.api().put(t.core("configmaps/a"), configMap("a").replace("\"v\"", "\"w\""));
          Response again = t.api().get(t.core("configmaps"));
          o.check("list after update", Observation.order(list.resourceVersion(), again.resourceVersion()),
              "increased");
          o.check("list after update not older", notOlder(updated.resourceVersion(), again.resourceVersion()), true);
          o.check("item resourceVersion", Observation.order(updated.resourceVersion(),
              again.at("/items/0/metadata/resourceVersion")), "same");
        }),

        Scenario.named(GROUP, "a list with limit at an older resourceVersion reads that exact snapshot")
            .body((t, o) -> {
              t.create(t.core("configmaps"), configMap("a"));
              Response before = t.api().get(t.core("configmaps"));
              t.create(t.core("configmaps"), configMap("b"));
              Response old = t.api().get(t.core("configmaps?limit=10&resourceVersion=" + before.resourceVersion()));
              o.check("list", old.outcome(), "200");
              o.check("items at the old resourceVersion", names(old), List.of("a"));
              o.check("list resourceVersion", Observation.order(before.resourceVersion(), old.resourceVersion()),
                  "same");
            }),

        Scenario.named(GROUP, "resourceVersionMatch: Exact reads the snapshot, paged; NotOlderThan the present")
            .body((t, o) -> {
              t.create(t.core("configmaps"), configMap("a"));
              t.create(t.core("configmaps"), configMap("c"));
              String rv = t.api().get(t.core("configmaps")).resourceVersion();
              t.create(t.core("configmaps"), configMap("b"));
              t.api().patch(t.core("configmaps/a"), RawApi.MERGE_PATCH, "{\"data\":{\"k\":\"w\"}}");
              t.api().delete(t.core("configmaps/c"));
              Response exact = t.api().get(t.core("configmaps?resourceVersionMatch=Exact&resourceVersion=" + rv));
              o.check("Exact", items(exact), List.of("a k=v", "c k=v"));
              o.check("Exact resourceVersion", Observation.order(rv, exact.resourceVersion()), "same");
              Response first = t.api().get(t.core("configmaps?limit=1&resourceVersionMatch=Exact&resourceVersion="
                  + rv));
              o.check("Exact page 1", items(first) + " remaining " + first.at("/metadata/remainingItemCount"),
                  "[a k=v] remaining 1");
              Response second = t.api().get(t.core("configmaps?limit=1&continue=" + first.at("/metadata/continue")));
              o.check("Exact page 2", items(second), List.of("c k=v"));
              o.check("Exact page 2 resourceVersion", Observation.order(rv, second.resourceVersion()), "same");
              Response newer = t.api().get(t.core("configmaps?resourceVersionMatch=NotOlderThan&resourceVersion="
                  + rv));
              o.check("NotOlderThan", items(newer), List.of("a k=w", "b k=v"));
              o.check("NotOlderThan resourceVersion", Observation.order(rv, newer.resourceVersion()), "increased");
              o.check("without resourceVersionMatch", items(t.api().get(t.core("configmaps?resourceVersion=" + rv))),
                  List.of("a k=w", "b k=v"));
              for (String query : List.of("resourceVersionMatch=Exact", "resourceVersionMatch=Exact&resourceVersion=0",
                  "resourceVersionMatch=Bogus&resourceVersion=" + rv)) {
                Response r = t.api().get(t.core("configmaps?" + query));
                String cause = switch (query) {
                  case "resourceVersionMatch=Exact" -> "Forbidden: resourceVersionMatch is forbidden unless "
                      + "resourceVersion is provided";
                  case "resourceVersionMatch=Exact&resourceVersion=0" -> "Forbidden: resourceVersionMatch "
                      + "\"exact\" is forbidden for resourceVersion \"0\"";
                  default -> "Unsupported value: \"Bogus\": supported values: \"Exact\", \"NotOlderThan\", \"\"";
                };
                String key = query.replace(rv, "<rv>");
                o.check(key, r.outcome() + ": " + r.message(), "422 Invalid: ListOptions.meta.k8s.io \"\" is invalid: "
                    + "resourceVersionMatch: " + cause);
                o.check(key + " causes", r.causes(), List.of((cause.startsWith("Forbidden") ? "FieldValueForbidden"
                    : "FieldValueNotSupported") + " resourceVersionMatch: " + cause));
                o.check(key + " details", r.at("/details/group") + " " + r.at("/details/kind") + " name="
                    + r.at("/details/name"), "meta.k8s.io ListOptions name=null");
              }
              Response bad = t.api().get(t.core("configmaps?limit=1&resourceVersion=abc"));
              o.check("a resourceVersion that is not a number", bad.outcome() + ": " + bad.message(),
                  "400 BadRequest: invalid resource version: resourceVersion: Invalid value: \"abc\": "
                      + "strconv.ParseUint: parsing \"abc\": invalid syntax");
            }));
  }

  /** {@code name k=<data.k>} per item of a list, in the order the server sent them. */
  static List<String> items(Response list) {
    if (list.code() != 200) {
      return List.of(list.outcome() + ": " + list.message());
    }
    List<String> items = new ArrayList<>();
    for (JsonNode item : list.body().path("items")) {
      items.add(item.at("/metadata/name").asText() + " k=" + item.at("/data/k").asText());
    }
    return items;
  }

  /** The names of a list's items, in the order the server sent them. */
  static List<String> names(Response list) {
    if (list.code() != 200) {
      return List.of(list.outcome() + ": " + list.message());
    }
    List<String> names = new ArrayList<>();
    for (JsonNode item : list.body().path("items")) {
      names.add(item.at("/metadata/name").asText());
    }
    return names;
  }

  static String encode(String selector) {
    return URLEncoder.encode(selector, StandardCharsets.UTF_8);
  }

  private static boolean notOlder(String write, String list) {
    return !"decreased".equals(Observation.order(write, list));
  }
}
