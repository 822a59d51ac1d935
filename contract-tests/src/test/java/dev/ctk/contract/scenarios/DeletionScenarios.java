package dev.ctk.contract.scenarios;

import static dev.ctk.contract.scenarios.Manifests.configMap;
import static dev.ctk.contract.scenarios.Manifests.deployment;
import static org.awaitility.Awaitility.await;

import dev.ctk.contract.ContractTarget;
import dev.ctk.contract.Observation;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Finalizers, propagationPolicy and namespace deletion. Most scenarios go as far as the API server itself goes, as
 * a bare kube-apiserver (no garbage collector, no namespace controller) answers: the fake runs them with garbage
 * collection off. Two run the fake with its (asynchronous) collector on, to show that a deleted namespace still
 * answers as a bare API server's does until the namespace controller's grace period ends; and those that
 * {@link Scenario.Builder#needsClusterControllers() need kube-controller-manager} (objects whose owners do not
 * exist, the namespace controller's work) skip on a real server without it.
 */
final class DeletionScenarios {

  private static final String GROUP = "deletion";
  /** How long a controller-manager may take (the namespace controller waits 5 seconds before it starts). */
  private static final Duration CONTROLLER_WAIT = Duration.ofSeconds(60);
  /** A uid no object has. */
  private static final String ABSENT_UID = "0c7e6b3a-2f41-4d7e-9a55-000000000000";

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

        Scenario.named(GROUP, "a delete without a policy keeps the object's own foregroundDeletion finalizer")
            .body((t, o) -> {
              t.create(t.core("configmaps"), withFinalizers(configMap("owner"), "\"foregroundDeletion\""));
              Response deleted = t.api().delete(t.core("configmaps/owner"));
              o.check("delete", deleted.outcome() + " " + deleted.at("/kind"), "200 ConfigMap");
              o.check("finalizers", deleted.body().at("/metadata/finalizers"), "[\"foregroundDeletion\"]");
              o.check("owner stays", t.api().get(t.core("configmaps/owner")).outcome(), "200");
            }),

        Scenario.named(GROUP, "a batch/v1 Job deleted without a policy gets the orphan finalizer")
            .body((t, o) -> {
              t.create(t.apis("batch/v1", "jobs"), "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":"
                  + "{\"name\":\"once\"},\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"Never\","
                  + "\"containers\":[{\"name\":\"main\",\"image\":\"busybox\"}]}}}}");
              Response deleted = t.api().delete(t.apis("batch/v1", "jobs/once"));
              o.check("delete", deleted.outcome() + " " + deleted.at("/kind"), "200 Job");
              o.check("finalizers", deleted.body().at("/metadata/finalizers"), "[\"orphan\"]");
              Response background = t.api().delete(t.apis("batch/v1", "jobs/once"),
                  "{\"propagationPolicy\":\"Background\"}");
              o.check("delete again in the background", background.outcome(), "200");
            }),

        Scenario.named(GROUP, "an Event deleted in the foreground goes at once (no garbage collection for Events)")
            .body((t, o) -> {
              t.create(t.core("events"), "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":"
                  + "\"e\"},\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"" + t.namespace()
                  + "\"},\"reason\":\"Test\",\"message\":\"m\"}");
              Response deleted = t.api().delete(t.core("events/e"), "{\"propagationPolicy\":\"Foreground\"}");
              o.check("delete", deleted.outcome() + " " + deleted.at("/kind") + " " + deleted.at("/status"),
                  "200 Status Success");
              o.check("gone", t.api().get(t.core("events/e")).outcome(), "404 NotFound");
            }),

        Scenario.named(GROUP, "orphanDependents false on an object that stays is answered 202 Accepted")
            .body((t, o) -> {
              t.create(t.core("configmaps"), withFinalizers(configMap("held"), "\"example.com/hold\""));
              Response deleted = t.api().delete(t.core("configmaps/held"), "{\"orphanDependents\":false}");
              o.check("delete", deleted.outcome() + " " + deleted.at("/kind"), "202 ConfigMap");
              t.create(t.core("configmaps"), configMap("plain"));
              Response removed = t.api().delete(t.core("configmaps/plain"), "{\"orphanDependents\":false}");
              o.check("removed at once", removed.outcome() + " " + removed.at("/kind"), "200 Status");
            }),

        Scenario.named(GROUP, "empty query values of a delete are values: orphanDependents true, policy refused")
            .body((t, o) -> {
              t.create(t.core("configmaps"), withFinalizers(configMap("held"), "\"example.com/hold\""));
              Response both = t.api().delete(t.core("configmaps/held?orphanDependents=&propagationPolicy=Foreground"));
              o.check("both set", both.outcome() + " " + both.message(), "422 Invalid DeleteOptions.meta.k8s.io \"\" "
                  + "is invalid: propagationPolicy: Invalid value: \"Foreground\": orphanDependents and "
                  + "deletionPropagation cannot be both set");
              Response emptyPolicy = t.api().delete(t.core("configmaps/held?propagationPolicy="));
              o.check("empty policy", emptyPolicy.outcome() + " " + emptyPolicy.message(), "422 Invalid "
                  + "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"\": "
                  + "supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"");
              Response emptyOrphan = t.api().delete(t.core("configmaps/held?orphanDependents="));
              o.check("empty orphanDependents", emptyOrphan.outcome() + " " + emptyOrphan.body().at("/metadata/finalizers"),
                  "200 [\"example.com/hold\",\"orphan\"]");
            }),

        Scenario.named(GROUP, "kube-public may not be deleted")
            .body((t, o) -> {
              Response refused = t.api().delete("/api/v1/namespaces/kube-public");
              o.check("delete", refused.outcome(), "403 Forbidden");
              o.check("message", refused.message(), "namespaces \"kube-public\" is forbidden: this namespace may not "
                  + "be deleted");
              o.check("details", refused.body().at("/details"), "{\"kind\":\"namespaces\",\"name\":\"kube-public\"}");
              o.check("still there", t.api().get("/api/v1/namespaces/kube-public").at("/metadata/deletionTimestamp"),
                  Observation.ABSENT);
            }),

        Scenario.named(GROUP, "a Foreground deletion of two objects that own each other ends")
            .needsClusterControllers()
            .body((t, o) -> {
              Response a = t.create(t.core("configmaps"), configMap("a"));
              Response b = t.create(t.core("configmaps"), withOwner(configMap("b"), a, true));
              Response owned = t.api().patch(t.core("configmaps/a"), RawApi.MERGE_PATCH, "{\"metadata\":"
                  + "{\"ownerReferences\":[" + reference("ConfigMap", "b", b.at("/metadata/uid"), true) + "]}}");
              o.check("cycle made", owned.outcome(), "200");
              t.api().delete(t.core("configmaps/a"), "{\"propagationPolicy\":\"Foreground\"}");
              o.check("a gone", awaitGone(t, t.core("configmaps/a")), "404 NotFound");
              o.check("b gone", awaitGone(t, t.core("configmaps/b")), "404 NotFound");
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
          o.check("deletionGracePeriodSeconds", deleted.at("/metadata/deletionGracePeriodSeconds"),
              Observation.ABSENT);
          Response create = t.api().post("/api/v1/namespaces/" + name + "/configmaps", configMap("new"));
          o.check("create inside", create.outcome(), "403 Forbidden");
          o.check("create message", create.message(), "configmaps \"new\" is forbidden: unable to create new "
              + "content in namespace <ns>-x because it is being terminated");
          o.check("content stays (no namespace controller)",
              t.api().get("/api/v1/namespaces/" + name + "/configmaps/kept").outcome(), "200");
          o.check("namespace stays", t.api().get("/api/v1/namespaces/" + name).at("/status/phase"), "Terminating");
        }),

        Scenario.named(GROUP, "a deleted namespace answers Terminating, and a GET right after still sees it")
            .fake(fake -> fake.withGarbageCollection(true))
            .body((t, o) -> {
              String path = "/api/v1/namespaces/" + t.namespace() + "-x";
              t.create("/api/v1/namespaces", namespace(t.namespace() + "-x"));
              t.create(path + "/configmaps", configMap("kept"));
              Response deleted = t.api().delete(path);
              o.check("delete", deleted.outcome() + " " + deleted.at("/kind"), "200 Namespace");
              o.check("phase", deleted.at("/status/phase"), "Terminating");
              o.check("spec.finalizers", deleted.body().at("/spec/finalizers"), "[\"kubernetes\"]");
              Response read = t.api().get(path);
              o.check("read", read.outcome() + " " + read.at("/status/phase"), "200 Terminating");
              o.check("read deletionTimestamp", read.at("/metadata/deletionTimestamp"), "<time>");
              o.check("read resourceVersion", Observation.order(deleted.resourceVersion(), read.resourceVersion()),
                  "same");
              o.check("content untouched during the grace period", t.api().get(path + "/configmaps/kept").outcome(),
                  "200");
            }),

        Scenario.named(GROUP, "a create in a Terminating namespace answers 403 Forbidden")
            .fake(fake -> fake.withGarbageCollection(true))
            .body((t, o) -> {
              String path = "/api/v1/namespaces/" + t.namespace() + "-x";
              t.create("/api/v1/namespaces", namespace(t.namespace() + "-x"));
              t.api().delete(path);
              Response named = t.api().post(path + "/configmaps", configMap("late"));
              o.check("create", named.outcome(), "403 Forbidden");
              o.check("message", named.message(), "configmaps \"late\" is forbidden: unable to create new content in "
                  + "namespace <ns>-x because it is being terminated");
              o.check("causes", named.causes(),
                  "[NamespaceTerminating metadata.namespace: namespace <ns>-x is being terminated]");
              Response generated = t.api().post("/apis/apps/v1/namespaces/" + t.namespace() + "-x/deployments",
                  deployment("web").replace("\"name\":\"web\"},", "\"generateName\":\"web-\"},"));
              o.check("create with generateName", generated.outcome(), "403 Forbidden");
              o.check("message with generateName", generated.message(), "deployments.apps \"web-\" is forbidden: "
                  + "unable to create new content in namespace <ns>-x because it is being terminated");
              o.check("details with generateName", generated.body().at("/details"), "{\"causes\":[{\"field\":"
                  + "\"metadata.namespace\",\"message\":\"namespace <ns>-x is being terminated\",\"reason\":"
                  + "\"NamespaceTerminating\"}],\"group\":\"apps\",\"kind\":\"deployments\",\"name\":\"web-\"}");
            }),

        Scenario.named(GROUP, "an object whose owner does not exist is garbage-collected")
            .needsClusterControllers()
            .body((t, o) -> {
              Response created = t.api().post(t.core("configmaps"),
                  withOwners(configMap("orphan"), reference("ConfigMap", "ghost", ABSENT_UID, false)));
              o.check("create", created.outcome(), "201");
              o.check("collected", awaitGone(t, t.core("configmaps/orphan")), "404 NotFound");
            }),

        Scenario.named(GROUP, "an owner of the same name with another uid counts as absent")
            .needsClusterControllers()
            .body((t, o) -> {
              Response first = t.create(t.core("configmaps"), configMap("owner"));
              t.api().delete(t.core("configmaps/owner"));
              t.create(t.core("configmaps"), configMap("owner"));
              t.create(t.core("configmaps"), withOwner(configMap("stale"), first, false));
              o.check("collected", awaitGone(t, t.core("configmaps/stale")), "404 NotFound");
              o.check("owner stays", t.api().get(t.core("configmaps/owner")).outcome(), "200");
            }),

        Scenario.named(GROUP, "a reference to a live uid under another name or kind counts as absent")
            .needsClusterControllers()
            .body((t, o) -> {
              Response owner = t.create(t.core("configmaps"), configMap("owner"));
              String uid = owner.at("/metadata/uid");
              t.create(t.core("configmaps"), withOwners(configMap("typo"), reference("ConfigMap", "ownr", uid, false)));
              t.create(t.core("configmaps"), withOwners(configMap("kind"), reference("Secret", "owner", uid, false)));
              t.create(t.core("configmaps"), withOwner(configMap("right"), owner, false));
              o.check("wrong name collected", awaitGone(t, t.core("configmaps/typo")), "404 NotFound");
              o.check("wrong kind collected", awaitGone(t, t.core("configmaps/kind")), "404 NotFound");
              o.check("right reference stays", t.api().get(t.core("configmaps/right")).outcome(), "200");
              o.check("owner stays", t.api().get(t.core("configmaps/owner")).outcome(), "200");
            }),

        Scenario.named(GROUP, "an object with a live owner loses only its reference to an absent one")
            .needsClusterControllers()
            .body((t, o) -> {
              Response live = t.create(t.core("configmaps"), configMap("live"));
              t.create(t.core("configmaps"), withOwners(configMap("shared"),
                  reference("ConfigMap", "live", live.at("/metadata/uid"), false) + ","
                      + reference("ConfigMap", "ghost", ABSENT_UID, false)));
              Response shared = awaitRead(t, t.core("configmaps/shared"), "one ownerReference left",
                  r -> r.body().at("/metadata/ownerReferences").size() == 1);
              o.check("references left", shared.body().at("/metadata/ownerReferences/0/name"), "live");
            }),

        Scenario.named(GROUP, "the namespace controller empties a deleted namespace, says what holds it, then removes "
                + "it")
            .needsClusterControllers()
            // end states are compared, not how long the controller waited first (kube: 5 seconds)
            .fake(fake -> fake.withNamespaceDeletionGracePeriod(Duration.ofMillis(100)))
            .body((t, o) -> {
              String path = "/api/v1/namespaces/" + t.namespace() + "-y";
              t.create("/api/v1/namespaces", namespace(t.namespace() + "-y"));
              t.create(path + "/configmaps", configMap("plain"));
              t.create(path + "/configmaps", withFinalizers(configMap("held"), "\"example.com/hold\""));
              t.api().delete(path);
              Response held = awaitRead(t, path, "condition NamespaceContentRemaining", r -> r.body()
                  .at("/status/conditions").findValuesAsText("type").contains("NamespaceContentRemaining"));
              List<String> conditions = new ArrayList<>();
              held.body().at("/status/conditions").forEach(c -> conditions.add(c.path("type").asText() + " "
                  + c.path("status").asText() + " " + c.path("reason").asText() + ": " + c.path("message").asText()));
              o.check("conditions", conditions, List.of(
                  "NamespaceDeletionDiscoveryFailure False ResourcesDiscovered: All resources successfully discovered",
                  "NamespaceDeletionGroupVersionParsingFailure False ParsedGroupVersions: All legacy kube types "
                      + "successfully parsed",
                  "NamespaceDeletionContentFailure False ContentDeleted: All content successfully deleted, may be "
                      + "waiting on finalization",
                  "NamespaceContentRemaining True SomeResourcesRemain: Some resources are remaining: configmaps. has "
                      + "1 resource instances",
                  "NamespaceFinalizersRemaining True SomeFinalizersRemain: Some content in the namespace has "
                      + "finalizers remaining: example.com/hold in 1 resource instances"));
              o.check("plain", t.api().get(path + "/configmaps/plain").outcome(), "404 NotFound");
              o.check("held", t.api().get(path + "/configmaps/held").at("/metadata/deletionTimestamp"), "<time>");
              t.api().patch(path + "/configmaps/held", RawApi.MERGE_PATCH, "{\"metadata\":{\"finalizers\":null}}");
              o.check("namespace removed", awaitGone(t, path), "404 NotFound");
            }));
  }

  static String withFinalizers(String json, String finalizers) {
    return json.replaceFirst("\"metadata\":\\{", "\"metadata\":{\"finalizers\":[" + finalizers + "],");
  }

  private static String namespace(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}";
  }

  private static String withOwner(String json, Response owner, boolean blockOwnerDeletion) {
    return withOwners(json, reference("ConfigMap", owner.at("/metadata/name"), owner.at("/metadata/uid"),
        blockOwnerDeletion));
  }

  private static String withOwners(String json, String references) {
    return json.replaceFirst("\"metadata\":\\{", "\"metadata\":{\"ownerReferences\":[" + references + "],");
  }

  private static String reference(String kind, String name, String uid, boolean blockOwnerDeletion) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"" + kind + "\",\"name\":\"" + name + "\",\"uid\":\"" + uid
        + "\",\"blockOwnerDeletion\":" + blockOwnerDeletion + "}";
  }

  /**
   * Waits (polling, at most {@link #CONTROLLER_WAIT}) until a GET answers 404, as a controller-manager's work can only
   * be seen from outside.
   *
   * @return the last answer's outcome ({@code 404 NotFound}), or the exception that ends the scenario
   */
  private static String awaitGone(ContractTarget t, String path) {
    return awaitRead(t, path, "404 NotFound", r -> r.code() == 404).outcome();
  }

  private static Response awaitRead(ContractTarget t, String path, String what, Predicate<Response> done) {
    Response[] last = new Response[1];
    await("GET " + path + " on " + t.name() + " to show " + what).atMost(CONTROLLER_WAIT)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> done.test(last[0] = t.api().get(path)));
    return last[0];
  }
}
