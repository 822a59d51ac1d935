package dev.ctk.contract.scenarios;

import static dev.ctk.contract.scenarios.Manifests.configMap;

import dev.ctk.contract.Observation;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.List;

/**
 * Finalizers, propagationPolicy and namespace deletion, as far as the API server itself goes: the suite compares
 * with a bare kube-apiserver, which runs neither the garbage collector nor the namespace controller (the fake runs
 * with {@code withGarbageCollection(false)}).
 */
final class DeletionScenarios {

  private static final String GROUP = "deletion";

  private DeletionScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "delete of an object with a finalizer sets deletionTimestamp and keeps it")
            .body((t, o) -> {
              t.create(t.core("configmaps"), withFinalizers(configMap("web"), "\"example.com/hold\""));
              Response deleted = t.api().delete(t.core("configmaps/web"));
              o.check("delete", deleted.outcome(), "200");
              o.check("answer kind", deleted.at("/kind"), "ConfigMap");
              o.check("deletionTimestamp", deleted.at("/metadata/deletionTimestamp"), "<time>");
              o.check("deletionGracePeriodSeconds", deleted.at("/metadata/deletionGracePeriodSeconds"), "0");
              o.check("finalizers", deleted.body().at("/metadata/finalizers"), "[\"example.com/hold\"]");
              Response read = t.api().get(t.core("configmaps/web"));
              o.check("read", read.outcome(), "200");
              o.check("read resourceVersion", Observation.order(deleted.resourceVersion(), read.resourceVersion()),
                  "same");
              Response again = t.api().delete(t.core("configmaps/web"));
              o.check("delete again", again.outcome() + " " + again.at("/kind"), "200 ConfigMap");
              o.check("delete again resourceVersion",
                  Observation.order(deleted.resourceVersion(), again.resourceVersion()), "same");
              Response update = t.api().patch(t.core("configmaps/web"), RawApi.MERGE_PATCH,
                  "{\"data\":{\"k\":\"w\"}}");
              o.check("update while deleting", update.outcome(), "200");
            }),

        Scenario.named(GROUP, "no finalizer can be added to an object being deleted").body((t, o) -> {
          t.create(t.core("configmaps"), withFinalizers(configMap("web"), "\"example.com/hold\""));
          t.api().delete(t.core("configmaps/web"));
          Response r = t.api().patch(t.core("configmaps/web"), RawApi.MERGE_PATCH,
              "{\"metadata\":{\"finalizers\":[\"example.com/hold\",\"example.com/new\"]}}");
          o.check("patch", r.outcome(), "422 Invalid");
          o.check("message", r.message(), "ConfigMap \"web\" is invalid: metadata.finalizers: Forbidden: no new "
              + "finalizers can be added if the object is being deleted, found new finalizers "
              + "[]string{\"example.com/new\"}");
        }),

        Scenario.named(GROUP, "removing the last finalizer deletes the object").body((t, o) -> {
          t.create(t.core("configmaps"), withFinalizers(configMap("web"), "\"example.com/a\",\"example.com/b\""));
          t.api().delete(t.core("configmaps/web"));
          Response first = t.api().patch(t.core("configmaps/web"), RawApi.JSON_PATCH,
              "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers/0\"}]");
          o.check("remove one", first.outcome(), "200");
          o.check("still there", t.api().get(t.core("configmaps/web")).outcome(), "200");
          Response last = t.api().patch(t.core("configmaps/web"), RawApi.MERGE_PATCH,
              "{\"metadata\":{\"finalizers\":null}}");
          o.check("remove the last", last.outcome(), "200");
          o.check("answer finalizers", last.at("/metadata/finalizers"), Observation.ABSENT);
          o.check("gone", t.api().get(t.core("configmaps/web")).outcome(), "404 NotFound");
        }),

        Scenario.named(GROUP, "Foreground deletion adds the foregroundDeletion finalizer and the owner stays")
            .body((t, o) -> {
              Response owner = t.create(t.core("configmaps"), configMap("owner"));
              t.create(t.core("configmaps"), withOwner(configMap("dependent"), owner, true));
              Response deleted = t.api().delete(t.core("configmaps/owner"), "{\"propagationPolicy\":\"Foreground\"}");
              o.check("delete", deleted.outcome() + " " + deleted.at("/kind"), "200 ConfigMap");
              o.check("finalizers", deleted.body().at("/metadata/finalizers"), "[\"foregroundDeletion\"]");
              o.check("deletionTimestamp", deleted.at("/metadata/deletionTimestamp"), "<time>");
              o.check("owner stays", t.api().get(t.core("configmaps/owner")).outcome(), "200");
              o.check("dependent stays (no garbage collector)",
                  t.api().get(t.core("configmaps/dependent")).at("/metadata/deletionTimestamp"), Observation.ABSENT);
            }),

        Scenario.named(GROUP, "Orphan deletion adds the orphan finalizer; Background deletes at once")
            .body((t, o) -> {
              Response owner = t.create(t.core("configmaps"), configMap("owner"));
              t.create(t.core("configmaps"), withOwner(configMap("dependent"), owner, false));
              Response orphan = t.api().delete(t.core("configmaps/owner"), "{\"propagationPolicy\":\"Orphan\"}");
              o.check("orphan delete", orphan.outcome() + " " + orphan.at("/kind"), "200 ConfigMap");
              o.check("orphan finalizers", orphan.body().at("/metadata/finalizers"), "[\"orphan\"]");
              o.check("dependent keeps its ownerReference",
                  t.api().get(t.core("configmaps/dependent")).body().at("/metadata/ownerReferences").size(), 1);
              t.create(t.core("configmaps"), configMap("other"));
              Response background = t.api().delete(t.core("configmaps/other"),
                  "{\"propagationPolicy\":\"Background\"}");
              o.check("background delete", background.outcome() + " " + background.at("/kind") + " "
                  + background.at("/status"), "200 Status Success");
              o.check("background gone", t.api().get(t.core("configmaps/other")).outcome(), "404 NotFound");
            }),

        Scenario.named(GROUP, "a new namespace is Active with the kubernetes finalizer")
            .knownDifference("name label", "kube 1.21 added the kubernetes.io/metadata.name label to every "
                + "namespace; kube 1.20 does not set it")
            .body((t, o) -> {
          Response ns = t.create("/api/v1/namespaces",
              "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + t.namespace() + "-x\"}}");
          o.check("phase", ns.at("/status/phase"), "Active");
          o.check("spec.finalizers", ns.body().at("/spec/finalizers"), "[\"kubernetes\"]");
          o.check("name label", ns.at("/metadata/labels/kubernetes.io~1metadata.name"), "<ns>-x");
          t.api().delete("/api/v1/namespaces/" + t.namespace() + "-x");
        }),

        Scenario.named(GROUP, "a deleted namespace turns Terminating and refuses new content").body((t, o) -> {
          String name = t.namespace() + "-x";
          t.create("/api/v1/namespaces",
              "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}");
          t.create("/api/v1/namespaces/" + name + "/configmaps", configMap("kept"));
          Response deleted = t.api().delete("/api/v1/namespaces/" + name);
          o.check("delete", deleted.outcome() + " " + deleted.at("/kind"), "200 Namespace");
          o.check("phase", deleted.at("/status/phase"), "Terminating");
          o.check("deletionTimestamp", deleted.at("/metadata/deletionTimestamp"), "<time>");
          Response create = t.api().post("/api/v1/namespaces/" + name + "/configmaps", configMap("new"));
          o.check("create inside", create.outcome(), "403 Forbidden");
          o.check("create message", create.message(), "configmaps \"new\" is forbidden: unable to create new "
              + "content in namespace <ns>-x because it is being terminated");
          o.check("content stays (no namespace controller)",
              t.api().get("/api/v1/namespaces/" + name + "/configmaps/kept").outcome(), "200");
          o.check("namespace stays", t.api().get("/api/v1/namespaces/" + name).at("/status/phase"), "Terminating");
        }));
  }

  static String withFinalizers(String json, String finalizers) {
    return json.replaceFirst("\"metadata\":\\{", "\"metadata\":{\"finalizers\":[" + finalizers + "],");
  }

  private static String withOwner(String json, Response owner, boolean blockOwnerDeletion) {
    return json.replaceFirst("\"metadata\":\\{", "\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"v1\","
        + "\"kind\":\"ConfigMap\",\"name\":\"" + owner.at("/metadata/name") + "\",\"uid\":\""
        + owner.at("/metadata/uid") + "\",\"blockOwnerDeletion\":" + blockOwnerDeletion + "}],");
  }
}
