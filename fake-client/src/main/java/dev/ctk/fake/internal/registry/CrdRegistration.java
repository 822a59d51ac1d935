package dev.ctk.fake.internal.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ctk.fake.internal.cel.CrdRuleChecks;
import dev.ctk.fake.internal.cel.CustomResourceRules;
import dev.ctk.fake.internal.schema.CustomResourceSchema;
import dev.ctk.fake.internal.schema.SchemaError;
import dev.ctk.fake.internal.schema.StructuralChecks;
import dev.ctk.fake.internal.status.ApiError;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.List;
import java.util.Locale;

/**
 * Reads an {@code apiextensions.k8s.io/v1} CustomResourceDefinition: the resource types it serves and the status a
 * real API server reports once its names are accepted ({@code NamesAccepted} and {@code Established} both
 * {@code True}, {@code acceptedNames}, {@code storedVersions}).
 *
 * <p>Checks only what a controller test can trip over: {@code metadata.name} must be
 * {@code <plural>.<group>}, names and at least one served version must be present, and each version's schema must
 * be structural as {@link StructuralChecks} checks it, and its {@code x-kubernetes-validations} rules well formed and
 * compilable ({@link CrdRuleChecks}). Each served version's schema becomes that resource type's
 * {@link CustomResourceSchema} (pruning, defaulting, validation) and {@link CustomResourceRules} (CEL rules).
 */
public final class CrdRegistration {

  private CrdRegistration() {}

  /**
   * The resource types a CRD serves, one per served version.
   *
   * @throws ApiError 422 Invalid when the CRD is malformed
   */
  public static List<ResourceType> typesOf(JsonNode crd) {
    String name = crd.path("metadata").path("name").asText("");
    JsonNode spec = crd.path("spec");
    String group = spec.path("group").asText("");
    JsonNode names = spec.path("names");
    String plural = names.path("plural").asText("");
    String kind = names.path("kind").asText("");
    require(!group.isEmpty(), name, "spec.group", "FieldValueRequired", "Required value");
    require(!plural.isEmpty(), name, "spec.names.plural", "FieldValueRequired", "Required value");
    require(!kind.isEmpty(), name, "spec.names.kind", "FieldValueRequired", "Required value");
    require(name.equals(plural + "." + group), name, "metadata.name", "FieldValueInvalid",
        "Invalid value: \"" + name + "\": must be spec.names.plural+\".\"+spec.group");
    String scope = spec.path("scope").asText("");
    require(scope.equals("Namespaced") || scope.equals("Cluster"), name, "spec.scope", "FieldValueNotSupported",
        "Unsupported value: \"" + scope + "\": supported values: \"Cluster\", \"Namespaced\"");
    requireStructural(name, spec);
    requireValidRules(name, spec);
    String singular = names.path("singular").asText(kind.toLowerCase(Locale.ROOT));
    List<String> shortNames = strings(names.path("shortNames"));
    List<String> categories = strings(names.path("categories"));
    List<ResourceType> types = new ArrayList<>();
    for (JsonNode version : spec.path("versions")) {
      if (!version.path("served").asBoolean(false)) {
        continue;
      }
      boolean status = version.path("subresources").has("status");
      JsonNode scale = version.path("subresources").path("scale");
      types.add(ResourceType.builder(group, version.path("name").asText(), plural, kind)
          .singular(singular)
          .namespaced(scope.equals("Namespaced"))
          .statusSubresource(status)
          .generationPolicy(GenerationPolicy.TRACKED)
          .shortNames(shortNames)
          .categories(categories)
          .custom(true)
          .schema(CustomResourceSchema.of(spec, version))
          .validationRules(CustomResourceRules.of(CustomResourceSchema.openApiV3Schema(spec, version)))
          .scaleSubresource(scale.isObject() ? new ScalePaths(scale.path("specReplicasPath").asText(".spec.replicas"),
              scale.path("statusReplicasPath").asText(".status.replicas"),
              scale.hasNonNull("labelSelectorPath") ? scale.get("labelSelectorPath").asText() : null) : null)
          .build());
    }
    require(!types.isEmpty(), name, "spec.versions", "FieldValueInvalid",
        "Invalid value: \"\": must have exactly one version marked as storage version");
    return types;
  }

  /**
   * Writes the status kube-apiserver's CRD controllers converge to: accepted names, both conditions
   * {@code True}, stored versions.
   *
   * @param crd the CRD object (modified in place)
   * @param now RFC 3339 timestamp for {@code lastTransitionTime}
   */
  public static void markEstablished(ObjectNode crd, String now) {
    JsonNode spec = crd.path("spec");
    JsonNode names = spec.path("names");
    ObjectNode status = crd.putObject("status");
    ObjectNode accepted = status.putObject("acceptedNames");
    String kind = names.path("kind").asText();
    accepted.put("kind", kind);
    accepted.put("listKind", names.path("listKind").asText(kind + "List"));
    accepted.put("plural", names.path("plural").asText());
    if (names.has("shortNames")) {
      accepted.set("shortNames", names.get("shortNames").deepCopy());
    }
    accepted.put("singular", names.path("singular").asText(kind.toLowerCase(Locale.ROOT)));
    if (names.has("categories")) {
      accepted.set("categories", names.get("categories").deepCopy());
    }
    ArrayNode conditions = status.putArray("conditions");
    conditions.addObject()
        .put("lastTransitionTime", now)
        .put("message", "no conflicts found")
        .put("reason", "NoConflicts")
        .put("status", "True")
        .put("type", "NamesAccepted");
    conditions.addObject()
        .put("lastTransitionTime", now)
        .put("message", "the initial names have been accepted")
        .put("reason", "InitialNamesAccepted")
        .put("status", "True")
        .put("type", "Established");
    ArrayNode stored = status.putArray("storedVersions");
    for (JsonNode version : spec.path("versions")) {
      if (version.path("storage").asBoolean(false)) {
        stored.add(version.path("name").asText());
      }
    }
  }

  /** 422 with every structural-schema error, joined as kube joins them. */
  private static void requireStructural(String name, JsonNode spec) {
    throwIfAny(name, StructuralChecks.check(spec));
  }

  /** 422 when an {@code x-kubernetes-validations} rule is malformed or does not compile, as kube refuses it. */
  private static void requireValidRules(String name, JsonNode spec) {
    throwIfAny(name, CrdRuleChecks.check(spec));
  }

  private static void throwIfAny(String name, List<SchemaError> errors) {
    if (errors.isEmpty()) {
      return;
    }
    Set<Integer> changes = new TreeSet<>();
    errors.forEach(e -> changes.addAll(e.later().keySet()));
    throw ApiError.wordedByMinor(minor -> invalid(name, errors, minor), changes);
  }

  private static ApiError invalid(String name, List<SchemaError> errors, int minor) {
    ObjectNode details = JsonNodeFactory.instance.objectNode();
    details.put("name", name).put("group", "apiextensions.k8s.io").put("kind", "CustomResourceDefinition");
    ArrayNode causes = details.putArray("causes");
    Set<String> texts = new LinkedHashSet<>();
    for (SchemaError error : errors) {
      causes.addObject().put("reason", error.type()).put("message", error.body(minor)).put("field", error.field());
      texts.add(error.field() + ": " + error.body(minor));
    }
    String joined = texts.size() == 1 ? texts.iterator().next() : "[" + String.join(", ", texts) + "]";
    return ApiError.invalid("CustomResourceDefinition.apiextensions.k8s.io \"" + name + "\" is invalid: " + joined,
        details);
  }

  private static void require(boolean ok, String name, String field, String reason, String message) {
    if (!ok) {
      throw ApiError.invalid("apiextensions.k8s.io", "CustomResourceDefinition", name, field, reason, message);
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
