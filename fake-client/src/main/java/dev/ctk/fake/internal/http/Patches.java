package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.apply.ApplyRequest;
import dev.ctk.fake.internal.apply.FieldOwner;
import dev.ctk.fake.internal.patch.JsonMergePatch;
import dev.ctk.fake.internal.patch.JsonPatch;
import dev.ctk.fake.internal.patch.PatchException;
import dev.ctk.fake.internal.patch.PatchSchema;
import dev.ctk.fake.internal.patch.StrategicMergePatch;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.status.GoText;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the patch engine from the request's content type, as kube-apiserver does, and turns engine failures into
 * Status errors.
 *
 * <ul>
 *   <li>{@code application/json-patch+json}: RFC 6902;
 *   <li>{@code application/merge-patch+json}: RFC 7386;
 *   <li>{@code application/strategic-merge-patch+json}: built-in kinds only; custom resources answer 415 with
 *       kube's own message;
 *   <li>{@code application/apply-patch+yaml} (server-side apply): {@link #applyRequest}, served by the store's
 *       apply on the main resource and {@code /status}; on {@code /scale} 415 (not implemented);
 *   <li>anything else (including {@code application/apply-patch+cbor}, which kube serves only behind a feature
 *       gate): 415 listing the accepted types.
 * </ul>
 *
 * <p>Also derives the field manager of every write ({@link #owner}) and checks the patch options kube checks:
 * {@code fieldManager} is required for apply, {@code force} is refused for other patches (422).
 */
final class Patches {

  private static final Logger LOG = LoggerFactory.getLogger(Patches.class);

  static final String JSON_PATCH = "application/json-patch+json";
  static final String MERGE_PATCH = "application/merge-patch+json";
  static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
  static final String APPLY_PATCH = "application/apply-patch+yaml";
  static final String APPLY_PATCH_CBOR = "application/apply-patch+cbor";

  private Patches() {}

  /** Whether the request is a server-side apply ({@code application/apply-patch+yaml}). */
  static boolean isApply(ApiRequest request) {
    return request.contentType().equals(APPLY_PATCH);
  }

  /** The field manager of a write: the {@code fieldManager} parameter, else the User-Agent's product name. */
  static FieldOwner owner(ApiRequest request, String subresource) {
    return FieldOwner.of(request.param("fieldManager"), request.header("user-agent"), subresource);
  }

  /**
   * The apply request: options checked first (422 without {@code fieldManager}), then the YAML (or JSON) body.
   *
   * @throws ApiError 422 for missing options, 400 for a body that is not a YAML object
   */
  static ApplyRequest applyRequest(ResourceType type, ApiRequest request) {
    String fieldManager = request.param("fieldManager");
    String force = request.param("force");
    ApplyRequest.checkOptions(fieldManager);
    ObjectNode config;
    if (request.hasNoBody()) {
      config = JsonCodec.JSON.createObjectNode();
    } else {
      JsonNode body = JsonCodec.readTree(request, "error decoding YAML: ");
      if (!(body instanceof ObjectNode object)) {
        throw ApiError.badRequest("error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot "
            + "unmarshal " + GoText.jsonKind(body)
            + " into Go value of type map[string]interface {}");
      }
      config = object;
    }
    return ApplyRequest.of(config, fieldManager, force);
  }

  /**
   * The function that patches a private copy of the current object.
   *
   * @throws ApiError 415 for unsupported patch types, 400 for an undecodable patch document
   */
  static UnaryOperator<ObjectNode> forRequest(ResourceType type, ApiRequest request) {
    String contentType = request.contentType();
    switch (contentType) {
      case JSON_PATCH, MERGE_PATCH -> { }
      case STRATEGIC_MERGE_PATCH -> {
        if (type.custom()) {
          throw unsupported(type);
        }
      }
      case APPLY_PATCH -> throw ApiError.unsupportedMediaType(
          "server-side apply (" + contentType + ") on the scale subresource is not implemented by ctk's fake API "
              + "server: apply " + type.qualifiedResource() + " itself with spec.replicas, or patch its scale with "
              + "application/merge-patch+json, or use envtest mode");
      default -> throw unsupported(type);
    }
    ApplyRequest.checkNotForced(request.param("force"));
    JsonNode patch = JsonCodec.readTree(request, "error decoding patch: ");
    return current -> {
      try {
        JsonNode result = switch (contentType) {
          case JSON_PATCH -> JsonPatch.apply(current, patch);
          case MERGE_PATCH -> JsonMergePatch.apply(current, patch);
          default -> StrategicMergePatch.apply(current, patch,
              PatchSchema.forType(type.goType().orElseThrow()));
        };
        if (!(result instanceof ObjectNode object)) {
          throw ApiError.badRequest("the patch produced " + result.getNodeType().toString().toLowerCase(
              java.util.Locale.ROOT) + ", not an object");
        }
        TypedDecoding.mismatch(type, object).ifPresent(mismatch -> {
          throw contentType.equals(STRATEGIC_MERGE_PATCH)
              ? invalidPatch(GoText.value(patch), mismatch.converterError())
              : invalidPatch(GoText.jsonText(object), mismatch.jsonError());
        });
        return object;
      } catch (PatchException e) {
        if (e.causeMessage() != null) {
          // kube answers NewGenericServerResponse(422, ..., isUnexpectedResponse=false): empty details, the engine's
          // own text dropped; the fake logs it, so that a test's author can still see why the patch failed
          LOG.debug("{} patch of {} failed: {}", contentType, type.plural(), e.causeMessage());
          throw ApiError.genericServerResponse(e.code(), e.reason(), e.getMessage());
        }
        throw ApiError.of(e.code(), e.reason(), e.getMessage());
      }
    };
  }

  /**
   * kube's 422 for a patch whose result has a wrongly typed field: an Invalid of no kind and no name on the field
   * {@code patch}, whose value is the patched object's JSON (JSON and merge patches, decoded) or the patch itself as
   * Go prints a map (a strategic merge patch, whose result is converted, not decoded).
   */
  private static ApiError invalidPatch(String value, String error) {
    String cause = "Invalid value: " + GoText.quote(value) + ": " + error;
    ObjectNode details = JsonCodec.JSON.createObjectNode();
    details.putArray("causes").addObject().put("reason", "FieldValueInvalid").put("message", cause)
        .put("field", "patch");
    return ApiError.invalid(" \"\" is invalid: patch: " + cause, details);
  }

  private static ApiError unsupported(ResourceType type) {
    String accepted = type.custom()
        ? JSON_PATCH + ", " + MERGE_PATCH + ", " + APPLY_PATCH
        : JSON_PATCH + ", " + MERGE_PATCH + ", " + STRATEGIC_MERGE_PATCH + ", " + APPLY_PATCH;
    return ApiError.unsupportedMediaType(
        "the body of the request was in an unknown format - accepted media types include: " + accepted);
  }
}
