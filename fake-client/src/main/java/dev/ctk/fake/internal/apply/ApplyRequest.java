package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.QueryBoolean;
import dev.ctk.fake.internal.status.ApiError;

/**
 * A server-side apply request ({@code PATCH} with {@code application/apply-patch+yaml}): the applied configuration,
 * the field manager and {@code force}.
 *
 * <pre>{@code
 * ApplyRequest apply = ApplyRequest.of(config, request.param("fieldManager"), request.param("force"));
 * }</pre>
 *
 * @param config the applied configuration (a partial object)
 * @param manager the field manager (the {@code fieldManager} parameter; required)
 * @param force whether conflicting fields are taken over instead of refused
 */
public record ApplyRequest(ObjectNode config, String manager, boolean force) {

  /**
   * Validates the options as kube does before anything else.
   *
   * @param fieldManager the {@code fieldManager} parameter ({@code null} when absent)
   * @param force the {@code force} parameter ({@code null} when absent)
   * @throws ApiError 422 {@code PatchOptions} Invalid without a field manager
   */
  public static ApplyRequest of(ObjectNode config, String fieldManager, String force) {
    checkOptions(fieldManager);
    return new ApplyRequest(config, fieldManager, QueryBoolean.parse(force));
  }

  /**
   * Checks the options of an apply before its body is read, as kube does.
   *
   * @throws ApiError 422 {@code PatchOptions} Invalid without a field manager
   */
  public static void checkOptions(String fieldManager) {
    if (fieldManager == null || fieldManager.isEmpty()) {
      throw optionsInvalid("fieldManager", "FieldValueRequired", "Required value: is required for apply patch");
    }
  }

  /**
   * Checks the options of a patch that is not an apply: {@code force} is refused there.
   *
   * @throws ApiError 422 {@code PatchOptions} Invalid when {@code force} is set
   */
  public static void checkNotForced(String force) {
    if (force != null) {
      throw optionsInvalid("force", "FieldValueForbidden", "Forbidden: may not be specified for non-apply patch");
    }
  }

  private static ApiError optionsInvalid(String field, String reason, String message) {
    ObjectNode details = JsonNodeFactory.instance.objectNode();
    details.put("group", "meta.k8s.io");
    details.put("kind", "PatchOptions");
    details.putArray("causes").addObject().put("reason", reason).put("message", message).put("field", field);
    return ApiError.invalid("PatchOptions.meta.k8s.io \"\" is invalid: " + field + ": " + message, details);
  }
}
