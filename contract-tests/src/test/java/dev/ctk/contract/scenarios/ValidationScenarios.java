package dev.ctk.contract.scenarios;

import static dev.ctk.contract.scenarios.Manifests.configMap;

import dev.ctk.contract.Observation;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.List;

/**
 * Validation controllers trip over: names, labels, a Pod without containers, immutable fields; 422 Invalid with
 * {@code details.causes}.
 */
final class ValidationScenarios {

  private static final String GROUP = "validation";

  private static final String SUBDOMAIN_RULE = "a lowercase RFC 1123 subdomain must consist of lower case "
      + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
      + "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*"
      + "[a-z0-9])?)*')";
  private static final String LABEL_KEY_RULE = "name part must consist of alphanumeric characters, '-', '_' or '.', "
      + "and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
      + "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  private static final String LABEL_VALUE_RULE = "a valid label must be an empty string or consist of alphanumeric "
      + "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
      + "'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

  private ValidationScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "a name that is not a DNS subdomain answers 422 with one cause").body((t, o) -> {
          Response r = t.api().post(t.core("configmaps"), configMap("Bad_Name"));
          o.check("create", r.outcome(), "422 Invalid");
          o.check("message", r.message(), "ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: "
              + "\"Bad_Name\": " + SUBDOMAIN_RULE);
          o.check("causes", r.causes(), List.of("FieldValueInvalid metadata.name: Invalid value: \"Bad_Name\": "
              + SUBDOMAIN_RULE));
          o.check("details", r.at("/details/name") + " " + r.at("/details/kind"), "Bad_Name ConfigMap");
        }),

        Scenario.named(GROUP, "a bad label key and a bad label value answer 422 with a cause each").body((t, o) -> {
          Response r = t.api().post(t.core("configmaps"),
              configMap("web", "{\"bad key!\":\"v\",\"ok\":\"bad value!\"}"));
          o.check("create", r.outcome(), "422 Invalid");
          // kube-apiserver lists the two errors in Go map order (random from one request to the next): compare
          // them as a set, the frame of the message exactly
          o.check("message", errorsInAnyOrder(r.message(), "ConfigMap \"web\" is invalid: "), List.of(
              "metadata.labels: Invalid value: \"bad key!\": " + LABEL_KEY_RULE,
              "metadata.labels: Invalid value: \"bad value!\": " + LABEL_VALUE_RULE));
          o.check("causes", r.causes().stream().sorted().toList(), List.of(
              "FieldValueInvalid metadata.labels: Invalid value: \"bad key!\": " + LABEL_KEY_RULE,
              "FieldValueInvalid metadata.labels: Invalid value: \"bad value!\": " + LABEL_VALUE_RULE));
        }),

        Scenario.named(GROUP, "a Pod without containers answers 422").body((t, o) -> {
          Response r = t.api().post(t.core("pods"),
              "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[]}}");
          o.check("create", r.outcome(), "422 Invalid");
          o.check("message", r.message(), "Pod \"p\" is invalid: spec.containers: Required value");
          o.check("causes", r.causes(), List.of("FieldValueRequired spec.containers: Required value"));
        }),

        Scenario.named(GROUP, "a Deployment's spec.selector is immutable")
            .body((t, o) -> {
              t.create(t.apis("apps/v1", "deployments"), Manifests.deployment("web"));
              Response r = t.api().patch(t.apis("apps/v1", "deployments/web"), RawApi.MERGE_PATCH,
                  "{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\",\"x\":\"y\"}},"
                      + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\",\"x\":\"y\"}}}}}");
              o.check("patch", r.outcome(), "422 Invalid");
              o.check("message", r.message(), "Deployment.apps \"web\" is invalid: spec.selector: Invalid value: "
                  + "v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web\", \"x\":\"y\"}, "
                  + "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable");
              o.check("causes", r.causes().size(), 1);
            }),

        Scenario.named(GROUP, "an immutable ConfigMap rejects changes to data and to immutable").body((t, o) -> {
          t.create(t.core("configmaps"),
              configMap("web").replace("\"data\"", "\"immutable\":true,\"data\""));
          Response data = t.api().patch(t.core("configmaps/web"), RawApi.MERGE_PATCH, "{\"data\":{\"k\":\"w\"}}");
          o.check("data change", data.outcome(), "422 Invalid");
          o.check("data message", data.message(), "ConfigMap \"web\" is invalid: data: Forbidden: field is "
              + "immutable when `immutable` is set");
          o.check("data causes", data.causes(), List.of("FieldValueForbidden data: Forbidden: field is immutable "
              + "when `immutable` is set"));
          Response flag = t.api().patch(t.core("configmaps/web"), RawApi.MERGE_PATCH, "{\"immutable\":false}");
          o.check("immutable change", flag.outcome(), "422 Invalid");
          o.check("immutable message", flag.message(), "ConfigMap \"web\" is invalid: immutable: Forbidden: field "
              + "is immutable when `immutable` is set");
          Response labels = t.api().patch(t.core("configmaps/web"), RawApi.MERGE_PATCH,
              "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}");
          o.check("metadata change", labels.outcome(), "200");
        }),

        Scenario.named(GROUP, "an immutable Secret rejects changes to data").body((t, o) -> {
          t.create(t.core("secrets"), "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},"
              + "\"immutable\":true,\"data\":{\"k\":\"dg==\"}}");
          Response r = t.api().patch(t.core("secrets/s"), RawApi.MERGE_PATCH, "{\"data\":{\"k\":\"dw==\"}}");
          o.check("data change", r.outcome(), "422 Invalid");
          o.check("message", r.message(), "Secret \"s\" is invalid: data: Forbidden: field is immutable when "
              + "`immutable` is set");
        }),

        Scenario.named(GROUP, "a Service's cluster IP may not change")
            .body((t, o) -> {
              Response created = t.create(t.core("services"), Manifests.service("web"));
              String ip = created.at("/spec/clusterIP");
              String other = ip.substring(0, ip.lastIndexOf('.') + 1) + (ip.endsWith(".99") ? "98" : "99");
              Response r = t.api().patch(t.core("services/web"), RawApi.MERGE_PATCH,
                  "{\"spec\":{\"clusterIP\":\"" + other + "\"}}");
              o.check("patch", r.outcome(), "422 Invalid");
              o.check("message", Observation.withoutIps(r.message()), "Service \"web\" is invalid: spec.clusterIPs[0]: "
                  + "Invalid value: []string{\"<IPv4>\"}: may not change once set");
              o.check("causes", Observation.withoutIps(String.join("; ", r.causes())), "FieldValueInvalid "
                  + "spec.clusterIPs[0]: Invalid value: []string{\"<IPv4>\"}: may not change once set");
            }),

        Scenario.named(GROUP, "a Service's clusterIP and clusterIPs: kube's causes for each way of changing them")
            .body((t, o) -> {
              Response created = t.create(t.core("services"), Manifests.service("web"));
              String ip = created.at("/spec/clusterIP");
              String prefix = ip.substring(0, ip.lastIndexOf('.') + 1);
              String other = prefix + (ip.endsWith(".99") ? "98" : "99");
              String third = prefix + (ip.endsWith(".97") ? "96" : "97");
              String path = t.core("services/web");
              String mustMatch = "spec.clusterIPs: Invalid value: []string{\"<IPv4>\"}: first value must match "
                  + "`clusterIP`";
              String perFamily = "spec.clusterIPs: Invalid value: []string{\"<IPv4>\", \"<IPv4>\"}: may specify no "
                  + "more than one IP for each IP family";
              String unchanged = "clusterIP=<IPv4> clusterIPs=[\"<IPv4>\"] ipFamilies=[\"IPv4\"] "
                  + "ipFamilyPolicy=SingleStack";
              change(t, o, path, "clusterIPs only", "{\"spec\":{\"clusterIPs\":[\"" + other + "\"]}}",
                  "422 Invalid", "Service \"web\" is invalid: " + mustMatch, List.of(mustMatch));
              change(t, o, path, "a second IPv4 in clusterIPs", "{\"spec\":{\"clusterIPs\":[\"" + ip + "\",\""
                  + third + "\"]}}", "422 Invalid", "Service \"web\" is invalid: " + perFamily, List.of(perFamily));
              String mustMatchTwo = mustMatch.replace("{\"<IPv4>\"}", "{\"<IPv4>\", \"<IPv4>\"}");
              change(t, o, path, "two other IPv4s in clusterIPs", "{\"spec\":{\"clusterIPs\":[\"" + other + "\",\""
                  + third + "\"]}}", "422 Invalid", "Service \"web\" is invalid: [" + mustMatchTwo + ", " + perFamily
                  + "]", List.of(mustMatchTwo, perFamily));
              String immutable = "spec.clusterIPs[0]: Invalid value: []string{\"<IPv4>\"}: may not change once set";
              change(t, o, path, "both to another IP", "{\"spec\":{\"clusterIP\":\"" + other
                  + "\",\"clusterIPs\":[\"" + other + "\"]}}", "422 Invalid", "Service \"web\" is invalid: "
                  + immutable, List.of(immutable));
              change(t, o, path, "clusterIP emptied", "{\"spec\":{\"clusterIP\":\"\"}}", "200", unchanged, null);
              change(t, o, path, "clusterIPs removed", "{\"spec\":{\"clusterIPs\":null}}", "200", unchanged, null);
              Response put = t.api().put(path, Manifests.service("web").replace("\"spec\":{",
                  "\"spec\":{\"clusterIP\":\"" + ip + "\",\"clusterIPs\":[\"" + other + "\"],"));
              expect(o, "update with clusterIPs[0] other than clusterIP", put, "422 Invalid",
                  "Service \"web\" is invalid: " + mustMatch, List.of(mustMatch));
              change(t, o, path, "to ExternalName", "{\"spec\":{\"type\":\"ExternalName\","
                  + "\"externalName\":\"web.example.com\"}}", "200",
                  "type=ExternalName clusterIP=null clusterIPs=null ipFamilies=null ipFamilyPolicy=null", null);
              String forbidden = "spec.ipFamilies: Forbidden: may not be set for ExternalName services";
              change(t, o, path, "ipFamilies on an ExternalName Service", "{\"spec\":{\"ipFamilies\":[\"IPv4\"]}}",
                  "422 Invalid", "Service \"web\" is invalid: " + forbidden, List.of(forbidden));
              Response headless = t.create(t.core("services"), "{\"apiVersion\":\"v1\",\"kind\":\"Service\","
                  + "\"metadata\":{\"name\":\"headless\"},\"spec\":{\"clusterIP\":\"None\","
                  + "\"ports\":[{\"port\":80}]}}");
              o.check("headless without selector", addresses(headless), "clusterIP=None clusterIPs=[\"None\"] "
                  + "ipFamilies=[\"IPv4\",\"IPv6\"] ipFamilyPolicy=RequireDualStack");
            }));
  }

  /** Patches a Service and checks the answer: see {@link #expect}. */
  private static void change(dev.ctk.contract.ContractTarget t, Observation o, String path, String what,
      String patch, String outcome, String text, List<String> causes) {
    expect(o, what, t.api().patch(path, RawApi.MERGE_PATCH, patch), outcome, text, causes);
  }

  /**
   * Checks an answer: its outcome; then, for a 200, the Service's addresses ({@code text}); else the message
   * ({@code text}) and the causes, each {@code field: message}; IPs normalized.
   */
  private static void expect(Observation o, String what, Response r, String outcome, String text,
      List<String> causes) {
    o.check(what, r.outcome(), outcome);
    if (r.code() == 200) {
      o.check("addresses: " + what, addresses(r), text);
      return;
    }
    o.check("message: " + what, Observation.withoutIps(r.message()), text);
    List<String> found = new java.util.ArrayList<>();
    for (com.fasterxml.jackson.databind.JsonNode cause : r.body().at("/details/causes")) {
      found.add(Observation.withoutIps(cause.path("field").asText() + ": " + cause.path("message").asText()));
    }
    o.check("message: " + what + " causes", found, causes == null ? List.of() : causes);
  }

  /** A Service's addresses, IPs normalized. */
  private static String addresses(Response r) {
    return Observation.withoutIps("type=" + r.at("/spec/type") + " clusterIP=" + r.at("/spec/clusterIP")
        + " clusterIPs=" + r.at("/spec/clusterIPs") + " ipFamilies=" + r.at("/spec/ipFamilies") + " ipFamilyPolicy="
        + r.at("/spec/ipFamilyPolicy")).replace("type=ClusterIP ", "");
  }

  /**
   * The errors of a 422 message {@code <prefix>[e1, e2]} sorted, so that kube's random map order compares equal;
   * a message without that frame comes back whole, as a one-element list, and fails the comparison visibly.
   */
  private static List<String> errorsInAnyOrder(String message, String prefix) {
    if (message == null || !message.startsWith(prefix + "[") || !message.endsWith("]")) {
      return List.of(String.valueOf(message));
    }
    String inner = message.substring(prefix.length() + 1, message.length() - 1);
    return java.util.Arrays.stream(inner.split(", (?=metadata\\.)")).sorted().toList();
  }
}
