package dev.ctk.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The metadata kube adds to a created ConfigMap of the benchmarks ({@code uid}, {@code creationTimestamp},
 * {@code managedFields}), as JSON object members, captured once per JVM from ctk's fake: what
 * {@link Target#FABRIC8_CLIENT_FLOOR_KUBE_OBJECTS} splices into every object it echoes.
 *
 * <pre>{@code
 * EchoApiServer.startWithDeliveryThread().answeringCreatesWithMetadata(KubeMetadata.fields());
 * }</pre>
 *
 * @since 0.1.0
 */
final class KubeMetadata {

  private static final String[] ADDED = {"uid", "creationTimestamp", "managedFields"};

  private KubeMetadata() {}

  /**
   * The captured members, e.g. {@code "uid":"...","creationTimestamp":"...","managedFields":[...]}.
   *
   * @return the text, the same on every call
   */
  static String fields() {
    return Captured.FIELDS;
  }

  /** Holder: the capture runs on first use, once. */
  private static final class Captured {
    static final String FIELDS = capture();
  }

  private static String capture() {
    ObjectMapper json = new ObjectMapper();
    try (ClusterUnderTest ctk = Target.CTK_FAKE.start()) {
      String name = ConfigMaps.name(1);
      ctk.client().configMaps().resource(ConfigMaps.named(name, 1)).create();
      JsonNode metadata = json.readTree(ctk.client().raw("/api/v1/namespaces/" + ctk.client().getNamespace()
          + "/configmaps/" + name)).path("metadata");
      StringBuilder fields = new StringBuilder();
      for (String field : ADDED) {
        JsonNode value = metadata.get(field);
        if (value == null) {
          throw new IllegalStateException("Expecting a ConfigMap created on ctk's fake and read back to have "
              + "metadata." + field + " but it has none: " + metadata + ". ctk's fake sets it on every create, so "
              + "its create path has regressed: run fake-client's tests (CrudTest, ServerSideApplyOwnershipTest) to "
              + "find where.");
        }
        fields.append(fields.isEmpty() ? "" : ",").append(json.writeValueAsString(field)).append(':')
            .append(json.writeValueAsString(value));
      }
      return fields.toString();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read back the ConfigMap created on ctk's fake", e);
    }
  }
}
