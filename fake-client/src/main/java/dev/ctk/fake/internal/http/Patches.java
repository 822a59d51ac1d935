package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.patch.JsonMergePatch;
import dev.ctk.fake.internal.patch.JsonPatch;
import dev.ctk.fake.internal.patch.PatchException;
import dev.ctk.fake.internal.patch.PatchSchema;
import dev.ctk.fake.internal.patch.StrategicMergePatch;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import java.util.function.UnaryOperator;

/**
 * Chooses the patch engine from the request's content type, as kube-apiserver does, and turns engine failures into
 * Status errors.
 *
 * <ul>
 *   <li>{@code application/json-patch+json}: RFC 6902;
 *   <li>{@code application/merge-patch+json}: RFC 7386;
 *   <li>{@code application/strategic-merge-patch+json}: built-in kinds only; custom resources answer 415 with
 *       kube's own message;
 *   <li>{@code application/apply-patch+yaml} (server-side apply): 415, not implemented yet;
 *   <li>anything else: 415 listing the accepted types.
 * </ul>
 */
final class Patches {

  static final String JSON_PATCH = "application/json-patch+json";
  static final String MERGE_PATCH = "application/merge-patch+json";
  static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
  static final String APPLY_PATCH = "application/apply-patch+yaml";
  static final String APPLY_PATCH_CBOR = "application/apply-patch+cbor";

  private Patches() {}

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
      case APPLY_PATCH, APPLY_PATCH_CBOR -> throw ApiError.unsupportedMediaType(
          "server-side apply (" + contentType + ") is not implemented by ctk's fake API server yet: patch "
              + type.qualifiedResource() + " with application/merge-patch+json, application/json-patch+json"
              + (type.custom() ? "" : " or application/strategic-merge-patch+json")
              + ", or use envtest mode for server-side apply");
      default -> throw unsupported(type);
    }
    JsonNode patch = JsonCodec.readTree(request, "error decoding patch: ");
    return current -> {
      try {
        JsonNode result = switch (contentType) {
          case JSON_PATCH -> JsonPatch.apply(current, patch);
          case MERGE_PATCH -> JsonMergePatch.apply(current, patch);
          default -> StrategicMergePatch.apply(current, patch, PatchSchema.forKind(type.group(), type.kind()));
        };
        if (!(result instanceof ObjectNode object)) {
          throw ApiError.badRequest("the patch produced " + result.getNodeType().toString().toLowerCase(
              java.util.Locale.ROOT) + ", not an object");
        }
        return object;
      } catch (PatchException e) {
        if (e.causeMessage() != null) {
          throw ApiError.withCause(e.code(), e.reason(), e.getMessage(), PatchException.CAUSE_REASON,
              e.causeMessage());
        }
        throw ApiError.of(e.code(), e.reason(), e.getMessage());
      }
    };
  }

  private static ApiError unsupported(ResourceType type) {
    String accepted = type.custom()
        ? JSON_PATCH + ", " + MERGE_PATCH + ", " + APPLY_PATCH
        : JSON_PATCH + ", " + MERGE_PATCH + ", " + STRATEGIC_MERGE_PATCH + ", " + APPLY_PATCH;
    return ApiError.unsupportedMediaType(
        "the body of the request was in an unknown format - accepted media types include: " + accepted);
  }
}
