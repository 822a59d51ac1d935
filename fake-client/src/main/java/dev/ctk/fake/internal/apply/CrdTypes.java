package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Server-side apply types of a custom resource, read from its CustomResourceDefinition's
 * {@code openAPIV3Schema} for the version served: {@code x-kubernetes-list-type} ({@code atomic} when absent,
 * {@code set}, or {@code map} with {@code x-kubernetes-list-map-keys}), {@code x-kubernetes-map-type: atomic},
 * declared {@code properties} versus {@code additionalProperties}, and fields the schema does not describe
 * ({@code x-kubernetes-preserve-unknown-fields}) as {@link FieldType#DEDUCED}. {@code metadata} is kube's
 * {@code ObjectMeta}, as for every kind.
 *
 * <pre>{@code
 * FieldType network = CrdTypes.forVersion(crd, "v1");
 * network.field("spec").field("routes").listKind();   // MAP when the schema says x-kubernetes-list-type: map
 * }</pre>
 */
final class CrdTypes implements FieldType {

  private final JsonNode schema;
  private final boolean root;

  private CrdTypes(JsonNode schema, boolean root) {
    this.schema = schema;
    this.root = root;
  }

  /**
   * The type of a custom resource of a CRD version; a CRD without a schema for it gives a deduced type (with
   * {@code ObjectMeta} metadata).
   *
   * @param crd the CustomResourceDefinition (may be {@code null})
   * @param version the version served
   */
  static FieldType forVersion(JsonNode crd, String version) {
    JsonNode schema = null;
    if (crd != null) {
      for (JsonNode v : crd.path("spec").path("versions")) {
        if (version.equals(v.path("name").asText())) {
          schema = v.path("schema").path("openAPIV3Schema");
        }
      }
      if ((schema == null || schema.isMissingNode()) && crd.path("spec").has("validation")) {
        schema = crd.path("spec").path("validation").path("openAPIV3Schema");
      }
    }
    return new CrdTypes(schema == null || !schema.isObject() ? null : schema, true);
  }

  @Override
  public boolean atomicObject() {
    return schema != null && "atomic".equals(schema.path("x-kubernetes-map-type").asText());
  }

  @Override
  public ListKind listKind() {
    if (schema == null) {
      return ListKind.ATOMIC;
    }
    return switch (schema.path("x-kubernetes-list-type").asText("atomic")) {
      case "set" -> ListKind.SET;
      case "map" -> ListKind.MAP;
      default -> ListKind.ATOMIC;
    };
  }

  @Override
  public List<String> listKeys() {
    List<String> keys = new ArrayList<>();
    if (schema != null) {
      schema.path("x-kubernetes-list-map-keys").forEach(k -> keys.add(k.asText()));
    }
    return keys;
  }

  @Override
  public JsonNode keyDefault(String key) {
    if (schema == null) {
      return null;
    }
    JsonNode value = schema.path("items").path("properties").path(key).get("default");
    return value == null || value.isNull() ? null : value;
  }

  @Override
  public boolean declares(String name) {
    if (root && (name.equals("apiVersion") || name.equals("kind") || name.equals("metadata"))) {
      return true;
    }
    return schema != null && schema.path("properties").has(name);
  }

  @Override
  public FieldType field(String name) {
    if (root && name.equals("metadata")) {
      return BuiltinTypes.objectMeta();
    }
    if (schema == null) {
      return FieldType.DEDUCED;
    }
    JsonNode declared = schema.path("properties").get(name);
    if (declared != null && declared.isObject()) {
      return new CrdTypes(declared, false);
    }
    JsonNode additional = schema.get("additionalProperties");
    if (additional != null && additional.isObject()) {
      return new CrdTypes(additional, false);
    }
    return FieldType.DEDUCED;
  }

  @Override
  public FieldType element() {
    if (schema == null) {
      return FieldType.DEDUCED;
    }
    JsonNode items = schema.get("items");
    return items != null && items.isObject() ? new CrdTypes(items, false) : FieldType.DEDUCED;
  }

  @Override
  public String toString() {
    return schema == null ? "custom (no schema)" : "custom " + schema.path("type").asText("?");
  }
}
