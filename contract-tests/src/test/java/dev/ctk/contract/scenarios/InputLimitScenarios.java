package dev.ctk.contract.scenarios;

import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.List;

/**
 * kube's input limits and strict decoding: media types it does not decode, bodies over its request limit, objects
 * over a kind's size limit or etcd's, and wrongly typed fields of a built-in kind.
 */
final class InputLimitScenarios {

  private static final String GROUP = "input limits";

  private InputLimitScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "an object body in a media type kube does not decode answers 415").body((t, o) -> {
          t.installCrd(Manifests.widgetCrd(t.crdGroup()));
          for (String type : List.of("text/plain", "application/xml", "application/merge-patch+json")) {
            Response r = t.api().send("POST", t.core("configmaps"), type, Manifests.configMap("c"));
            o.check("configmap as " + type, r.outcome() + ": " + r.message(), "415 UnsupportedMediaType: the body of "
                + "the request was in an unknown format - accepted media types include: application/json, "
                + "application/yaml, application/vnd.kubernetes.protobuf");
          }
          Response custom = t.api().send("POST", t.apis(t.crdGroup() + "/v1", "widgets"), "text/plain",
              Manifests.widget(t.crdGroup(), "v1", "w", "{\"size\":1}"));
          o.check("widget as text/plain", custom.outcome() + ": " + custom.message(), "415 UnsupportedMediaType: the "
              + "body of the request was in an unknown format - accepted media types include: application/json, "
              + "application/yaml, application/vnd.kubernetes.protobuf");
          o.check("nothing stored", t.api().get(t.core("configmaps/c")).outcome(), "404 NotFound");
        }),

        Scenario.named(GROUP, "a request with a 100 KiB header is served").body((t, o) -> {
          Response r = t.api().get(t.core("configmaps"), java.util.Map.of("X-Long", "x".repeat(100 * 1024)));
          o.check("list", r.outcome() + " " + r.at("/kind"), "200 ConfigMapList");
        }),

        Scenario.named(GROUP, "a request body over 3 MiB answers 413").body((t, o) -> {
          String big = "x".repeat(3 * 1024 * 1024);
          Response r = t.api().post(t.core("configmaps"), "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
              + "\"metadata\":{\"name\":\"huge\"},\"data\":{\"k\":\"" + big + "\"}}");
          o.check("create", r.outcome() + ": " + r.message(), "413 RequestEntityTooLarge: Request entity too large: "
              + "limit is 3145728");
          o.check("nothing stored", t.api().get(t.core("configmaps/huge")).outcome(), "404 NotFound");
        }),

        Scenario.named(GROUP, "a ConfigMap or Secret over 1 MiB of data answers 422").body((t, o) -> {
          String mib = "x".repeat(1024 * 1024);
          Response map = t.api().post(t.core("configmaps"), "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
              + "\"metadata\":{\"name\":\"big\"},\"data\":{\"a\":\"" + mib + "\",\"b\":\"x\"}}");
          o.check("configmap", map.outcome(), "422 Invalid");
          o.check("configmap message", map.message(), "ConfigMap \"big\" is invalid: []: Too long: may not be more "
              + "than 1048576 bytes");
          o.check("configmap causes", map.causes(), List.of("FieldValueTooLong []: Too long: may not be more than "
              + "1048576 bytes"));
          Response exact = t.api().post(t.core("configmaps"), "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
              + "\"metadata\":{\"name\":\"exact\"},\"data\":{\"a\":\"" + mib + "\"}}");
          o.check("configmap of exactly 1 MiB", exact.outcome(), "201");
          String encoded = java.util.Base64.getEncoder().encodeToString(new byte[1024 * 1024 + 1]);
          Response secret = t.api().post(t.core("secrets"), "{\"apiVersion\":\"v1\",\"kind\":\"Secret\","
              + "\"metadata\":{\"name\":\"big\"},\"data\":{\"a\":\"" + encoded + "\"}}");
          o.check("secret", secret.outcome(), "422 Invalid");
          o.check("secret message", secret.message(), "Secret \"big\" is invalid: data: Too long: may not be more "
              + "than 1048576 bytes");
        }),

        Scenario.named(GROUP, "an object over etcd's request limits answers 500, and nothing is stored")
            .body((t, o) -> {
              t.installCrd(Manifests.widgetCrd(t.crdGroup()));
              String widgets = t.apis(t.crdGroup() + "/v1", "widgets");
              Response over2 = t.api().post(widgets, Manifests.widget(t.crdGroup(), "v1", "w",
                  "{\"size\":1,\"name\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}"));
              o.check("over 2 MiB", over2.outcome() + ": " + over2.message().replaceAll("\\(\\d+ vs", "(<n> vs"),
                  "500: rpc error: code = ResourceExhausted desc = trying to send message larger than max (<n> vs. "
                      + "2097152)");
              Response over15 = t.api().post(widgets, Manifests.widget(t.crdGroup(), "v1", "v",
                  "{\"size\":1,\"name\":\"" + "x".repeat(1600 * 1024) + "\"}"));
              o.check("over 1.5 MiB", over15.outcome() + ": " + over15.message(), "500: etcdserver: request is too large");
              o.check("nothing stored", t.api().get(widgets).body().path("items").size(), 0);
            }),

        Scenario.named(GROUP, "a wrongly typed field of a built-in kind answers 400, or 422 after a patch")
            .body((t, o) -> {
          Response number = t.api().post(t.core("configmaps"), "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
              + "\"metadata\":{\"name\":\"n\"},\"data\":{\"k\":5}}");
          o.check("data as a number", number.outcome() + ": " + number.message(), "400 BadRequest: ConfigMap in "
              + "version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field "
              + "ConfigMap.data of type string");
          Response object = t.api().post(t.core("configmaps"), "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
              + "\"metadata\":{\"name\":\"o\"},\"data\":{\"k\":{\"a\":1}}}");
          o.check("data as an object", object.outcome() + ": " + object.message(), "400 BadRequest: ConfigMap in "
              + "version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal object into Go struct field "
              + "ConfigMap.data of type string");
          t.create(t.core("configmaps"), Manifests.configMap("web"));
          for (String[] patchType : new String[][] {{"merge patch", dev.ctk.contract.RawApi.MERGE_PATCH,
              "{\"data\":{\"k\":5}}"}, {"json patch", "application/json-patch+json",
              "[{\"op\":\"add\",\"path\":\"/data/k\",\"value\":5}]"}, {"strategic merge patch",
              "application/strategic-merge-patch+json", "{\"data\":{\"k\":5}}"}}) {
            Response patch = t.api().patch(t.core("configmaps/web"), patchType[1], patchType[2]);
            // the JSON kube prints of the patched object is its own serialization: compared up to its value
            o.check(patchType[0], patch.outcome() + ": " + patch.message().replaceAll(
                "Invalid value: \"\\{.*\\}\": ", "Invalid value: \"<the patched object>\": "),
                "422 Invalid:  \"\" is invalid: patch: Invalid value: " + (patchType[0].startsWith("strategic")
                    ? "\"map[data:map[k:5]]\": cannot convert int64 to string"
                    : "\"<the patched object>\": json: cannot unmarshal number into Go struct field ConfigMap.data of "
                        + "type string"));
          }
          o.check("nothing patched", t.api().get(t.core("configmaps/web")).at("/data/k"), "v");
          Response replicas = t.api().post(t.apis("apps/v1", "deployments"), Manifests.deployment("d")
              .replace("\"spec\":{", "\"spec\":{\"replicas\":\"two\","));
          o.check("replicas as a string", replicas.outcome() + ": " + replicas.message(), "400 BadRequest: Deployment "
              + "in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct "
              + "field DeploymentSpec.spec.replicas of type int32");
        }));
  }
}
