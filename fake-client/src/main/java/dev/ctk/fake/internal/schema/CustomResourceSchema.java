package dev.ctk.fake.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What kube-apiserver does with one served version's structural schema of a CustomResourceDefinition: decode
 * (prune, drop disallowed nulls, apply defaults) objects written and read, and validate them on create, update and
 * status update with kube's 422 causes.
 *
 * <pre>{@code
 * CustomResourceSchema schema = CustomResourceSchema.of(crd.path("spec"), crd.path("spec").path("versions").get(0));
 * schema.decode(body);                                   // unknown fields gone, defaults in
 * List<SchemaError> errors = schema.validateCreate(body);
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class CustomResourceSchema {

  private final Schema root;
  private final Schema status;
  private final boolean preserveUnknownFields;
  private final String specReplicasPath;
  private final String statusReplicasPath;
  private final String labelSelectorPath;

  private CustomResourceSchema(Schema root, boolean preserveUnknownFields, JsonNode scale) {
    this.root = root;
    this.status = root.properties().get("status");
    this.preserveUnknownFields = preserveUnknownFields;
    this.specReplicasPath = scale == null ? null : scale.path("specReplicasPath").asText(null);
    this.statusReplicasPath = scale == null ? null : scale.path("statusReplicasPath").asText(null);
    this.labelSelectorPath = scale == null || !scale.hasNonNull("labelSelectorPath") ? null
        : scale.get("labelSelectorPath").asText();
  }

  /**
   * Reads the schema of one CRD version.
   *
   * @param crdSpec the CRD's {@code spec} (for {@code preserveUnknownFields} and a top-level {@code validation})
   * @param version the entry of {@code spec.versions}
   * @return the schema
   */
  public static CustomResourceSchema of(JsonNode crdSpec, JsonNode version) {
    JsonNode openApi = openApiV3Schema(crdSpec, version);
    JsonNode scale = version.path("subresources").get("scale");
    // a version without a schema (kube refuses such a CRD) keeps every field, as if it preserved unknown fields
    boolean preserve = crdSpec.path("preserveUnknownFields").asBoolean(false) || !openApi.isObject();
    return new CustomResourceSchema(Schema.parse(openApi), preserve, scale != null && scale.isObject() ? scale : null);
  }

  /**
   * The {@code openAPIV3Schema} of one CRD version: the version's own, else a top-level {@code spec.validation} one.
   *
   * @param crdSpec the CRD's {@code spec}
   * @param version the entry of {@code spec.versions}
   * @return the schema node (a missing node when there is none)
   */
  public static JsonNode openApiV3Schema(JsonNode crdSpec, JsonNode version) {
    JsonNode openApi = version.path("schema").path("openAPIV3Schema");
    return openApi.isObject() ? openApi : crdSpec.path("validation").path("openAPIV3Schema");
  }

  /** The root schema. */
  public Schema root() {
    return root;
  }

  /**
   * Decodes an object as kube does a request body (and a stored object on read): metadata coerced to
   * {@code ObjectMeta}, unknown fields pruned, disallowed nulls dropped, defaults applied. In place.
   *
   * @param object a private copy of the object
   */
  public void decode(ObjectNode object) {
    if (!preserveUnknownFields) {
      Pruning.pruneResource(object, root);
      Defaulting.dropNulls(object, root);
    }
    ObjectMetaFields.coerce(object, root);
    Defaulting.apply(object, root);
  }

  /**
   * The object as a read serves it: pruned and defaulted with this (possibly newer) schema, as kube decodes objects
   * from storage. Returns {@code stored} itself when that changes nothing.
   *
   * @param stored the stored object (not modified)
   * @return the object to serve
   */
  public ObjectNode serve(ObjectNode stored) {
    ObjectNode copy = stored.deepCopy();
    if (!preserveUnknownFields) {
      Pruning.pruneResource(copy, root);
      Defaulting.dropNulls(copy, root);
    }
    Defaulting.apply(copy, root);
    return copy.equals(stored) ? stored : copy;
  }

  /**
   * The schema checks of a create, in kube's order: the OpenAPI schema, the scale subresource's replica and selector
   * paths, embedded resources, list uniqueness.
   *
   * @param object the object about to be stored
   * @return the field errors (empty when valid)
   */
  public List<SchemaError> validateCreate(JsonNode object) {
    List<SchemaError> errors = new ArrayList<>(SchemaValidator.validate(object, root, null, ""));
    errors.addAll(ScaleChecks.spec(object, specReplicasPath));
    errors.addAll(ScaleChecks.status(object, statusReplicasPath, labelSelectorPath));
    errors.addAll(EmbeddedResources.validate(object, root));
    errors.addAll(ListTypes.duplicates(object, root));
    return errors;
  }

  /**
   * The schema checks of an update, ratcheting (errors in values equal to the old ones are dropped; list
   * uniqueness is checked only when the old object passed it).
   *
   * @param object the object about to be stored
   * @param old the stored object
   * @return the field errors
   */
  public List<SchemaError> validateUpdate(JsonNode object, JsonNode old) {
    List<SchemaError> errors = new ArrayList<>(SchemaValidator.validate(object, root, old, ""));
    errors.addAll(ScaleChecks.spec(object, specReplicasPath));
    errors.addAll(ScaleChecks.status(object, statusReplicasPath, labelSelectorPath));
    errors.addAll(EmbeddedResources.validate(object, root));
    if (ListTypes.duplicates(old, root).isEmpty()) {
      errors.addAll(ListTypes.duplicates(object, root));
    }
    return errors;
  }

  /**
   * The checks of a {@code /status} write: the new status against the status schema (paths in the messages are
   * relative to {@code status}, as kube prints them; no ratcheting), the scale status paths, and list uniqueness
   * when the old object passed it.
   *
   * @param object the object about to be stored
   * @param old the stored object
   * @return the field errors
   */
  public List<SchemaError> validateStatusUpdate(JsonNode object, JsonNode old) {
    List<SchemaError> errors = new ArrayList<>();
    if (status != null && object.has("status")) {
      errors.addAll(SchemaValidator.validate(object.get("status"), status, null, "status"));
    }
    errors.addAll(ScaleChecks.status(object, statusReplicasPath, labelSelectorPath));
    List<SchemaError> lists = ListTypes.duplicates(object, root);
    if (!lists.isEmpty() && ListTypes.duplicates(old, root).isEmpty()) {
      errors.addAll(lists);
    }
    return errors;
  }
}
