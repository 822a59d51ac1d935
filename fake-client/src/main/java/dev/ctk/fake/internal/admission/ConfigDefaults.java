package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * Secret defaulting and conversion: {@code type} defaults to {@code Opaque}, and {@code stringData} is merged into
 * {@code data} (base64, overriding equal keys) and dropped, as kube converts it before validation and storage, so
 * a stored Secret never carries {@code stringData}. ConfigMaps get no defaults.
 */
final class ConfigDefaults {

  private ConfigDefaults() {}

  static void secret(ObjectNode secret) {
    Json.putIfAbsent(secret, "type", "Opaque");
    JsonNode stringData = secret.get("stringData");
    if (stringData instanceof ObjectNode strings && !strings.isEmpty()) {
      ObjectNode data = Json.object(secret, "data");
      for (Map.Entry<String, JsonNode> entry : strings.properties()) {
        data.put(entry.getKey(), Base64.getEncoder()
            .encodeToString(entry.getValue().asText("").getBytes(StandardCharsets.UTF_8)));
      }
    }
    secret.remove("stringData");
  }
}
