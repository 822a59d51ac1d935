package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's PersistentVolumeClaim defaults: {@code spec.volumeMode: Filesystem}, and {@code status.phase: Pending} on a
 * new claim (kube's strategy clears the status on create and its defaulter fills the phase in).
 */
final class ClaimDefaults {

  private ClaimDefaults() {}

  static void claim(ObjectNode claim) {
    Json.putIfAbsent(Json.object(claim, "spec"), "volumeMode", "Filesystem");
  }

  static void pending(ObjectNode claim) {
    if (!claim.has("status")) {
      claim.putObject("status").put("phase", "Pending");
    }
  }
}
