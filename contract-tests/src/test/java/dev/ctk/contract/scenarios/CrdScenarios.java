package dev.ctk.contract.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * CustomResourceDefinitions (apiextensions.k8s.io/v1, structural schemas): Established, pruning, OpenAPI validation,
 * defaults, several served versions, the update rules of custom resources.
 */
final class CrdScenarios {

  private static final String GROUP = "crds";

  private CrdScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "a CRD becomes Established with its names accepted").body((t, o) -> {
          Response crd = t.installCrd(Manifests.widgetCrd(t.crdGroup()));
          List<String> conditions = new ArrayList<>();
          for (JsonNode c : crd.body().at("/status/conditions")) {
            conditions.add(c.path("type").asText() + "=" + c.path("status").asText() + " "
                + c.path("reason").asText());
          }
          conditions.sort(null);
          o.check("conditions", conditions, List.of("Established=True InitialNamesAccepted",
              "NamesAccepted=True NoConflicts"));
          o.check("acceptedNames", crd.body().at("/status/acceptedNames"), "{\"kind\":\"Widget\","
              + "\"listKind\":\"WidgetList\",\"plural\":\"widgets\",\"singular\":\"widget\"}");
          o.check("storedVersions", crd.body().at("/status/storedVersions"), "[\"v1\"]");
          Response list = t.api().get(t.apis(t.crdGroup() + "/v1", "widgets"));
          o.check("list", list.outcome() + " " + list.at("/kind") + " " + list.at("/apiVersion"),
              "200 WidgetList <ns>.example.com/v1");
        }),

        Scenario.named(GROUP, "fields the schema does not know are pruned").body((t, o) -> {
          t.installCrd(Manifests.widgetCrd(t.crdGroup()));
          Response r = t.api().post(t.apis(t.crdGroup() + "/v1", "widgets"),
              Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":3,\"extra\":1}").replace("}}", "},\"other\":2}"));
          o.check("create", r.outcome(), "201");
          o.check("spec", r.body().path("spec"), "{\"color\":\"red\",\"size\":3}");
          o.check("unknown top-level field", r.at("/other"), "<absent>");
          o.check("read spec", t.api().get(t.apis(t.crdGroup() + "/v1", "widgets/w")).body().path("spec"),
              "{\"color\":\"red\",\"size\":3}");
        }),

        Scenario.named(GROUP, "OpenAPI type, enum and pattern violations answer 422 with kube's causes")
            .knownDifference("type causes", "newer kube reports a wrong type as FieldValueTypeInvalid "
                + "(field.TypeInvalid); kube 1.20 as FieldValueInvalid")
            .body((t, o) -> {
              t.installCrd(Manifests.widgetCrd(t.crdGroup()));
              String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
              Response type = t.api().post(widgets, Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":\"big\"}"));
              o.check("type", type.outcome(), "422 Invalid");
              o.check("type message", type.message(), "Widget.<ns>.example.com \"w\" is invalid: spec.size: Invalid "
                  + "value: \"string\": spec.size in body must be of type integer: \"string\"");
              o.check("type causes", type.causes(), List.of("FieldValueTypeInvalid spec.size: Invalid value: "
                  + "\"string\": spec.size in body must be of type integer: \"string\""));
              Response enumeration = t.api().post(widgets, Manifests.widget(t.crdGroup(), "v1", "w",
                  "{\"size\":1,\"color\":\"pink\"}"));
              o.check("enum", enumeration.outcome(), "422 Invalid");
              o.check("enum message", enumeration.message(), "Widget.<ns>.example.com \"w\" is invalid: spec.color: "
                  + "Unsupported value: \"pink\": supported values: \"red\", \"blue\"");
              o.check("enum causes", enumeration.causes(), List.of("FieldValueNotSupported spec.color: Unsupported "
                  + "value: \"pink\": supported values: \"red\", \"blue\""));
              Response pattern = t.api().post(widgets, Manifests.widget(t.crdGroup(), "v1", "w",
                  "{\"size\":1,\"name\":\"ABC\"}"));
              o.check("pattern", pattern.outcome(), "422 Invalid");
              o.check("pattern message", pattern.message(), "Widget.<ns>.example.com \"w\" is invalid: spec.name: "
                  + "Invalid value: \"ABC\": spec.name in body should match '^[a-z]+$'");
              o.check("pattern causes", pattern.causes(), List.of("FieldValueInvalid spec.name: Invalid value: "
                  + "\"ABC\": spec.name in body should match '^[a-z]+$'"));
              o.check("nothing stored", t.api().get(widgets + "/w").outcome(), "404 NotFound");
            }),

        Scenario.named(GROUP, "OpenAPI maximum and required violations answer 422").body((t, o) -> {
          t.installCrd(Manifests.widgetCrd(t.crdGroup()));
          String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
          Response max = t.api().post(widgets, Manifests.widget(t.crdGroup(), "v1", "big", "{\"size\":11}"));
          o.check("maximum", max.outcome(), "422 Invalid");
          o.check("maximum message", max.message(), "Widget.<ns>.example.com \"big\" is invalid: spec.size: Invalid "
              + "value: 11: spec.size in body should be less than or equal to 10");
          Response required = t.api().post(widgets, Manifests.widget(t.crdGroup(), "v1", "empty", "{}"));
          o.check("required", required.outcome(), "422 Invalid");
          o.check("required message", required.message(), "Widget.<ns>.example.com \"empty\" is invalid: spec.size: "
              + "Required value");
          o.check("required causes", required.causes(), List.of("FieldValueRequired spec.size: Required value"));
        }),

        Scenario.named(GROUP, "schema defaults are applied on create and update").body((t, o) -> {
          t.installCrd(Manifests.widgetCrd(t.crdGroup()));
          String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
          Response created = t.api().post(widgets, Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":1}"));
          o.check("create color", created.at("/spec/color"), "red");
          Response blue = t.api().patch(widgets + "/w", RawApi.MERGE_PATCH,
              "{\"spec\":{\"color\":\"blue\"}}");
          o.check("explicit color", blue.at("/spec/color"), "blue");
          Response removed = t.api().patch(widgets + "/w", RawApi.MERGE_PATCH,
              "{\"spec\":{\"color\":null}}");
          o.check("color removed by patch", removed.at("/spec/color"), "red");
        }),

        Scenario.named(GROUP, "an object reads back in each served version with that apiVersion").body((t, o) -> {
          t.installCrd(Manifests.widgetCrd(t.crdGroup()));
          Response created = t.api().post(t.apis(t.crdGroup() + "/v1beta1", "widgets"),
              Manifests.widget(t.crdGroup(), "v1beta1", "w", "{\"size\":2}"));
          o.check("create in v1beta1", created.outcome() + " " + created.at("/apiVersion"),
              "201 <ns>.example.com/v1beta1");
          Response v1 = t.api().get(t.apis(t.crdGroup() + "/v1", "widgets/w"));
          o.check("read in v1", v1.at("/apiVersion") + " size=" + v1.at("/spec/size"), "<ns>.example.com/v1 size=2");
          Response list = t.api().get(t.apis(t.crdGroup() + "/v1beta1", "widgets"));
          o.check("list in v1beta1", list.at("/apiVersion") + " " + list.at("/items/0/apiVersion"),
              "<ns>.example.com/v1beta1 <ns>.example.com/v1beta1");
          o.check("unknown version", t.api().get(t.apis(t.crdGroup() + "/v2", "widgets")).code(), 404);
        }),

        Scenario.named(GROUP, "an update of a custom resource without resourceVersion answers 422")
            .body((t, o) -> {
              t.installCrd(Manifests.widgetCrd(t.crdGroup()));
              String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
              t.create(widgets, Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":1}"));
              Response r = t.api().put(widgets + "/w", Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":2}"));
              o.check("update", r.outcome(), "422 Invalid");
              o.check("message", r.message(), "widgets.<ns>.example.com \"w\" is invalid: metadata.resourceVersion: "
                  + "Invalid value: 0x0: must be specified for an update");
              o.check("causes", r.causes(), List.of("FieldValueInvalid metadata.resourceVersion: Invalid value: 0x0: "
                  + "must be specified for an update"));
            }));
  }
}
