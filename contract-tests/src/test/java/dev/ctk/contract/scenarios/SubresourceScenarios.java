package dev.ctk.contract.scenarios;

import dev.ctk.contract.Observation;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.List;
import java.util.Objects;

/**
 * {@code metadata.generation}, the {@code /status} and {@code /scale} subresources, for built-in kinds and for a
 * CRD that declares them.
 */
final class SubresourceScenarios {

  private static final String GROUP = "subresources";

  private SubresourceScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "generation bumps on spec changes only, not on metadata or status").body((t, o) -> {
          String path = t.apis("apps/v1", "deployments/web");
          Response created = t.create(t.apis("apps/v1", "deployments"), Manifests.deployment("web"));
          o.check("created", created.at("/metadata/generation"), "1");
          Response labelled = t.api().patch(path, RawApi.MERGE_PATCH, "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}");
          o.check("after a label change", labelled.at("/metadata/generation"), "1");
          o.check("label change resourceVersion",
              Observation.order(created.resourceVersion(), labelled.resourceVersion()), "increased");
          Response status = t.api().patch(path + "/status", RawApi.MERGE_PATCH,
              "{\"status\":{\"observedGeneration\":1,\"replicas\":1}}");
          o.check("after a status change", status.at("/metadata/generation"), "1");
          Response scaled = t.api().patch(path, RawApi.MERGE_PATCH, "{\"spec\":{\"replicas\":2}}");
          o.check("after a spec change", scaled.at("/metadata/generation"), "2");
          Response annotated = t.api().patch(path, RawApi.MERGE_PATCH,
              "{\"metadata\":{\"annotations\":{\"a\":\"b\"}}}");
          // kube's Deployment strategy bumps generation on annotation changes too (they are copied to ReplicaSets)
          o.check("after an annotation change", annotated.at("/metadata/generation"), "3");
        }),

        Scenario.named(GROUP, "Deployment /status changes status only and the main resource ignores status")
            .body((t, o) -> {
              String path = t.apis("apps/v1", "deployments/web");
              t.create(t.apis("apps/v1", "deployments"), Manifests.deployment("web"));
              Response main = t.api().patch(path, RawApi.MERGE_PATCH,
                  "{\"spec\":{\"replicas\":3},\"status\":{\"replicas\":7}}");
              o.check("main write", main.outcome(), "200");
              o.check("main write spec", main.at("/spec/replicas"), "3");
              o.check("main write status", main.at("/status/replicas"), Observation.ABSENT);
              Response status = t.api().patch(path + "/status", RawApi.MERGE_PATCH,
                  "{\"spec\":{\"replicas\":5},\"status\":{\"replicas\":2,\"readyReplicas\":1}}");
              o.check("status write", status.outcome(), "200");
              o.check("status write spec", status.at("/spec/replicas"), "3");
              o.check("status write status", status.body().path("status"), "{\"readyReplicas\":1,\"replicas\":2}");
              Response read = t.api().get(path);
              o.check("read spec", read.at("/spec/replicas"), "3");
              o.check("read status", read.at("/status/replicas"), "2");
              o.check("read generation", read.at("/metadata/generation"), "2");
            }),

        Scenario.named(GROUP, "Deployment /scale reads and writes spec.replicas as an autoscaling/v1 Scale")
            .body((t, o) -> {
              String path = t.apis("apps/v1", "deployments/web");
              Response created = t.create(t.apis("apps/v1", "deployments"), Manifests.deployment("web"));
              Response scale = t.api().get(path + "/scale");
              o.check("get", scale.outcome(), "200");
              o.check("kind", scale.at("/apiVersion") + " " + scale.at("/kind"), "autoscaling/v1 Scale");
              o.check("name", scale.at("/metadata/name"), "web");
              o.check("uid is the Deployment's",
                  Objects.equals(scale.at("/metadata/uid"), created.at("/metadata/uid")), true);
              o.check("resourceVersion is the Deployment's",
                  Observation.order(created.resourceVersion(), scale.resourceVersion()), "same");
              o.check("spec", scale.body().path("spec"), "{\"replicas\":1}");
              o.check("status", scale.body().path("status"), "{\"replicas\":0,\"selector\":\"app=web\"}");
              Response patched = t.api().patch(path + "/scale", RawApi.MERGE_PATCH, "{\"spec\":{\"replicas\":3}}");
              o.check("patch", patched.outcome(), "200");
              o.check("patched spec", patched.body().path("spec"), "{\"replicas\":3}");
              Response put = t.api().put(path + "/scale", "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\","
                  + "\"metadata\":{\"name\":\"web\",\"namespace\":\"" + t.namespace() + "\"},"
                  + "\"spec\":{\"replicas\":4}}");
              o.check("put", put.outcome(), "200");
              Response unnamed = t.api().put(path + "/scale", "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\","
                  + "\"metadata\":{},\"spec\":{\"replicas\":5}}");
              o.check("put without a name", unnamed.outcome() + " " + unnamed.message(), "400 BadRequest the name of "
                  + "the object (web based on URL) was undeterminable: name must be provided");
              Response read = t.api().get(path);
              o.check("deployment replicas", read.at("/spec/replicas"), "4");
              o.check("deployment generation", read.at("/metadata/generation"), "3");
            }),

        Scenario.named(GROUP, "StatefulSet and ReplicaSet /scale carry their selector").body((t, o) -> {
          t.create(t.apis("apps/v1", "statefulsets"), """
              {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},"spec":{"serviceName":"db",
               "replicas":2,"selector":{"matchLabels":{"app":"db"}},"template":{"metadata":{"labels":{"app":"db"}},
               "spec":{"containers":[{"name":"main","image":"nginx:1.25"}]}}}}""");
          t.create(t.apis("apps/v1", "replicasets"), """
              {"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"rs"},"spec":{"replicas":2,
               "selector":{"matchExpressions":[{"key":"app","operator":"In","values":["rs","web"]}]},
               "template":{"metadata":{"labels":{"app":"rs"}},
               "spec":{"containers":[{"name":"main","image":"nginx:1.25"}]}}}}""");
          Response sts = t.api().get(t.apis("apps/v1", "statefulsets/db/scale"));
          o.check("statefulset scale", sts.body().path("spec") + " " + sts.body().path("status"),
              "{\"replicas\":2} {\"replicas\":0,\"selector\":\"app=db\"}");
          Response rs = t.api().get(t.apis("apps/v1", "replicasets/rs/scale"));
          o.check("replicaset scale", rs.body().path("spec") + " " + rs.body().path("status"),
              "{\"replicas\":2} {\"replicas\":0,\"selector\":\"app in (rs,web)\"}");
          Response scaled = t.api().patch(t.apis("apps/v1", "replicasets/rs/scale"), RawApi.MERGE_PATCH,
              "{\"spec\":{\"replicas\":0}}");
          o.check("scale to zero", scaled.outcome() + " " + scaled.body().path("spec"), "200 {}");
        }),

        Scenario.named(GROUP, "a CRD's status subresource splits spec and status writes").body((t, o) -> {
          t.installCrd(Manifests.widgetCrd(t.crdGroup()));
          String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
          Response created = t.api().post(widgets, Manifests.widget(t.crdGroup(), "v1", "w",
              "{\"size\":1}").replace("}}", "},\"status\":{\"ready\":true}}"));
          o.check("create", created.outcome(), "201");
          o.check("create ignores status", created.at("/status"), Observation.ABSENT);
          o.check("generation", created.at("/metadata/generation"), "1");
          Response status = t.api().patch(widgets + "/w/status", RawApi.MERGE_PATCH,
              "{\"spec\":{\"size\":5},\"status\":{\"ready\":true}}");
          o.check("status write", status.outcome(), "200");
          o.check("status write spec", status.at("/spec/size"), "1");
          o.check("status write status", status.at("/status/ready"), "true");
          o.check("status write generation", status.at("/metadata/generation"), "1");
          Response spec = t.api().patch(widgets + "/w", RawApi.MERGE_PATCH,
              "{\"spec\":{\"size\":2},\"status\":{\"ready\":false}}");
          o.check("spec write status", spec.at("/status/ready"), "true");
          o.check("spec write generation", spec.at("/metadata/generation"), "2");
          Response labels = t.api().patch(widgets + "/w", RawApi.MERGE_PATCH,
              "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}");
          o.check("label write generation", labels.at("/metadata/generation"), "2");
        }),

        Scenario.named(GROUP, "a CRD's scale subresource maps the declared paths").body((t, o) -> {
          t.installCrd(Manifests.widgetCrd(t.crdGroup()));
          String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
          t.create(widgets, Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":1,\"replicas\":2}"));
          t.api().patch(widgets + "/w/status", RawApi.MERGE_PATCH,
              "{\"status\":{\"replicas\":1,\"selector\":\"app=w\"}}");
          Response scale = t.api().get(widgets + "/w/scale");
          o.check("get", scale.outcome(), "200");
          o.check("kind", scale.at("/apiVersion") + " " + scale.at("/kind"), "autoscaling/v1 Scale");
          o.check("spec and status", scale.body().path("spec") + " " + scale.body().path("status"),
              "{\"replicas\":2} {\"replicas\":1,\"selector\":\"app=w\"}");
          Response patched = t.api().patch(widgets + "/w/scale", RawApi.MERGE_PATCH, "{\"spec\":{\"replicas\":5}}");
          o.check("patch", patched.outcome(), "200");
          o.check("widget replicas", t.api().get(widgets + "/w").at("/spec/replicas"), "5");
        }));
  }
}
