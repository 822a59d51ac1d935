package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Service update rule: the primary cluster IP cannot change once allocated
 * ({@code spec.clusterIPs[0]: Invalid value: []string{...}: may not change once set}), unless the Service moves to
 * or from type ExternalName.
 */
final class ServiceValidation {

  private ServiceValidation() {}

  static FieldErrors update(JsonNode current, JsonNode next) {
    FieldErrors errors = new FieldErrors();
    JsonNode before = current.path("spec");
    JsonNode after = next.path("spec");
    if (before.path("type").asText().equals("ExternalName") || after.path("type").asText().equals("ExternalName")) {
      return errors;
    }
    JsonNode oldIps = before.path("clusterIPs");
    JsonNode newIps = after.path("clusterIPs");
    if (oldIps.size() > 0 && newIps.size() > 0 && !oldIps.get(0).asText().equals(newIps.get(0).asText())) {
      errors.invalidRendered("spec.clusterIPs[0]", GoSyntax.stringSlice(newIps), "may not change once set");
    }
    return errors;
  }
}
