package dev.ctk.contract.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * Discovery: {@code /api}, {@code /apis}, {@code /api/v1}, {@code /apis/<group>/<version>} and {@code /version},
 * the fields clients read (kubectl, fabric8, the official Java client); the subresources kube lists; what an
 * unknown group, version or resource answers.
 */
final class DiscoveryScenarios {

  private static final String GROUP = "discovery";

  private DiscoveryScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "/api lists the core version v1").body((t, o) -> {
          Response r = t.api().get("/api");
          o.check("get", r.outcome(), "200");
          o.check("kind", r.at("/kind"), "APIVersions");
          o.check("versions", r.body().path("versions"), "[\"v1\"]");
        }),

        Scenario.named(GROUP, "/apis lists groups with their preferred version").body((t, o) -> {
          Response r = t.api().get("/apis");
          o.check("kind", r.at("/kind") + " " + r.at("/apiVersion"), "APIGroupList v1");
          for (String group : List.of("apps", "batch", "apiextensions.k8s.io", "coordination.k8s.io")) {
            JsonNode g = find(r.body().path("groups"), group);
            o.check(group, g == null ? null : g.path("preferredVersion").path("groupVersion").asText(),
                group + "/v1");
          }
        }),

        Scenario.named(GROUP, "/api/v1 describes configmaps and pods/status")
            .knownDifference("configmaps singularName", "kube 1.27 fills singularName for built-in resources; kube "
                + "1.20 leaves it empty")
            .body((t, o) -> {
              Response r = t.api().get("/api/v1");
              o.check("kind", r.at("/kind") + " " + r.at("/groupVersion"), "APIResourceList v1");
              JsonNode configMaps = find(r.body().path("resources"), "configmaps");
              o.check("configmaps", describe(configMaps), "namespaced=true kind=ConfigMap verbs=[create, delete, "
                  + "deletecollection, get, list, patch, update, watch] shortNames=[\"cm\"]");
              o.check("configmaps singularName", configMaps == null ? null : configMaps.path("singularName"),
                  "configmap");
              o.check("pods/status", describe(find(r.body().path("resources"), "pods/status")),
                  "namespaced=true kind=Pod verbs=[get, patch, update] shortNames=<absent>");
              o.check("namespaces", describe(find(r.body().path("resources"), "namespaces")),
                  "namespaced=false kind=Namespace verbs=[create, delete, get, list, patch, update, watch] "
                      + "shortNames=[\"ns\"]");
            }),

        Scenario.named(GROUP, "/apis/apps/v1 describes deployments with status and scale").body((t, o) -> {
          Response r = t.api().get("/apis/apps/v1");
          JsonNode resources = r.body().path("resources");
          o.check("deployments", describe(find(resources, "deployments")), "namespaced=true kind=Deployment "
              + "verbs=[create, delete, deletecollection, get, list, patch, update, watch] shortNames=[\"deploy\"]");
          o.check("deployments/status", describe(find(resources, "deployments/status")),
              "namespaced=true kind=Deployment verbs=[get, patch, update] shortNames=<absent>");
          JsonNode scale = find(resources, "deployments/scale");
          o.check("deployments/scale", describe(scale) + " group=" + (scale == null ? null : scale.path("group"))
              + " version=" + (scale == null ? null : scale.path("version")),
              "namespaced=true kind=Scale verbs=[get, patch, update] shortNames=<absent> group=\"autoscaling\" "
                  + "version=\"v1\"");
        }),

        Scenario.named(GROUP, "a CRD's group and versions appear in discovery").body((t, o) -> {
          t.installCrd(Manifests.widgetCrd(t.crdGroup()));
          JsonNode group = find(t.api().get("/apis").body().path("groups"), t.crdGroup());
          o.check("group versions", group == null ? null : group.path("versions"),
              "[{\"groupVersion\":\"<ns>.example.com/v1\",\"version\":\"v1\"},"
                  + "{\"groupVersion\":\"<ns>.example.com/v1beta1\",\"version\":\"v1beta1\"}]");
          o.check("preferred", group == null ? null : group.path("preferredVersion"),
              "{\"groupVersion\":\"<ns>.example.com/v1\",\"version\":\"v1\"}");
          Response v1 = t.api().get("/apis/" + t.crdGroup() + "/v1");
          JsonNode resources = v1.body().path("resources");
          JsonNode widgets = find(resources, "widgets");
          o.check("widgets", describe(widgets) + " singularName=" + (widgets == null ? null
              : widgets.path("singularName")), "namespaced=true kind=Widget verbs=[create, delete, "
              + "deletecollection, get, list, patch, update, watch] shortNames=<absent> singularName=\"widget\"");
          o.check("widgets/status", describe(find(resources, "widgets/status")),
              "namespaced=true kind=Widget verbs=[get, patch, update] shortNames=<absent>");
          o.check("widgets/scale", describe(find(resources, "widgets/scale")),
              "namespaced=true kind=Scale verbs=[get, patch, update] shortNames=<absent>");
        }),

        Scenario.named(GROUP, "an unknown API group answers kube's plain-text 404, an unknown version of a "
            + "built-in group a NotFound Status").body((t, o) -> {
              t.installCrd(Manifests.widgetCrd(t.crdGroup()));
              for (String path : List.of("/apis/nope.example.com", "/apis/nope.example.com/v1",
                  "/apis/nope.example.com/v1/namespaces/" + t.namespace() + "/widgets",
                  "/apis/nope.example.com/v1/widgets?watch=true", "/apis/" + t.crdGroup() + "/v9",
                  "/apis/" + t.crdGroup() + "/v1/namespaces/" + t.namespace() + "/nopes", "/nope")) {
                Response r = t.api().get(path);
                o.check(path.replace(t.crdGroup(), "<crd group>").replace(t.namespace(), "<ns>"),
                    r.code() + " " + r.text(), "404 404 page not found\n");
              }
              Response create = t.api().post("/apis/nope.example.com/v1/namespaces/" + t.namespace() + "/widgets",
                  "{}");
              o.check("create in an unknown group", create.code() + " " + create.text(), "404 404 page not found\n");
              for (String path : List.of("/apis/apps/v9", "/apis/apps/v9/namespaces/" + t.namespace()
                  + "/deployments", "/api/v9/pods", "/apis/apps/v1/nopes")) {
                Response r = t.api().get(path);
                o.check(path.replace(t.namespace(), "<ns>"), r.outcome() + ": " + r.message() + " "
                    + r.body().at("/details"),
                    "404 NotFound: the server could not find the requested resource {}");
              }
            }),

        Scenario.named(GROUP, "discovery lists the Pod, Service, Node, Namespace and ServiceAccount subresources")
            .body((t, o) -> {
              List<String> subresources = new ArrayList<>();
              for (JsonNode resource : t.api().get("/api/v1").body().path("resources")) {
                String name = resource.path("name").asText();
                if (name.contains("/") && !name.endsWith("/status") && !name.endsWith("/scale")) {
                  subresources.add(name + " " + describe(resource) + group(resource));
                }
              }
              subresources.sort(null);
              o.check("/api/v1 subresources", subresources, List.of(
                  "namespaces/finalize namespaced=false kind=Namespace verbs=[update] shortNames=<absent>",
                  "nodes/proxy namespaced=false kind=NodeProxyOptions verbs=[create, delete, get, patch, update] "
                      + "shortNames=<absent>",
                  "pods/attach namespaced=true kind=PodAttachOptions verbs=[create, get] shortNames=<absent>",
                  "pods/binding namespaced=true kind=Binding verbs=[create] shortNames=<absent>",
                  "pods/ephemeralcontainers namespaced=true kind=Pod verbs=[get, patch, update] shortNames=<absent>",
                  "pods/eviction namespaced=true kind=Eviction verbs=[create] shortNames=<absent> group=policy "
                      + "version=v1",
                  "pods/exec namespaced=true kind=PodExecOptions verbs=[create, get] shortNames=<absent>",
                  "pods/log namespaced=true kind=Pod verbs=[get] shortNames=<absent>",
                  "pods/portforward namespaced=true kind=PodPortForwardOptions verbs=[create, get] "
                      + "shortNames=<absent>",
                  "pods/proxy namespaced=true kind=PodProxyOptions verbs=[create, delete, get, patch, update] "
                      + "shortNames=<absent>",
                  "serviceaccounts/token namespaced=true kind=TokenRequest verbs=[create] shortNames=<absent> "
                      + "group=authentication.k8s.io version=v1",
                  "services/proxy namespaced=true kind=ServiceProxyOptions verbs=[create, delete, get, patch, "
                      + "update] shortNames=<absent>"));
              JsonNode log = find(t.api().get("/api/v1").body().path("resources"), "pods/log");
              o.check("pods/log singularName", log == null ? null : log.path("singularName"), "");
            }),

        Scenario.named(GROUP, "/version carries the fields clients parse")
            .knownDifference("minor", "the fake reports the kube minor version it emulates")
            .body((t, o) -> {
              Response r = t.api().get("/version");
              List<String> fields = new ArrayList<>();
              r.body().fieldNames().forEachRemaining(fields::add);
              fields.sort(null);
              o.check("fields", fields, List.of("buildDate", "compiler",
                  "gitCommit", "gitTreeState", "gitVersion", "goVersion", "major", "minor", "platform"));
              o.check("major", r.at("/major"), "1");
              o.check("minor is a number", r.at("/minor").matches("\\d+\\+?"), true);
              o.check("gitVersion shape", r.at("/gitVersion").matches("v1\\.\\d+\\.\\d+.*"), true);
              o.check("minor", r.at("/minor"), "32");
            }));
  }

  /** {@code " group=.. version=.."} for a subresource served in another group, else nothing. */
  private static String group(JsonNode resource) {
    String group = resource.path("group").asText("");
    return group.isEmpty() ? "" : " group=" + group + " version=" + resource.path("version").asText();
  }

  private static JsonNode find(JsonNode list, String name) {
    for (JsonNode item : list) {
      if (name.equals(item.path("name").asText())) {
        return item;
      }
    }
    return null;
  }

  /** {@code namespaced=.. kind=.. verbs=[sorted] shortNames=..}. */
  private static String describe(JsonNode resource) {
    if (resource == null) {
      return "<not listed>";
    }
    List<String> verbs = new ArrayList<>();
    resource.path("verbs").forEach(v -> verbs.add(v.asText()));
    verbs.sort(null);
    JsonNode shortNames = resource.get("shortNames");
    return "namespaced=" + resource.path("namespaced").asText() + " kind=" + resource.path("kind").asText()
        + " verbs=" + verbs + " shortNames=" + (shortNames == null ? "<absent>" : shortNames.toString());
  }
}
