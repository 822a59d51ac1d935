package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Service update rules kube checks after allocation ({@code ValidateServiceUpdate}): an ExternalName Service holds
 * no {@code clusterIPs}, {@code ipFamilies} nor {@code ipFamilyPolicy}; otherwise the primary cluster IP cannot
 * change once allocated ({@code spec.clusterIPs[0]: Invalid value: []string{...}: may not change once set}), unless
 * the Service moves to or from type ExternalName or stays headless. The address fields were pre-validated before
 * (see {@link ServiceIpFamilies}).
 */
final class ServiceValidation {

  private ServiceValidation() {}

  static FieldErrors update(JsonNode current, JsonNode next) {
    FieldErrors errors = new FieldErrors();
    JsonNode before = current.path("spec");
    JsonNode after = next.path("spec");
    if (ServiceIpFamilies.externalName(after)) {
      if (!after.path("clusterIPs").isEmpty()) {
        errors.forbidden("spec.clusterIPs", "may not be set for ExternalName services");
      }
      if (!after.path("ipFamilies").isEmpty()) {
        errors.forbidden("spec.ipFamilies", "may not be set for ExternalName services");
      }
      if (!Json.absent(after, "ipFamilyPolicy")) {
        errors.forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services");
      }
      return errors;
    }
    if (ServiceIpFamilies.externalName(before) || headless(before) && headless(after)) {
      return errors;
    }
    JsonNode oldIps = before.path("clusterIPs");
    JsonNode newIps = after.path("clusterIPs");
    if (oldIps.size() == newIps.size()) {
      for (int i = 0; i < oldIps.size(); i++) {
        if (!oldIps.get(i).asText().equals(newIps.get(i).asText())) {
          errors.invalidValue("spec.clusterIPs[" + i + "]", GoSyntax.printedStringSlice(newIps), "may not change once set");
        }
      }
    } else if (oldIps.size() > 0 && newIps.size() > 0 && !oldIps.get(0).asText().equals(newIps.get(0).asText())) {
      errors.invalidValue("spec.clusterIPs[0]", GoSyntax.printedStringSlice(newIps), "may not change once set");
    }
    return errors;
  }

  private static boolean headless(JsonNode spec) {
    return spec.path("clusterIP").asText().equals("None");
  }
}
