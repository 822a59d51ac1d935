package dev.ctk.contract.scenarios;

import static dev.ctk.contract.scenarios.Manifests.configMap;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * Patch types: JSON patch, JSON merge patch, strategic merge patch (built-in kinds; 415 for custom resources).
 */
final class PatchScenarios {

  private static final String GROUP = "patch";

  private PatchScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "a JSON patch whose test op fails answers 422 and changes nothing").body((t, o) -> {
          t.create(t.core("configmaps"), configMap("web"));
          Response r = t.api().patch(t.core("configmaps/web"), RawApi.JSON_PATCH,
              "[{\"op\":\"test\",\"path\":\"/data/k\",\"value\":\"other\"},"
                  + "{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"w\"}]");
          o.check("patch", r.outcome(), "422 Invalid");
          o.check("message", r.message(), "the server rejected our request due to an error in our request");
          o.check("details", r.body().path("details"), "{}");
          o.check("data unchanged", t.api().get(t.core("configmaps/web")).at("/data/k"), "v");
          Response missing = t.api().patch(t.core("configmaps/web"), RawApi.JSON_PATCH,
              "[{\"op\":\"remove\",\"path\":\"/data/missing\"}]");
          o.check("remove of a missing path", missing.outcome(), "422 Invalid");
          Response passing = t.api().patch(t.core("configmaps/web"), RawApi.JSON_PATCH,
              "[{\"op\":\"test\",\"path\":\"/data/k\",\"value\":\"v\"},"
                  + "{\"op\":\"add\",\"path\":\"/data/n\",\"value\":\"1\"}]");
          o.check("passing test", passing.outcome(), "200");
          o.check("data after", passing.body().path("data"), "{\"k\":\"v\",\"n\":\"1\"}");
        }),

        Scenario.named(GROUP, "a JSON merge patch with null removes the key").body((t, o) -> {
          t.create(t.core("configmaps"), configMap("web", "{\"a\":\"1\",\"b\":\"2\"}"));
          Response r = t.api().patch(t.core("configmaps/web"), RawApi.MERGE_PATCH,
              "{\"metadata\":{\"labels\":{\"a\":null,\"c\":\"3\"}},\"data\":{\"k\":null,\"n\":\"1\"}}");
          o.check("patch", r.outcome(), "200");
          o.check("labels", r.body().at("/metadata/labels"), "{\"b\":\"2\",\"c\":\"3\"}");
          o.check("data", r.body().path("data"), "{\"n\":\"1\"}");
        }),

        Scenario.named(GROUP, "a strategic merge patch merges containers and env by name").body((t, o) -> {
          t.create(t.apis("apps/v1", "deployments"), Manifests.twoContainerDeployment("web"));
          Response r = t.api().patch(t.apis("apps/v1", "deployments/web"), RawApi.STRATEGIC_MERGE_PATCH,
              "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:1.26\","
                  + "\"env\":[{\"name\":\"B\",\"value\":\"2\"}]}]}}}}");
          o.check("patch", r.outcome(), "200");
          o.check("containers", containers(r), List.of("main nginx:1.26 env=[{\"name\":\"B\",\"value\":\"2\"},"
              + "{\"name\":\"A\",\"value\":\"1\"}] ports=<absent>", "sidecar envoy:1.30 env=<absent> ports=<absent>"));
          o.check("generation", r.at("/metadata/generation"), "2");
          Response ports = t.api().patch(t.apis("apps/v1", "deployments/web"), RawApi.STRATEGIC_MERGE_PATCH,
              "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"ports\":["
                  + "{\"containerPort\":80},{\"containerPort\":443}]}]}}}}");
          o.check("ports patch", ports.outcome(), "200");
          Response more = t.api().patch(t.apis("apps/v1", "deployments/web"), RawApi.STRATEGIC_MERGE_PATCH,
              "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"ports\":["
                  + "{\"containerPort\":8080,\"name\":\"alt\"}]}]}}}}");
          o.check("ports", more.body().at("/spec/template/spec/containers/0/ports"),
              "[{\"containerPort\":8080,\"name\":\"alt\",\"protocol\":\"TCP\"},{\"containerPort\":80,"
                  + "\"protocol\":\"TCP\"},{\"containerPort\":443,\"protocol\":\"TCP\"}]");
        }),

        Scenario.named(GROUP, "a strategic merge patch with $patch: delete removes list elements by merge key")
            .body((t, o) -> {
              t.create(t.apis("apps/v1", "deployments"), Manifests.twoContainerDeployment("web"));
              Response sidecar = t.api().patch(t.apis("apps/v1", "deployments/web"), RawApi.STRATEGIC_MERGE_PATCH,
                  "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"sidecar\",\"$patch\":\"delete\"}]"
                      + "}}}}");
              o.check("delete a container", sidecar.outcome(), "200");
              o.check("containers", containers(sidecar),
                  List.of("main nginx:1.25 env=[{\"name\":\"A\",\"value\":\"1\"}] ports=<absent>"));
              Response env = t.api().patch(t.apis("apps/v1", "deployments/web"), RawApi.STRATEGIC_MERGE_PATCH,
                  "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"env\":[{\"name\":\"A\","
                      + "\"$patch\":\"delete\"}]}]}}}}");
              o.check("delete an env var", containers(env), List.of("main nginx:1.25 env=<absent> ports=<absent>"));
            }),

        Scenario.named(GROUP, "a patch that removes a custom resource's resourceVersion answers 422").body((t, o) -> {
          t.installCrd(Manifests.widgetCrd(t.crdGroup()));
          String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
          t.create(widgets, Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":1}"));
          Response merge = t.api().patch(widgets + "/w", RawApi.MERGE_PATCH,
              "{\"metadata\":{\"resourceVersion\":null},\"spec\":{\"size\":2}}");
          o.check("merge patch", merge.outcome(), "422 Invalid");
          o.check("causes", merge.causes(), List.of("FieldValueInvalid metadata.resourceVersion: Invalid value: "
              + "0x0: must be specified for an update"));
          Response json = t.api().patch(widgets + "/w", RawApi.JSON_PATCH,
              "[{\"op\":\"remove\",\"path\":\"/metadata/resourceVersion\"}]");
          o.check("JSON patch", json.outcome(), "422 Invalid");
          o.check("size unchanged", t.api().get(widgets + "/w").at("/spec/size"), "1");
        }),

        Scenario.named(GROUP, "a patch or update that leaves no name answers 400 before any precondition")
            .body((t, o) -> {
              t.create(t.core("configmaps"), configMap("web"));
              Response patched = t.api().patch(t.core("configmaps/web"), RawApi.MERGE_PATCH,
                  "{\"metadata\":{\"name\":null}}");
              o.check("merge patch", patched.outcome(), "400 BadRequest");
              o.check("message", patched.message(), "the name of the object (web based on URL) was undeterminable: "
                  + "name must be provided");
              t.installCrd(Manifests.widgetCrd(t.crdGroup()));
              String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
              t.create(widgets, Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":1}"));
              Response put = t.api().put(widgets + "/w", "{\"apiVersion\":\"" + t.crdGroup() + "/v1\","
                  + "\"kind\":\"Widget\",\"metadata\":{},\"spec\":{\"size\":2}}");
              o.check("update without name or resourceVersion", put.outcome(), "400 BadRequest");
              o.check("update message", put.message(), "the name of the object (w based on URL) was "
                  + "undeterminable: name must be provided");
            }),

        Scenario.named(GROUP, "duplicate ownerReferences are dropped on create, update and patch").body((t, o) -> {
          String owner = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"web\","
              + "\"uid\":\"0b7c5e1e-0000-4000-8000-000000000001\"}";
          String sameUid = owner.replace("\"web\"", "\"api\"");
          Response created = t.api().post(t.core("configmaps"), "{\"metadata\":{\"name\":\"web\","
              + "\"ownerReferences\":[" + owner + "," + sameUid + "," + owner + "]}}");
          o.check("create", created.outcome(), "201");
          o.check("created", created.body().at("/metadata/ownerReferences"), "[" + owner + "," + sameUid + "]");
          Response patched = t.api().patch(t.core("configmaps/web"), RawApi.JSON_PATCH,
              "[{\"op\":\"add\",\"path\":\"/metadata/ownerReferences/-\",\"value\":" + owner + "}]");
          o.check("patched", patched.body().at("/metadata/ownerReferences"), "[" + owner + "," + sameUid + "]");
          o.check("patch changed nothing", patched.at("/metadata/resourceVersion")
              .equals(created.at("/metadata/resourceVersion")), true);
          Response updated = t.api().put(t.core("configmaps/web"), "{\"metadata\":{\"name\":\"web\","
              + "\"ownerReferences\":[" + owner + "," + owner + "]}}");
          o.check("updated", updated.body().at("/metadata/ownerReferences"), "[" + owner + "]");
        }),

        Scenario.named(GROUP, "a strategic merge patch replaces a PodDisruptionBudget's selector, merges conditions")
            .body((t, o) -> {
              String pdbs = t.apis("policy/v1", "poddisruptionbudgets");
              t.create(pdbs, """
                  {"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web"},
                   "spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"a"}}}}""");
              Response selector = t.api().patch(pdbs + "/web", RawApi.STRATEGIC_MERGE_PATCH,
                  "{\"spec\":{\"selector\":{\"matchLabels\":{\"app2\":\"b\"}}}}");
              o.check("selector", selector.body().at("/spec/selector"), "{\"matchLabels\":{\"app2\":\"b\"}}");
              String condition = "{\"type\":\"%s\",\"status\":\"%s\",\"reason\":\"R\",\"message\":\"\","
                  + "\"lastTransitionTime\":\"2026-01-01T00:00:00Z\",\"observedGeneration\":1}";
              t.api().patch(pdbs + "/web/status", RawApi.MERGE_PATCH, "{\"status\":{\"currentHealthy\":0,"
                  + "\"desiredHealthy\":1,\"disruptionsAllowed\":0,\"expectedPods\":0,\"conditions\":["
                  + condition.formatted("DisruptionAllowed", "True") + "," + condition.formatted("Other", "True")
                  + "]}}");
              Response status = t.api().patch(pdbs + "/web/status", RawApi.STRATEGIC_MERGE_PATCH,
                  "{\"status\":{\"conditions\":[" + condition.formatted("DisruptionAllowed", "False") + "]}}");
              List<String> conditions = new ArrayList<>();
              status.body().at("/status/conditions").forEach(c -> conditions.add(c.path("type").asText() + "="
                  + c.path("status").asText()));
              o.check("conditions", conditions, List.of("DisruptionAllowed=False", "Other=True"));
            }),

        Scenario.named(GROUP, "a strategic merge patch on a custom resource answers 415").body((t, o) -> {
          t.installCrd(Manifests.widgetCrd(t.crdGroup()));
          String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
          t.create(widgets, Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":1}"));
          Response r = t.api().patch(widgets + "/w", RawApi.STRATEGIC_MERGE_PATCH, "{\"spec\":{\"size\":2}}");
          o.check("patch", r.outcome(), "415 UnsupportedMediaType");
          o.check("message", r.message(), "the body of the request was in an unknown format - accepted media types "
              + "include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml");
          Response merge = t.api().patch(widgets + "/w", RawApi.MERGE_PATCH, "{\"spec\":{\"size\":2}}");
          o.check("merge patch", merge.outcome() + " size=" + merge.at("/spec/size"), "200 size=2");
        }));
  }

  /** {@code name image env=[...] ports=[...]} per container. */
  static List<String> containers(Response deployment) {
    List<String> out = new ArrayList<>();
    for (JsonNode c : deployment.body().at("/spec/template/spec/containers")) {
      out.add(c.path("name").asText() + " " + c.path("image").asText() + " env=" + text(c.get("env")) + " ports="
          + text(c.get("ports")));
    }
    return out;
  }

  private static String text(JsonNode node) {
    return node == null ? "<absent>" : node.toString();
  }
}
