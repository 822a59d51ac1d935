package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's Service registry before it allocates on an update, in its order: {@code patchAllocatedValues} (what the
 * body left out is kept), {@code normalizeClusterIPs} ({@code clusterIP} and {@code clusterIPs} kept in step), then
 * {@code initIPFamilyFields}: the {@code ipFamilyPolicy} is inherited, the clusterIP fields are pre-validated
 * ({@code ValidateServiceClusterIPsRelatedFields}) and any error there answers 422 at once, before the update
 * validation (so a changed {@code clusterIPs} alone answers {@code first value must match `clusterIP`}, not
 * {@code may not change once set}); then the families are inferred and checked against this single-stack IPv4
 * cluster.
 *
 * <p>The cluster is IPv4 only, as the fake's service CIDR: any IPv6 family or RequireDualStack is refused as kube
 * refuses it on such a cluster (a headless Service without selector excepted, which kube lets list both families).
 */
final class ServiceIpFamilies {

  private static final List<String> POLICIES = List.of("PreferDualStack", "RequireDualStack", "SingleStack");

  private ServiceIpFamilies() {}

  /**
   * Prepares an update's addresses in place and pre-validates them.
   *
   * @param current the stored Service
   * @param next the Service to store (modified)
   * @return the errors found (then nothing else may run: kube answers them alone)
   */
  static FieldErrors update(JsonNode current, ObjectNode next) {
    JsonNode old = current.path("spec");
    ObjectNode spec = Json.object(next, "spec");
    if (!externalName(old) && !externalName(spec)) {
      if (spec.path("clusterIP").asText("").isEmpty() && old.has("clusterIP")) {
        spec.set("clusterIP", old.get("clusterIP").deepCopy());
      }
      if (spec.path("clusterIPs").isEmpty() && !old.path("clusterIPs").isEmpty()) {
        spec.set("clusterIPs", old.get("clusterIPs").deepCopy());
      }
    }
    normalize(old, spec);
    return init(old, spec);
  }

  /** Whether a Service spec is of type ExternalName (which needs no cluster IP). */
  static boolean externalName(JsonNode spec) {
    return spec.path("type").asText().equals("ExternalName");
  }

  /** Whether two specs hold the same {@code field} (absent and empty count as equal). */
  static boolean same(JsonNode old, JsonNode spec, String field) {
    JsonNode a = old.path(field);
    JsonNode b = spec.path(field);
    return a.equals(b) || empty(a) && empty(b);
  }

  private static boolean empty(JsonNode node) {
    return node.isMissingNode() || node.isNull() || node.isEmpty() && !node.isValueNode()
        || node.isTextual() && node.asText().isEmpty();
  }

  private static void normalize(JsonNode old, ObjectNode spec) {
    String oldIp = old.path("clusterIP").asText("");
    String newIp = spec.path("clusterIP").asText("");
    if (!old.path("clusterIPs").isEmpty() && spec.path("clusterIPs").isEmpty() && oldIp.equals(newIp)) {
      spec.set("clusterIPs", old.get("clusterIPs").deepCopy());
    }
    if (!oldIp.equals(newIp) && same(old, spec, "clusterIPs")) {
      if (!oldIp.isEmpty() && newIp.isEmpty()) {
        spec.remove("clusterIPs");
      } else {
        spec.putArray("clusterIPs").add(newIp);
      }
    }
  }

  private static FieldErrors init(JsonNode old, ObjectNode spec) {
    FieldErrors errors = new FieldErrors();
    if (externalName(spec)) {
      return errors;
    }
    if ("PreferDualStack".equals(old.path("ipFamilyPolicy").asText()) && "PreferDualStack".equals(
        spec.path("ipFamilyPolicy").asText()) && same(old, spec, "clusterIPs") && same(old, spec, "ipFamilies")) {
      return errors;
    }
    boolean headlessWithoutSelector = spec.path("clusterIP").asText().equals("None") && spec.path("selector")
        .isEmpty();
    if (Json.absent(spec, "ipFamilyPolicy")) {
      if (!Json.absent(old, "ipFamilyPolicy")) {
        spec.set("ipFamilyPolicy", old.get("ipFamilyPolicy").deepCopy());
      } else {
        spec.put("ipFamilyPolicy", headlessWithoutSelector ? "RequireDualStack" : "SingleStack");
      }
    }
    relatedFields(spec, errors);
    if (!errors.isEmpty()) {
      return errors;
    }
    String policy = spec.path("ipFamilyPolicy").asText();
    if (policy.equals("SingleStack")) {
      if (same(old, spec, "clusterIPs") && spec.path("clusterIPs").size() > 1) {
        ((ArrayNode) spec.get("clusterIPs")).remove(1);
      }
      if (same(old, spec, "ipFamilies") && spec.path("ipFamilies").size() > 1) {
        ((ArrayNode) spec.get("ipFamilies")).remove(1);
      }
      if (spec.path("clusterIPs").size() == 2) {
        errors.invalid("spec.ipFamilyPolicy", policy, "must be 'RequireDualStack' or 'PreferDualStack' when "
            + "multiple cluster IPs are specified");
      }
      if (spec.path("ipFamilies").size() == 2) {
        errors.invalid("spec.ipFamilyPolicy", policy, "must be 'RequireDualStack' or 'PreferDualStack' when "
            + "multiple IP families are specified");
      }
    }
    JsonNode ips = spec.path("clusterIPs");
    for (int i = 0; i < ips.size() && !ips.get(i).asText().equals("None"); i++) {
      if (i >= spec.path("ipFamilies").size()) {
        if (ips.get(i).asText().contains(":")) {
          errors.invalidValue("spec.clusterIPs[" + i + "]", GoSyntax.printedStringSlice(ips),
              "IPv6 is not configured on this cluster");
        } else {
          families(spec).add("IPv4");
        }
      }
    }
    if (!errors.isEmpty()) {
      return errors;
    }
    if (headlessWithoutSelector) {
      if (spec.path("ipFamilies").isEmpty()) {
        families(spec).add("IPv4");
      }
      if (spec.path("ipFamilies").size() < 2 && !policy.equals("SingleStack")) {
        families(spec).add(spec.path("ipFamilies").get(0).asText().equals("IPv4") ? "IPv6" : "IPv4");
      }
      return errors;
    }
    if (policy.equals("RequireDualStack")) {
      errors.invalid("spec.ipFamilyPolicy", policy, "this cluster is not configured for dual-stack services");
    }
    JsonNode families = spec.path("ipFamilies");
    for (int i = 0; i < families.size(); i++) {
      if (!families.get(i).asText().equals("IPv4")) {
        errors.invalid("spec.ipFamilies[" + i + "]", families.get(i).asText(), "not configured on this cluster");
      }
    }
    if (errors.isEmpty() && families.isEmpty()) {
      families(spec).add("IPv4");
    }
    return errors;
  }

  /** kube's {@code ValidateServiceClusterIPsRelatedFields}, for a Service that is not ExternalName. */
  private static void relatedFields(JsonNode spec, FieldErrors errors) {
    JsonNode ips = spec.path("clusterIPs");
    String ip = spec.path("clusterIP").asText("");
    if (!ip.isEmpty()) {
      if (ips.isEmpty()) {
        errors.required("spec.clusterIPs", "");
      } else if (!ips.get(0).asText().equals(ip)) {
        errors.invalidValue("spec.clusterIPs", GoSyntax.printedStringSlice(ips), "first value must match `clusterIP`");
      }
    } else if (!ips.isEmpty()) {
      errors.invalidValue("spec.clusterIPs", GoSyntax.printedStringSlice(ips),
          "must be empty when `clusterIP` is not specified");
    }
    Set<String> seen = new HashSet<>();
    JsonNode families = spec.path("ipFamilies");
    for (int i = 0; i < families.size(); i++) {
      String family = families.get(i).asText();
      if (!family.equals("IPv4") && !family.equals("IPv6")) {
        errors.notSupported("spec.ipFamilies[" + i + "]", family, List.of("IPv4", "IPv6"));
      }
      if (!seen.add(family)) {
        errors.duplicate("spec.ipFamilies[" + i + "]", family);
      }
    }
    String policy = spec.path("ipFamilyPolicy").asText("");
    if (!POLICIES.contains(policy)) {
      errors.notSupported("spec.ipFamilyPolicy", policy, POLICIES);
    }
    boolean invalidIps = false;
    for (int i = 0; i < ips.size(); i++) {
      String value = ips.get(i).asText();
      if (i == 0 && value.equals("None")) {
        if (ips.size() > 1) {
          invalidIps = true;
          errors.invalidValue("spec.clusterIPs", GoSyntax.printedStringSlice(ips),
              "'None' must be the first and only value");
        }
        continue;
      }
      if (!validIp(value)) {
        invalidIps = true;
        errors.invalid("spec.clusterIPs[" + i + "]", value, "must be a valid IP address, (e.g. 10.9.8.7 or "
            + "2001:db8::ffff)");
      }
    }
    if (ips.size() > 2) {
      errors.invalidValue("spec.clusterIPs", GoSyntax.printedStringSlice(ips), "may only hold up to 2 values");
    }
    if (invalidIps) {
      return;
    }
    if (ips.size() > 1 && ips.get(0).asText().contains(":") == ips.get(1).asText().contains(":")) {
      errors.invalidValue("spec.clusterIPs", GoSyntax.printedStringSlice(ips),
          "may specify no more than one IP for each IP family");
    }
    if (!ip.equals("None")) {
      for (int i = 0; i < ips.size() && i < families.size(); i++) {
        boolean v6 = ips.get(i).asText().contains(":");
        String family = families.get(i).asText();
        if (family.equals("IPv4") && v6 || family.equals("IPv6") && !v6) {
          errors.invalid("spec.clusterIPs[" + i + "]", ips.get(i).asText(), "expected an " + family
              + " value as indicated by `ipFamilies[" + i + "]`");
        }
      }
    }
  }

  private static ArrayNode families(ObjectNode spec) {
    return spec.get("ipFamilies") instanceof ArrayNode a ? a : spec.putArray("ipFamilies");
  }

  /** A dotted IPv4 address, or (loosely) an IPv6 one. */
  private static boolean validIp(String value) {
    if (value.contains(":")) {
      return value.matches("[0-9a-fA-F:.]+") && value.length() >= 2;
    }
    String[] parts = value.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String part : parts) {
      if (!part.matches("\\d{1,3}") || Integer.parseInt(part) > 255) {
        return false;
      }
    }
    return true;
  }
}
