package dev.ctk.contract.scenarios;

import static dev.ctk.contract.scenarios.Manifests.configMap;

import dev.ctk.contract.Observation;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.List;
import java.util.Objects;

/**
 * Writes: create, update, patch, delete, deletecollection and the rules around them (AlreadyExists, Conflict,
 * preconditions, a {@code metadata.uid} that disagrees, URL vs body, missing namespace, generateName, dryRun and its
 * bad values).
 */
final class WriteScenarios {

  private static final String GROUP = "writes";

  private WriteScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "create answers 201 with the server-set metadata").body((t, o) -> {
          Response created = t.api().post(t.core("configmaps"), configMap("web"));
          o.check("create", created.outcome(), "201");
          o.check("namespace", created.at("/metadata/namespace"), "<ns>");
          o.check("uid", created.at("/metadata/uid"), "<uid>");
          o.check("creationTimestamp", created.at("/metadata/creationTimestamp"), "<time>");
          o.check("generation", created.at("/metadata/generation"), Observation.ABSENT);
          Response read = t.api().get(t.core("configmaps/web"));
          o.check("read resourceVersion", Observation.order(created.resourceVersion(), read.resourceVersion()),
              "same");
          o.check("read data", read.body().at("/data"), "{\"k\":\"v\"}");
        }),

        Scenario.named(GROUP, "create of an existing name answers 409 AlreadyExists").body((t, o) -> {
          t.create(t.core("configmaps"), configMap("web"));
          Response again = t.api().post(t.core("configmaps"), configMap("web"));
          o.check("second create", again.outcome(), "409 AlreadyExists");
          o.check("message", again.message(), "configmaps \"web\" already exists");
          o.check("details", again.body().at("/details"), "{\"kind\":\"configmaps\",\"name\":\"web\"}");
        }),

        Scenario.named(GROUP, "update with a stale resourceVersion answers 409 Conflict").body((t, o) -> {
          Response created = t.create(t.core("configmaps"), configMap("web"));
          String rv = created.resourceVersion();
          t.api().put(t.core("configmaps/web"), withResourceVersion(configMap("web"), rv)
              .replace("\"k\":\"v\"", "\"k\":\"first\""));
          Response stale = t.api().put(t.core("configmaps/web"), withResourceVersion(configMap("web"), rv)
              .replace("\"k\":\"v\"", "\"k\":\"second\""));
          o.check("stale update", stale.outcome(), "409 Conflict");
          o.check("message", stale.message(), "Operation cannot be fulfilled on configmaps \"web\": the object has "
              + "been modified; please apply your changes to the latest version and try again");
          o.check("data kept", t.api().get(t.core("configmaps/web")).at("/data/k"), "first");
        }),

        Scenario.named(GROUP, "update without resourceVersion is unconditional").body((t, o) -> {
          Response created = t.create(t.core("configmaps"), configMap("web"));
          Response updated = t.api().put(t.core("configmaps/web"), configMap("web").replace("\"v\"", "\"w\""));
          o.check("update", updated.outcome(), "200");
          o.check("resourceVersion", Observation.order(created.resourceVersion(), updated.resourceVersion()),
              "increased");
          o.check("uid kept", Objects.equals(updated.at("/metadata/uid"), created.at("/metadata/uid")), true);
          o.check("data", updated.at("/data/k"), "w");
        }),

        Scenario.named(GROUP, "update that changes nothing keeps the resourceVersion").body((t, o) -> {
          Response created = t.create(t.core("configmaps"), configMap("web"));
          Response same = t.api().put(t.core("configmaps/web"), configMap("web"));
          o.check("update", same.outcome(), "200");
          o.check("resourceVersion", Observation.order(created.resourceVersion(), same.resourceVersion()), "same");
        }),

        Scenario.named(GROUP, "update and patch of a missing object answer 404 NotFound").body((t, o) -> {
          Response put = t.api().put(t.core("configmaps/nope"), configMap("nope"));
          o.check("update", put.outcome(), "404 NotFound");
          o.check("update message", put.message(), "configmaps \"nope\" not found");
          Response patch = t.api().patch(t.core("configmaps/nope"), RawApi.MERGE_PATCH, "{\"data\":{\"a\":\"b\"}}");
          o.check("patch", patch.outcome(), "404 NotFound");
          o.check("patch message", patch.message(), "configmaps \"nope\" not found");
        }),

        Scenario.named(GROUP, "delete answers a Success Status and the object is gone").body((t, o) -> {
          Response created = t.create(t.core("configmaps"), configMap("web"));
          Response deleted = t.api().delete(t.core("configmaps/web"));
          o.check("delete", deleted.outcome(), "200");
          o.check("kind", deleted.at("/kind"), "Status");
          o.check("status", deleted.at("/status"), "Success");
          o.check("details", deleted.body().at("/details"),
              "{\"kind\":\"configmaps\",\"name\":\"web\",\"uid\":\"<uid>\"}");
          o.check("uid is the object's", Objects.equals(deleted.at("/details/uid"), created.at("/metadata/uid")),
              true);
          o.check("read after delete", t.api().get(t.core("configmaps/web")).outcome(), "404 NotFound");
          o.check("delete again", t.api().delete(t.core("configmaps/web")).outcome(), "404 NotFound");
        }),

        Scenario.named(GROUP, "delete with a uid precondition that does not match answers 409 Conflict")
            .body((t, o) -> {
              Response created = t.create(t.core("configmaps"), configMap("web"));
              Response r = t.api().delete(t.core("configmaps/web"),
                  "{\"preconditions\":{\"uid\":\"6a1e5c3e-0000-4000-8000-000000000000\"}}");
              o.check("delete", r.outcome(), "409 Conflict");
              o.check("message", r.message(), "Operation cannot be fulfilled on ConfigMap \"web\": the UID in the "
                  + "precondition (<uid>) does not match the UID in record (<uid>). The object might have been "
                  + "deleted and then recreated");
              o.check("object kept", t.api().get(t.core("configmaps/web")).outcome(), "200");
              Response matching = t.api().delete(t.core("configmaps/web"),
                  "{\"preconditions\":{\"uid\":\"" + created.at("/metadata/uid") + "\"}}");
              o.check("delete with the right uid", matching.outcome(), "200");
            }),

        Scenario.named(GROUP, "delete with a stale resourceVersion precondition answers 409 Conflict")
            .body((t, o) -> {
              Response created = t.create(t.core("configmaps"), configMap("web"));
              String stale = created.resourceVersion();
              String current = t.api().patch(t.core("configmaps/web"), RawApi.MERGE_PATCH,
                  "{\"data\":{\"k\":\"w\"}}").resourceVersion();
              Response r = t.api().delete(t.core("configmaps/web"),
                  "{\"preconditions\":{\"resourceVersion\":\"" + stale + "\"}}");
              o.check("delete", r.outcome(), "409 Conflict");
              o.check("message", r.message().replace("(" + stale + ")", "(<stale>)")
                      .replace("(" + current + ")", "(<current>)"),
                  "Operation cannot be fulfilled on ConfigMap \"web\": the ResourceVersion in the precondition "
                      + "(<stale>) does not match the ResourceVersion in record (<current>). The object might have "
                      + "been modified");
              Response matching = t.api().delete(t.core("configmaps/web"),
                  "{\"preconditions\":{\"resourceVersion\":\"" + current + "\"}}");
              o.check("delete with the current resourceVersion", matching.outcome(), "200");
            }),

        Scenario.named(GROUP, "a name in the body that disagrees with the URL answers 400 BadRequest")
            .body((t, o) -> {
              t.create(t.core("configmaps"), configMap("web"));
              Response r = t.api().put(t.core("configmaps/web"), configMap("other"));
              o.check("update", r.outcome(), "400 BadRequest");
              o.check("message", r.message(), "the name of the object (other) does not match the name on the URL "
                  + "(web)");
            }),

        Scenario.named(GROUP, "a namespace in the body that disagrees with the URL answers 400 BadRequest")
            .body((t, o) -> {
              Response r = t.api().post(t.core("configmaps"),
                  configMap("web").replace("\"name\":\"web\"", "\"name\":\"web\",\"namespace\":\"other\""));
              o.check("create", r.outcome(), "400 BadRequest");
              o.check("message", r.message(), "the namespace of the provided object does not match the namespace "
                  + "sent on the request");
            }),

        Scenario.named(GROUP, "create in a namespace that does not exist answers 404 NotFound").body((t, o) -> {
          Response r = t.api().post("/api/v1/namespaces/" + t.namespace() + "-missing/configmaps", configMap("web"));
          o.check("create", r.outcome(), "404 NotFound");
          o.check("message", r.message(), "namespaces \"<ns>-missing\" not found");
          o.check("details", r.body().at("/details"), "{\"kind\":\"namespaces\",\"name\":\"<ns>-missing\"}");
        }),

        Scenario.named(GROUP, "generateName appends kube's 5-character suffix").body((t, o) -> {
          Response r = t.api().post(t.core("configmaps"),
              configMap("ignored").replace("\"name\":\"ignored\"", "\"generateName\":\"web-\""));
          o.check("create", r.outcome(), "201");
          o.check("name", Observation.generatedName("web-", r.at("/metadata/name")), "web-<5 kube chars>");
          o.check("generateName kept", r.at("/metadata/generateName"), "web-");
          o.check("readable by its name", t.api().get(t.core("configmaps/" + r.at("/metadata/name"))).outcome(),
              "200");
        }),

        Scenario.named(GROUP, "dryRun=All answers what would be stored and stores nothing").body((t, o) -> {
          Response dry = t.api().post(t.core("configmaps?dryRun=All"), configMap("web"));
          o.check("create", dry.outcome(), "201");
          o.check("uid", dry.at("/metadata/uid"), "<uid>");
          o.check("resourceVersion", dry.resourceVersion(), Observation.ABSENT);
          o.check("read", t.api().get(t.core("configmaps/web")).outcome(), "404 NotFound");
          Response created = t.create(t.core("configmaps"), configMap("web"));
          Response dryDelete = t.api().delete(t.core("configmaps/web?dryRun=All"));
          o.check("dry delete", dryDelete.outcome(), "200");
          Response read = t.api().get(t.core("configmaps/web"));
          o.check("still there", read.outcome(), "200");
          o.check("resourceVersion unchanged", Observation.order(created.resourceVersion(), read.resourceVersion()),
              "same");
          Response dryPatch = t.api().patch(t.core("configmaps/web?dryRun=All"), RawApi.MERGE_PATCH,
              "{\"data\":{\"k\":\"w\"}}");
          o.check("dry patch", dryPatch.outcome(), "200");
          o.check("dry patch answer", dryPatch.at("/data/k"), "w");
          o.check("data unchanged", t.api().get(t.core("configmaps/web")).at("/data/k"), "v");
        }),

        Scenario.named(GROUP, "an update whose metadata.uid disagrees answers 409, a patch that changes it 422")
            .body((t, o) -> {
              Response created = t.create(t.core("configmaps"), configMap("web"));
              String other = "6a1e5c3e-0000-4000-8000-000000000000";
              String withOther = configMap("web").replace("\"name\":\"web\"", "\"name\":\"web\",\"uid\":\"" + other
                  + "\"");
              Response put = t.api().put(t.core("configmaps/web"), withOther.replace("\"v\"", "\"w\""));
              o.check("update", put.outcome(), "409 Conflict");
              o.check("update message", put.message(), "Operation cannot be fulfilled on configmaps \"web\": "
                  + "StorageError: invalid object, Code: 4, Key: /registry/configmaps/<ns>/web, ResourceVersion: 0, "
                  + "AdditionalErrorMsg: Precondition failed: UID in precondition: <uid>, UID in object meta: <uid>");
              o.check("update details", put.body().at("/details"), "{\"kind\":\"configmaps\",\"name\":\"web\"}");
              o.check("update names the stored uid", put.message() != null
                  && put.message().endsWith("UID in object meta: " + created.at("/metadata/uid")), true);
              Response stale = t.api().put(t.core("configmaps/web"), WriteScenarios.withResourceVersion(withOther,
                  "1"));
              o.check("update with a stale resourceVersion too", stale.outcome() + " " + (stale.message() != null
                  && stale.message().contains("Precondition failed")), "409 Conflict true");
              Response patch = t.api().patch(t.core("configmaps/web"), RawApi.MERGE_PATCH,
                  "{\"metadata\":{\"uid\":\"" + other + "\"}}");
              o.check("patch", patch.outcome(), "422 Invalid");
              o.check("patch message", patch.message(), "ConfigMap \"web\" is invalid: metadata.uid: Invalid value: "
                  + "\"<uid>\": field is immutable");
              o.check("patch causes", patch.causes(), List.of(
                  "FieldValueInvalid metadata.uid: Invalid value: \"<uid>\": field is immutable",
                  "FieldValueInvalid metadata.uid: Invalid value: \"<uid>\": field is immutable"));
              Response same = t.api().put(t.core("configmaps/web"), configMap("web").replace("\"name\":\"web\"",
                  "\"name\":\"web\",\"uid\":\"" + created.at("/metadata/uid") + "\"").replace("\"v\"", "\"w\""));
              o.check("update with the stored uid", same.outcome(), "200");
              o.check("data", t.api().get(t.core("configmaps/web")).at("/data/k"), "w");
            }),

        Scenario.named(GROUP, "a dryRun value other than All answers 422 Invalid, naming the verb's options")
            .body((t, o) -> {
              t.create(t.core("configmaps"), configMap("web"));
              String unsupported = "is invalid: dryRun: Unsupported value: []string{\"Bogus\"}: supported values: "
                  + "\"All\"";
              Response create = t.api().post(t.core("configmaps?dryRun=Bogus"), configMap("other"));
              o.check("create", create.outcome(), "422 Invalid");
              o.check("message: create", create.message(), "CreateOptions.meta.k8s.io \"\" " + unsupported);
              o.check("message: create details", create.body().at("/details"), "{\"causes\":[{\"field\":\"dryRun\","
                  + "\"message\":\"Unsupported value: []string{\\\"Bogus\\\"}: supported values: \\\"All\\\"\","
                  + "\"reason\":\"FieldValueNotSupported\"}],\"group\":\"meta.k8s.io\",\"kind\":\"CreateOptions\"}");
              Response two = t.api().post(t.core("configmaps?dryRun=All&dryRun=all"), configMap("other"));
              o.check("create with two values", two.outcome(), "422 Invalid");
              o.check("message: create with two values", two.message(), "CreateOptions.meta.k8s.io \"\" is invalid: "
                  + "dryRun: Unsupported value: []string{\"All\", \"all\"}: supported values: \"All\"");
              Response empty = t.api().post(t.core("configmaps?dryRun="), configMap("other"));
              o.check("create with an empty value", empty.outcome(), "422 Invalid");
              o.check("message: create with an empty value", empty.message(), "CreateOptions.meta.k8s.io \"\" is "
                  + "invalid: dryRun: Unsupported value: []string{\"\"}: supported values: \"All\"");
              Response update = t.api().put(t.core("configmaps/web?dryRun=Bogus"), configMap("web"));
              o.check("update", update.outcome(), "422 Invalid");
              o.check("message: update", update.message(), "UpdateOptions.meta.k8s.io \"\" " + unsupported);
              Response patch = t.api().patch(t.core("configmaps/web?dryRun=Bogus"), RawApi.MERGE_PATCH, "{}");
              o.check("patch", patch.outcome(), "422 Invalid");
              o.check("message: patch", patch.message(), "PatchOptions.meta.k8s.io \"\" " + unsupported);
              Response delete = t.api().delete(t.core("configmaps/web?dryRun=Bogus"));
              o.check("delete", delete.outcome(), "422 Invalid");
              o.check("message: delete", delete.message(), "DeleteOptions.meta.k8s.io \"\" " + unsupported);
              Response body = t.api().delete(t.core("configmaps/web"), "{\"dryRun\":[\"Bogus\"]}");
              o.check("delete with DeleteOptions", body.outcome(), "422 Invalid");
              o.check("message: delete with DeleteOptions", body.message(), "DeleteOptions.meta.k8s.io \"\" "
                  + unsupported);
              o.check("DeleteOptions win over the query", t.api().delete(t.core("configmaps/web?dryRun=Bogus"),
                  "{\"dryRun\":[\"All\"]}").outcome(), "200");
              o.check("before the body is read", t.api().post(t.core("configmaps?dryRun=Bogus"), "{").outcome(),
                  "422 Invalid");
              o.check("before the namespace is looked up", t.api().post("/api/v1/namespaces/" + t.namespace()
                  + "-missing/configmaps?dryRun=Bogus", configMap("other")).outcome(), "422 Invalid");
              o.check("nothing written", ReadScenarios.names(t.api().get(t.core("configmaps"))), List.of("web"));
            }),

        Scenario.named(GROUP, "deletecollection with a label selector deletes only what it selects")
            .body((t, o) -> {
              t.create(t.core("configmaps"), configMap("a", "{\"tier\":\"web\"}"));
              t.create(t.core("configmaps"), configMap("b", "{\"tier\":\"web\"}"));
              t.create(t.core("configmaps"), configMap("c", "{\"tier\":\"db\"}"));
              Response r = t.api().delete(t.core("configmaps?labelSelector=tier%3Dweb"));
              o.check("deletecollection", r.outcome(), "200");
              o.check("answer kind", r.at("/kind"), "ConfigMapList");
              o.check("answer items", ReadScenarios.names(r), List.of("a", "b"));
              o.check("left", ReadScenarios.names(t.api().get(t.core("configmaps"))), List.of("c"));
            }));
  }

  static String withResourceVersion(String json, String resourceVersion) {
    return json.replaceFirst("\"metadata\":\\{", "\"metadata\":{\"resourceVersion\":\"" + resourceVersion + "\",");
  }
}
