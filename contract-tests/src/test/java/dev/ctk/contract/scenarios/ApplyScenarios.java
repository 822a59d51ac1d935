package dev.ctk.contract.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.contract.ContractTarget;
import dev.ctk.contract.Observation;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * Server-side apply: create by apply, managedFields, removal of fields a manager stops applying, conflicts (409
 * naming manager and field), force, fieldManager required.
 */
final class ApplyScenarios {

  private static final String GROUP = "server-side apply";

  private ApplyScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "apply creates the object and records an Apply entry in managedFields")
            .body((t, o) -> {
              Response r = apply(t, "a", false, "{\"k\":\"1\"}");
              o.check("apply", r.outcome(), "201");
              o.check("data", r.body().path("data"), "{\"k\":\"1\"}");
              o.check("managedFields", managedFields(r), List.of("a Apply v1 {\"f:data\":{\"f:k\":{}}}"));
              o.check("read", t.api().get(t.core("configmaps/web")).outcome(), "200");
            }),

        Scenario.named(GROUP, "a second apply by the same manager removes the fields it no longer applies")
            .body((t, o) -> {
              apply(t, "a", false, "{\"k\":\"1\",\"only-a\":\"x\"}");
              Response r = apply(t, "a", false, "{\"k\":\"2\"}");
              o.check("apply", r.outcome(), "200");
              o.check("data", r.body().path("data"), "{\"k\":\"2\"}");
              o.check("managedFields", managedFields(r), List.of("a Apply v1 {\"f:data\":{\"f:k\":{}}}"));
            }),

        Scenario.named(GROUP, "apply of a field another applier owns answers 409 Conflict naming both")
            .body((t, o) -> {
              apply(t, "a", false, "{\"k\":\"1\"}");
              Response r = apply(t, "b", false, "{\"k\":\"2\"}");
              o.check("apply", r.outcome(), "409 Conflict");
              o.check("message", r.message(), "Apply failed with 1 conflict: conflict with \"a\": .data.k");
              o.check("causes", r.causes(), List.of("FieldManagerConflict .data.k: conflict with \"a\""));
              o.check("data unchanged", t.api().get(t.core("configmaps/web")).at("/data/k"), "1");
              Response same = apply(t, "b", false, "{\"k\":\"1\"}");
              o.check("same value shares ownership", same.outcome(), "200");
              o.check("shared managedFields", managedFields(same), List.of("a Apply v1 {\"f:data\":{\"f:k\":{}}}",
                  "b Apply v1 {\"f:data\":{\"f:k\":{}}}"));
              o.check("the second applier's entry has no time (nothing changed)", timeOf(same, "b"),
                  Observation.ABSENT);
            }),

        Scenario.named(GROUP, "apply with force=true takes ownership from the other manager").body((t, o) -> {
          apply(t, "a", false, "{\"k\":\"1\"}");
          Response r = apply(t, "b", true, "{\"k\":\"2\"}");
          o.check("apply", r.outcome(), "200");
          o.check("data", r.body().path("data"), "{\"k\":\"2\"}");
          o.check("managedFields", managedFields(r), List.of("b Apply v1 {\"f:data\":{\"f:k\":{}}}"));
        }),

        Scenario.named(GROUP, "force is false only for 0 and false: force=no forces").body((t, o) -> {
          apply(t, "a", false, "{\"k\":\"1\"}");
          Response refused = t.api().patch(t.core("configmaps/web?fieldManager=b&force=False"), RawApi.APPLY_PATCH,
              body("{\"k\":\"2\"}"));
          o.check("force=False", refused.outcome(), "409 Conflict");
          Response forced = t.api().patch(t.core("configmaps/web?fieldManager=b&force=no"), RawApi.APPLY_PATCH,
              body("{\"k\":\"2\"}"));
          o.check("force=no", forced.outcome(), "200");
          o.check("data", forced.body().path("data"), "{\"k\":\"2\"}");
        }),

        Scenario.named(GROUP, "an apply to a custom resource's /status owns the labels it sends, though they are "
                + "not saved")
            .body((t, o) -> {
              t.installCrd(Manifests.widgetCrd(t.crdGroup()));
              String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
              String labelled = Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":1}")
                  .replace("\"name\":\"w\"", "\"name\":\"w\",\"labels\":{\"app\":\"a\"}");
              Response created = t.api().patch(widgets + "/w?fieldManager=user", RawApi.APPLY_PATCH, labelled);
              o.check("create", created.outcome(), "201");
              Response status = t.api().patch(widgets + "/w/status?fieldManager=op&force=true", RawApi.APPLY_PATCH,
                  "{\"apiVersion\":\"" + t.crdGroup() + "/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\","
                      + "\"labels\":{\"app\":\"a\",\"extra\":\"e\"}},\"status\":{\"ready\":true}}");
              o.check("status apply", status.outcome(), "200");
              o.check("labels not saved", status.body().at("/metadata/labels"), "{\"app\":\"a\"}");
              o.check("op owns them", fieldsOf(status, "op"),
                  "{\"f:metadata\":{\"f:labels\":{\"f:app\":{},\"f:extra\":{}}},\"f:status\":{\"f:ready\":{}}}");
              Response again = t.api().patch(widgets + "/w?fieldManager=user", RawApi.APPLY_PATCH,
                  labelled.replace("\"app\":\"a\"", "\"app\":\"b\""));
              o.check("user changes the label", again.outcome(), "409 Conflict");
              o.check("message", again.message(), "Apply failed with 1 conflict: conflict with \"op\" with "
                  + "subresource \"status\": .metadata.labels.app");
            }),

        Scenario.named(GROUP, "apply conflicting with an update names the updater and its apiVersion")
            .body((t, o) -> {
              apply(t, "a", false, "{\"k\":\"1\"}");
              Response update = t.api().patch(t.core("configmaps/web?fieldManager=editor"), RawApi.MERGE_PATCH,
                  "{\"data\":{\"k\":\"2\"}}");
              o.check("update", update.outcome(), "200");
              o.check("managedFields after update", managedFields(update),
                  List.of("editor Update v1 {\"f:data\":{\"f:k\":{}}}"));
              Response r = apply(t, "a", false, "{\"k\":\"3\"}");
              o.check("apply", r.outcome(), "409 Conflict");
              o.check("message", r.message(), "Apply failed with 1 conflict: conflict with \"editor\" using v1: "
                  + ".data.k");
            }),

        Scenario.named(GROUP, "apply without fieldManager answers 422").body((t, o) -> {
          Response r = t.api().patch(t.core("configmaps/web"), RawApi.APPLY_PATCH, body("{\"k\":\"1\"}"));
          o.check("apply", r.outcome(), "422 Invalid");
          o.check("message", r.message(), "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: "
              + "is required for apply patch");
          o.check("read", t.api().get(t.core("configmaps/web")).outcome(), "404 NotFound");
        }),

        Scenario.named(GROUP, "apply on a Deployment merges containers by name and bumps generation")
            .body((t, o) -> {
              String path = t.apis("apps/v1", "deployments/web?fieldManager=a");
              Response created = t.api().patch(path, RawApi.APPLY_PATCH, Manifests.deployment("web"));
              o.check("create", created.outcome(), "201");
              o.check("defaulted replicas", created.at("/spec/replicas"), "1");
              Response other = t.api().patch(t.apis("apps/v1", "deployments/web?fieldManager=b"), RawApi.APPLY_PATCH,
                  "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{"
                      + "\"template\":{\"spec\":{\"containers\":[{\"name\":\"sidecar\",\"image\":\"envoy:1.30\"}]}}}}");
              o.check("second manager", other.outcome(), "200");
              o.check("containers", PatchScenarios.containers(other), List.of(
                  "main nginx:1.25 env=<absent> ports=<absent>", "sidecar envoy:1.30 env=<absent> ports=<absent>"));
              o.check("generation", other.at("/metadata/generation"), "2");
              Response read = t.api().get(t.apis("apps/v1", "deployments/web"));
              o.check("resourceVersion", Observation.order(other.resourceVersion(), read.resourceVersion()), "same");
            }),

        Scenario.named(GROUP, "a Pod's nodeSelector and each owner reference are owned whole")
            .body((t, o) -> {
              String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{"
                  + "\"nodeSelector\":{\"disk\":\"ssd\"},\"containers\":[{\"name\":\"main\",\"image\":\"nginx:1\"}]}}";
              Response created = t.api().patch(t.core("pods/p?fieldManager=op"), RawApi.APPLY_PATCH, pod);
              o.check("create", created.outcome(), "201");
              o.check("nodeSelector owned whole", fieldsOf(created, "op").at("/f:spec/f:nodeSelector"), "{}");
              Response owned = t.api().patch(t.core("pods/p?fieldManager=editor"), RawApi.MERGE_PATCH,
                  "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":"
                      + "\"owner\",\"uid\":\"6b0a8b4e-0000-4000-8000-000000000001\"}]}}");
              o.check("owner reference added", owned.outcome(), "200");
              o.check("owner reference owned whole", fieldsOf(owned, "editor").at("/f:metadata"),
                  "{\"f:ownerReferences\":{\".\":{},\"k:{\\\"uid\\\":\\\"6b0a8b4e-0000-4000-8000-000000000001\\\"}\":{}}}");
            }),

        Scenario.named(GROUP, "a Deployment's pod nodeSelector is owned whole: an edit conflicts, force reverts it")
            .body((t, o) -> {
              String path = t.apis("apps/v1", "deployments/web");
              String applied = Manifests.deployment("web").replace("\"containers\":",
                  "\"nodeSelector\":{\"disk\":\"ssd\"},\"containers\":");
              Response created = t.api().patch(path + "?fieldManager=op", RawApi.APPLY_PATCH, applied);
              o.check("create", created.outcome(), "201");
              Response edit = t.api().patch(path + "?fieldManager=editor", RawApi.MERGE_PATCH,
                  "{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":{\"zone\":\"z1\"}}}}}");
              o.check("edit", edit.outcome(), "200");
              Response again = t.api().patch(path + "?fieldManager=op", RawApi.APPLY_PATCH, applied);
              o.check("apply again", again.outcome(), "409 Conflict");
              o.check("message", again.message(), "Apply failed with 1 conflict: conflict with \"editor\" using "
                  + "apps/v1: .spec.template.spec.nodeSelector");
              Response forced = t.api().patch(path + "?fieldManager=op&force=true", RawApi.APPLY_PATCH, applied);
              o.check("force", forced.outcome(), "200");
              o.check("nodeSelector", forced.body().at("/spec/template/spec/nodeSelector"), "{\"disk\":\"ssd\"}");
            }));
  }

  private static Response apply(ContractTarget t, String manager, boolean force, String data) {
    return t.api().patch(t.core("configmaps/web?fieldManager=" + manager + (force ? "&force=true" : "")),
        RawApi.APPLY_PATCH, body(data));
  }

  private static String body(String data) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"web\"},\"data\":" + data + "}";
  }

  /** The time of a manager's managedFields entry, {@link Observation#ABSENT} when it has none. */
  private static String timeOf(Response r, String manager) {
    for (JsonNode entry : r.body().at("/metadata/managedFields")) {
      if (entry.path("manager").asText().equals(manager) && entry.hasNonNull("time")) {
        return "<time>";
      }
    }
    return Observation.ABSENT;
  }

  /** The fieldsV1 of a manager's managedFields entry (missing when it has none). */
  private static JsonNode fieldsOf(Response r, String manager) {
    for (JsonNode entry : r.body().at("/metadata/managedFields")) {
      if (entry.path("manager").asText().equals(manager)) {
        return entry.path("fieldsV1");
      }
    }
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  /** {@code manager operation apiVersion fieldsV1} per managedFields entry, sorted by manager. */
  static List<String> managedFields(Response r) {
    List<String> out = new ArrayList<>();
    for (JsonNode entry : r.body().at("/metadata/managedFields")) {
      out.add(entry.path("manager").asText() + " " + entry.path("operation").asText() + " "
          + entry.path("apiVersion").asText() + " " + entry.path("fieldsV1"));
    }
    out.sort(null);
    return out;
  }
}
