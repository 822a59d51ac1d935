package dev.ctk.contract.scenarios;

import dev.ctk.contract.ContractTarget;
import dev.ctk.contract.RawApi;
import dev.ctk.contract.Response;
import dev.ctk.contract.Scenario;
import java.util.List;

/**
 * CRD validation rules ({@code x-kubernetes-validations}, CEL): a rule that does not compile refuses the CRD; rules
 * answer 422 with kube's causes (message, messageExpression, reason, fieldPath, the failed rule, a rule at the
 * root, an evaluation error); transition rules and {@code optionalOldSelf}; OpenAPI errors that block the rules; the
 * Kubernetes CEL libraries. kube-apiserver before 1.25 drops {@code x-kubernetes-validations} and checks nothing, so
 * older servers differ everywhere; kube 1.32, which the fake emulates, must match byte for byte; newer servers print
 * the invalid value of a failed rule and a refused rule differently (declared per key).
 */
final class CelScenarios {

  private static final String GROUP = "cel";
  private static final String NO_CEL_BEFORE_1_25 = "kube-apiserver before 1.25 drops x-kubernetes-validations and "
      + "evaluates no CEL rule";
  /** An evaluated message of 5,100 bytes: kube reports up to 5 KiB ({@code MaxEvaluatedMessageExpressionSizeBytes}). */
  private static final String LONG_MESSAGE = "m".repeat(5100);
  private static final String NIL_RULE_FIELDS = ", Message:\"\", MessageExpression:\"\", "
      + "Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}";

  private CelScenarios() {
  }

  static List<Scenario> all() {
    return List.of(
        Scenario.named(GROUP, "a CRD whose validation rule does not compile answers 422 with CEL's error")
            .knownDifferenceBefore("1.25", "*", NO_CEL_BEFORE_1_25)
            .body((t, o) -> {
              String crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
              Response r = t.api().post(crds, gadgetCrd(t.crdGroup(), """
                  {"type":"object","properties":{"replicas":{"type":"integer"}},
                   "x-kubernetes-validations":[{"rule":"self.minReplicas <= self.replicas"}]}"""));
              if (r.code() == 201) {
                t.api().delete(crds + "/gadgets." + t.crdGroup());
              }
              String detail = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: "
                  + "Invalid value: apiextensions.ValidationRule{Rule:\"self.minReplicas <= self.replicas\""
                  + NIL_RULE_FIELDS + ": compilation failed: ERROR: <input>:1:5: undefined field 'minReplicas'\n"
                  + " | self.minReplicas <= self.replicas\n | ....^";
              o.check("create", r.outcome(), "422 Invalid");
              o.check("message", r.message(), "CustomResourceDefinition.apiextensions.k8s.io "
                  + "\"gadgets.<ns>.example.com\" is invalid: " + detail);
              o.check("causes", r.causes(), List.of("FieldValueInvalid " + detail));
            }),

        Scenario.named(GROUP, "a CRD rule that is not a bool, or names no field, answers 422").knownDifferenceBefore(
            "1.25", "*", NO_CEL_BEFORE_1_25).body((t, o) -> {
              String crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
              Response r = t.api().post(crds, gadgetCrd(t.crdGroup(), """
                  {"type":"object","properties":{"replicas":{"type":"integer"}},
                   "x-kubernetes-validations":[{"rule":"self.replicas + 1"},{"rule":" "},
                     {"rule":"self.replicas > 0","reason":"FieldValueBroken"}]}"""));
              if (r.code() == 201) {
                t.api().delete(crds + "/gadgets." + t.crdGroup());
              }
              String at = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations";
              o.check("create", r.outcome(), "422 Invalid");
              o.check("causes", r.causes(), List.of(
                  "FieldValueRequired " + at + "[1].rule: Required value: rule is not specified",
                  "FieldValueNotSupported " + at + "[2].reason: Unsupported value: \"FieldValueBroken\": supported "
                      + "values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", "
                      + "\"FieldValueRequired\""));
            }),

        Scenario.named(GROUP, "compile errors of CRD rules: syntax, result types, literals, oldSelf placement")
            .knownDifferenceBefore("1.25", "*", NO_CEL_BEFORE_1_25)
            .body((t, o) -> {
              String crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
              Response r = t.api().post(crds, gadgetCrd(t.crdGroup(), """
                  {"type":"object","properties":{"name":{"type":"string","maxLength":10},"replicas":{"type":"integer"},
                    "tags":{"type":"array","maxItems":5,"items":{"type":"string","maxLength":10,
                      "x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}},
                   "x-kubernetes-validations":[
                    {"rule":"self.replicas >"},
                    {"rule":"self.replicas + 1"},
                    {"rule":"self.name.matches('[')"},
                    {"rule":"self.replicas + 'a' == 1"},
                    {"rule":"self.replicas > 0","messageExpression":"self.replicas"},
                    {"rule":"self.replicas > 0","optionalOldSelf":true}]}"""));
              if (r.code() == 201) {
                t.api().delete(crds + "/gadgets." + t.crdGroup());
              }
              String at = "spec.validation.openAPIV3Schema.properties[spec]";
              String rules = at + ".x-kubernetes-validations";
              o.check("create", r.outcome(), "422 Invalid");
              o.check("causes", r.causes(), List.of(
                  "FieldValueInvalid " + at + ".properties[tags].items.x-kubernetes-validations[0].rule: Invalid "
                      + "value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the "
                      + "schema within " + at + ".properties[tags]",
                  "FieldValueInvalid " + rules + "[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"
                      + "\"self.replicas >\"" + NIL_RULE_FIELDS + ": compilation failed: ERROR: <input>:1:16: Syntax "
                      + "error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', "
                      + "'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.replicas >\n"
                      + " | ...............^",
                  "FieldValueInvalid " + rules + "[1].rule: Invalid value: apiextensions.ValidationRule{Rule:"
                      + "\"self.replicas + 1\"" + NIL_RULE_FIELDS + ": cel expression must evaluate to a bool",
                  "FieldValueInvalid " + rules + "[2].rule: Invalid value: apiextensions.ValidationRule{Rule:"
                      + "\"self.name.matches('[')\"" + NIL_RULE_FIELDS + ": compilation failed: ERROR: <input>:1:19: "
                      + "invalid matches argument\n | self.name.matches('[')\n | ..................^",
                  "FieldValueInvalid " + rules + "[3].rule: Invalid value: apiextensions.ValidationRule{Rule:"
                      + "\"self.replicas + 'a' == 1\"" + NIL_RULE_FIELDS + ": compilation failed: ERROR: <input>:1:15: "
                      + "found no matching overload for '_+_' applied to '(int, string)'\n | self.replicas + 'a' == 1\n"
                      + " | ..............^",
                  "FieldValueInvalid " + rules + "[4].messageExpression: Invalid value: apiextensions.ValidationRule{"
                      + "Rule:\"self.replicas > 0\", Message:\"\", MessageExpression:\"self.replicas\", "
                      + "Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", "
                      + "OptionalOldSelf:(*bool)(nil)}: messageExpression must evaluate to a string",
                  "FieldValueInvalid " + rules + "[5].optionalOldSelf: Invalid value: true: may not be set if "
                      + "oldSelf is not used in rule"));
            }),

        Scenario.named(GROUP, "failing rules answer 422 with message, messageExpression, reason and fieldPath")
            .knownDifferenceBefore("1.25", "*", NO_CEL_BEFORE_1_25)
            .body((t, o) -> {
              t.installCrd(machineCrd(t.crdGroup()));
              String machines = t.apis(t.crdGroup() + "/v1", "machines");
              o.check("valid", t.api().post(machines, machine(t, "m-ok", "{\"replicas\":2,\"minReplicas\":1,"
                  + "\"mode\":\"new\",\"owner\":\"a\"}")).outcome(), "201");
              check(o, "fieldPath", t.api().post(machines, machine(t, "m-1", "{\"replicas\":2,\"minReplicas\":3}")),
                  "Machine.<ns>.example.com \"m-1\" is invalid: ", "FieldValueInvalid", "spec.replicas",
                  "Invalid value: \"object\": replicas must be at least minReplicas");
              check(o, "failed rule", t.api().post(machines, machine(t, "m-2", "{\"replicas\":101}")),
                  "Machine.<ns>.example.com \"m-2\" is invalid: ", "FieldValueInvalid", "spec",
                  "Invalid value: \"object\": failed rule: self.replicas <= 100");
              check(o, "messageExpression", t.api().post(machines, machine(t, "m-3",
                  "{\"replicas\":1,\"mode\":\"legacy\"}")), "Machine.<ns>.example.com \"m-3\" is invalid: ",
                  "FieldValueForbidden", "spec", "Forbidden: mode legacy is no longer supported");
              check(o, "reason Required", t.api().post(machines, machine(t, "m-4", "{\"replicas\":1,\"owner\":\"\"}")),
                  "Machine.<ns>.example.com \"m-4\" is invalid: ", "FieldValueRequired", "spec.owner",
                  "Required value: owner must be set");
              check(o, "root rule", t.api().post(machines, machine(t, "x-5", "{\"replicas\":1}")),
                  "Machine.<ns>.example.com \"x-5\" is invalid: ", "FieldValueInvalid", "<nil>",
                  "Invalid value: \"object\": name must start with m-");
              check(o, "evaluation error", t.api().post(machines, machine(t, "m-6",
                  "{\"replicas\":1,\"limits\":{\"max\":3}}")), "Machine.<ns>.example.com \"m-6\" is invalid: ",
                  "FieldValueInvalid", "spec.limits",
                  "Invalid value: \"object\": no such key: min evaluating rule: self.max >= self.min");
              check(o, "map value", t.api().post(machines, machine(t, "m-7",
                  "{\"replicas\":1,\"labels\":{\"team\":\"payments\"}}")),
                  "Machine.<ns>.example.com \"m-7\" is invalid: ", "FieldValueInvalid", "spec.labels[team]",
                  "Invalid value: \"string\": label values are at most 5 characters");
              check(o, "int-or-string", t.api().post(machines, machine(t, "m-8",
                  "{\"replicas\":1,\"threshold\":\"50\"}")), "Machine.<ns>.example.com \"m-8\" is invalid: ",
                  "FieldValueInvalid", "spec.threshold", "Invalid value: \"\": threshold is a count or a percentage");
              o.check("nothing stored", t.api().get(machines).body().at("/items").size(), 1);
            }),

        Scenario.named(GROUP, "transition rules compare with the stored object; OpenAPI errors block the rules")
            .knownDifferenceBefore("1.25", "*", NO_CEL_BEFORE_1_25)
            .body((t, o) -> {
              t.installCrd(machineCrd(t.crdGroup()));
              String machines = t.apis(t.crdGroup() + "/v1", "machines");
              o.check("create", t.api().post(machines, machine(t, "m-1", "{\"replicas\":1,\"image\":\"nginx:1\","
                  + "\"version\":3,\"ports\":[{\"name\":\"http\",\"port\":80}]}")).outcome(), "201");
              check(o, "immutable", t.api().patch(machines + "/m-1", RawApi.MERGE_PATCH,
                  "{\"spec\":{\"image\":\"nginx:2\"}}"), "Machine.<ns>.example.com \"m-1\" is invalid: ",
                  "FieldValueInvalid", "spec.image", "Invalid value: \"string\": image is immutable");
              check(o, "optionalOldSelf", t.api().patch(machines + "/m-1", RawApi.MERGE_PATCH,
                  "{\"spec\":{\"version\":2}}"), "Machine.<ns>.example.com \"m-1\" is invalid: ",
                  "FieldValueInvalid", "spec.version", "Invalid value: \"integer\": version may not go back");
              check(o, "map list item", t.api().patch(machines + "/m-1", RawApi.MERGE_PATCH,
                  "{\"spec\":{\"ports\":[{\"name\":\"admin\",\"port\":1},{\"name\":\"http\",\"port\":70}]}}"),
                  "Machine.<ns>.example.com \"m-1\" is invalid: ", "FieldValueInvalid", "spec.ports[1]",
                  "Invalid value: \"object\": a port may only grow");
              o.check("allowed change", t.api().patch(machines + "/m-1", RawApi.MERGE_PATCH,
                  "{\"spec\":{\"version\":4,\"ports\":[{\"name\":\"admin\",\"port\":1},{\"name\":\"http\","
                      + "\"port\":81}]}}").outcome(), "200");
              Response blocked = t.api().post(machines, machine(t, "x-2", "{\"mode\":\"legacy\"}"));
              o.check("blocked", blocked.outcome(), "422 Invalid");
              o.check("causes: blocked", blocked.causes(), List.of(
                  "FieldValueRequired spec.replicas: Required value",
                  "FieldValueInvalid <nil>: Invalid value: \"null\": some validation rules were not checked because "
                      + "the object was invalid; correct the existing errors to complete validation"));
            }),

        Scenario.named(GROUP, "a null field is absent to rules; messageExpression sees the plain oldSelf")
            .knownDifferenceBefore("1.25", "*", NO_CEL_BEFORE_1_25)
            .body((t, o) -> {
              t.installCrd(gadgetCrd(t.crdGroup(), """
                  {"type":"object",
                   "x-kubernetes-validations":[{"rule":"!has(self.limit) || self.limit > 0",
                     "message":"limit must be positive"}],
                   "properties":{
                    "limit":{"type":"integer","nullable":true},
                    "image":{"type":"string","nullable":true,
                     "x-kubernetes-validations":[{"rule":"self == oldSelf","message":"image is immutable"}]},
                    "version":{"type":"integer","x-kubernetes-validations":[{
                     "rule":"!oldSelf.hasValue() || oldSelf.value() <= self","optionalOldSelf":true,
                     "message":"version may not go back",
                     "messageExpression":"oldSelf.hasValue() ? 'went back' : 'new'"}]},
                    "size":{"type":"integer","x-kubernetes-validations":[{"rule":"self <= 10",
                     "message":"size is at most 10","messageExpression":"oldSelf < self ? 'size grew' : 'size did not grow'"}]},
                    "note":{"type":"string","maxLength":10,"x-kubernetes-validations":[{"rule":"self.size() < 3",
                     "message":"note is short","messageExpression":"'%s'"}]}}}""".formatted(LONG_MESSAGE)));
              String gadgets = t.apis(t.crdGroup() + "/v1", "gadgets");
              Response created = t.api().post(gadgets, gadget(t, "g-1", "{\"limit\":null,\"image\":null,"
                  + "\"version\":3,\"size\":5}"));
              o.check("null is absent to has()", created.outcome(), "201");
              o.check("the null is stored", created.body().at("/spec").has("image"), true);
              o.check("null old value: transition rule skipped", t.api().patch(gadgets + "/g-1", RawApi.MERGE_PATCH,
                  "{\"spec\":{\"image\":\"nginx\"}}").outcome(), "200");
              check(o, "optionalOldSelf message", t.api().patch(gadgets + "/g-1", RawApi.MERGE_PATCH,
                  "{\"spec\":{\"version\":2}}"), "Gadget.<ns>.example.com \"g-1\" is invalid: ",
                  "FieldValueInvalid", "spec.version", "Invalid value: \"integer\": version may not go back");
              check(o, "oldSelf unbound in message", t.api().patch(gadgets + "/g-1", RawApi.MERGE_PATCH,
                  "{\"spec\":{\"size\":11}}"), "Gadget.<ns>.example.com \"g-1\" is invalid: ",
                  "FieldValueInvalid", "spec.size", "Invalid value: \"integer\": size is at most 10");
              Response longMessage = t.api().post(gadgets, gadget(t, "g-2", "{\"note\":\"long\"}"));
              o.check("5 KiB message", longMessage.causes(), List.of("FieldValueInvalid spec.note: Invalid value: "
                  + "\"string\": " + LONG_MESSAGE));
            }),

        Scenario.named(GROUP, "the Kubernetes CEL libraries: quantity, URL, regex, lists, format, IP, strings")
            .knownDifferenceBefore("1.31", "*", "kube-apiserver before 1.31 lacks some of these libraries (format "
                + "1.31, IP and CIDR 1.30, quantity 1.29; CEL itself 1.25)")
            .body((t, o) -> {
              t.installCrd(libraryCrd(t.crdGroup()));
              String gizmos = t.apis(t.crdGroup() + "/v1", "gizmos");
              o.check("valid", t.api().post(gizmos, gizmo(t, "ok", "{\"memory\":\"1Gi\",\"endpoint\":"
                  + "\"https://example.com:8443/a?b=c\",\"version\":\"v1.2.3\",\"weights\":[10,20,70],"
                  + "\"hostname\":\"web-1\",\"cidr\":\"10.0.0.0/8\",\"name\":\"app-x\"}")).outcome(), "201");
              String[][] failures = {
                  {"memory", "{\"memory\":\"3Gi\"}", "memory must be a quantity below 2Gi"},
                  {"endpoint", "{\"endpoint\":\"http://example.com\"}", "endpoint must be an https URL"},
                  {"version", "{\"version\":\"v1.2\"}", "version must have three numbers"},
                  {"weights", "{\"weights\":[70,20,10]}", "weights must be sorted and sum to 100"},
                  {"hostname", "{\"hostname\":\"Web_1\"}", "a lowercase RFC 1123 label must consist of lower case "
                      + "alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. "
                      + "'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
                  {"cidr", "{\"cidr\":\"192.168.0.0/16\"}", "cidr must contain 10.0.0.1"},
                  {"name", "{\"name\":\"App\"}", "name must be lower case with a dash"}};
              for (String[] f : failures) {
                check(o, f[0], t.api().post(gizmos, gizmo(t, "bad-" + f[0], f[1])),
                    "Gizmo.<ns>.example.com \"bad-" + f[0] + "\" is invalid: ", "FieldValueInvalid", "spec." + f[0],
                    "Invalid value: \"" + (f[0].equals("weights") ? "array" : "string") + "\": " + f[2]);
              }
              check(o, "url parse error", t.api().post(gizmos, gizmo(t, "bad-url", "{\"host\":\"not a url\"}")),
                  "Gizmo.<ns>.example.com \"bad-url\" is invalid: ", "FieldValueInvalid", "spec.host",
                  "Invalid value: \"string\": URL parse error during conversion from string: parse \"not a url\": "
                      + "invalid URI for request evaluating rule: url(self).getHost() != ''");
            }));
  }

  private static void check(dev.ctk.contract.Observation o, String key, Response r, String messagePrefix,
      String reason, String field, String body) {
    o.check(key, r.outcome(), "422 Invalid");
    o.check("message: " + key, r.message(), messagePrefix + field + ": " + body);
    o.check("causes: " + key, r.causes(), List.of(reason + " " + field + ": " + body));
  }

  private static String machine(ContractTarget t, String name, String spec) {
    return """
        {"apiVersion":"%s/v1","kind":"Machine","metadata":{"name":"%s"},"spec":%s}"""
        .formatted(t.crdGroup(), name, spec);
  }

  private static String gadget(ContractTarget t, String name, String spec) {
    return """
        {"apiVersion":"%s/v1","kind":"Gadget","metadata":{"name":"%s"},"spec":%s}"""
        .formatted(t.crdGroup(), name, spec);
  }

  private static String gizmo(ContractTarget t, String name, String spec) {
    return """
        {"apiVersion":"%s/v1","kind":"Gizmo","metadata":{"name":"%s"},"spec":%s}"""
        .formatted(t.crdGroup(), name, spec);
  }

  private static String gadgetCrd(String group, String specSchema) {
    return """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gadgets.%1$s"},
         "spec":{"group":"%1$s","scope":"Namespaced","names":{"kind":"Gadget","plural":"gadgets"},
          "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
           "properties":{"spec":%2$s}}}}]}}""".formatted(group, specSchema);
  }

  /** CRD {@code machines.<group>}: rules of every kind on {@code spec} and below. */
  private static String machineCrd(String group) {
    return """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"machines.%s"},
         "spec":{"group":"%1$s","scope":"Namespaced",
          "names":{"kind":"Machine","plural":"machines","singular":"machine","listKind":"MachineList"},
          "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{
           "type":"object",
           "x-kubernetes-validations":[{"rule":"self.metadata.name.startsWith('m-')","message":"name must start with m-"}],
           "properties":{"spec":{"type":"object","required":["replicas"],
            "x-kubernetes-validations":[
             {"rule":"!has(self.minReplicas) || self.minReplicas <= self.replicas",
              "message":"replicas must be at least minReplicas","fieldPath":".replicas"},
             {"rule":"!has(self.mode) || self.mode != 'legacy'",
              "messageExpression":"'mode ' + self.mode + ' is no longer supported'","reason":"FieldValueForbidden"},
             {"rule":"self.replicas <= 100"}],
            "properties":{
             "replicas":{"type":"integer"},"minReplicas":{"type":"integer"},"mode":{"type":"string"},
             "image":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"image is immutable"}]},
             "version":{"type":"integer","x-kubernetes-validations":[{"rule":"!oldSelf.hasValue() || oldSelf.value() <= self",
               "optionalOldSelf":true,"message":"version may not go back"}]},
             "owner":{"type":"string","x-kubernetes-validations":[{"rule":"self != ''","reason":"FieldValueRequired",
               "message":"owner must be set"}]},
             "limits":{"type":"object","properties":{"min":{"type":"integer"},"max":{"type":"integer"}},
               "x-kubernetes-validations":[{"rule":"self.max >= self.min"}]},
             "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
              "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer"}},
               "x-kubernetes-validations":[{"rule":"self.port > 0","message":"port must be positive"},
                {"rule":"self.port >= oldSelf.port","message":"a port may only grow"}]}},
             "labels":{"type":"object","additionalProperties":{"type":"string",
               "x-kubernetes-validations":[{"rule":"self.size() <= 5","message":"label values are at most 5 characters"}]}},
             "threshold":{"x-kubernetes-int-or-string":true,"x-kubernetes-validations":[
               {"rule":"type(self) == int ? self >= 0 : self.endsWith('%%')","message":"threshold is a count or a percentage"}]}
            }}}}}}]}}""".formatted(group);
  }

  /** CRD {@code gizmos.<group>}: one string or list field per Kubernetes CEL library. */
  private static String libraryCrd(String group) {
    return """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gizmos.%s"},
         "spec":{"group":"%1$s","scope":"Namespaced","names":{"kind":"Gizmo","plural":"gizmos"},
          "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{
           "type":"object","properties":{"spec":{"type":"object","properties":{
            "memory":{"type":"string","x-kubernetes-validations":[{"rule":
              "isQuantity(self) && quantity(self).isLessThan(quantity('2Gi'))","message":"memory must be a quantity below 2Gi"}]},
            "endpoint":{"type":"string","x-kubernetes-validations":[{"rule":
              "isURL(self) && url(self).getScheme() == 'https' && url(self).getPort() == '8443'",
              "message":"endpoint must be an https URL"}]},
            "host":{"type":"string","x-kubernetes-validations":[{"rule":"url(self).getHost() != ''"}]},
            "version":{"type":"string","x-kubernetes-validations":[{"rule":
              "self.find('[0-9]+') == '1' && self.findAll('[0-9]+').size() == 3","message":"version must have three numbers"}]},
            "weights":{"type":"array","items":{"type":"integer"},"x-kubernetes-validations":[{"rule":
              "self.sum() == 100 && self.isSorted() && self.min() == 10 && self.max() == 70 && self.indexOf(20) == 1",
              "message":"weights must be sorted and sum to 100"}]},
            "hostname":{"type":"string","maxLength":63,"x-kubernetes-validations":[{"rule":
              "!format.dns1123Label().validate(self).hasValue()",
              "messageExpression":"format.dns1123Label().validate(self).value()[0]"}]},
            "cidr":{"type":"string","x-kubernetes-validations":[{"rule":
              "isCIDR(self) && cidr(self).containsIP('10.0.0.1') && cidr(self).prefixLength() == 8 && ip('10.0.0.1').family() == 4",
              "message":"cidr must contain 10.0.0.1"}]},
            "name":{"type":"string","x-kubernetes-validations":[{"rule":
              "self.lowerAscii() == self && self.indexOf('-') > 0 && self.split('-').size() == 2",
              "message":"name must be lower case with a dash"}]}}}}}}}]}}""".formatted(group);
  }
}
