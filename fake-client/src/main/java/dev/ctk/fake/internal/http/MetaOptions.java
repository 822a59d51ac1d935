package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.status.GoText;
import dev.ctk.fake.internal.version.KubeMinor;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code meta.k8s.io} options of a request, validated as kube-apiserver validates them before it reads the body
 * or looks up the namespace: {@code dryRun} of {@code CreateOptions}, {@code UpdateOptions}, {@code PatchOptions}
 * and {@code DeleteOptions} (every value must be {@code All}), and {@code resourceVersionMatch} and
 * {@code sendInitialEvents} of {@code ListOptions} (a list's rules, or a watch's after kube's watch-list defaulting).
 * A bad value answers kube's 422, e.g.
 * {@code CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values:
 * "All"} with details {@code {group: meta.k8s.io, kind: CreateOptions, causes: [...]}} (values printed in Go syntax,
 * as kube 1.32 prints them; kube 1.34 prints them as JSON).
 *
 * <p>Not checked here: {@code fieldManager}, {@code fieldValidation}, {@code propagationPolicy}, the other
 * {@code ListOptions} fields.
 */
final class MetaOptions {

  /** The {@code ListOptions} of a LIST, as {@link #list} read them. */
  record ListAt(String resourceVersion, String match) {

    /**
     * Whether the list reads the exact snapshot at {@link #resourceVersion()}: {@code resourceVersionMatch=Exact},
     * or (kube's legacy rule) a {@code limit} with a resourceVersion other than {@code 0} and no match.
     */
    boolean exact(long limit) {
      boolean set = resourceVersion != null && !resourceVersion.isEmpty() && !resourceVersion.equals("0");
      return set && ("Exact".equals(match) || (match == null || match.isEmpty()) && limit > 0);
    }
  }

  private MetaOptions() {}

  /**
   * The write options of a POST, PUT or PATCH from its {@code dryRun} query values.
   *
   * @param kind {@code CreateOptions}, {@code UpdateOptions} or {@code PatchOptions}
   * @throws ApiError 422 when a value is not {@code All}
   */
  static WriteOptions write(ApiRequest request, String kind) {
    return dryRun(kind, request.query().get("dryRun"));
  }

  /**
   * The write options of a DELETE (one object or a collection): the {@code dryRun} of the {@code DeleteOptions}
   * body when there is a body (kube then ignores the query), else of the query.
   *
   * @param body the decoded DeleteOptions, or {@code null} when the request has no body
   * @throws ApiError 422 when a value is not {@code All}
   */
  static WriteOptions delete(ApiRequest request, JsonNode body) {
    if (body == null) {
      return dryRun("DeleteOptions", request.query().get("dryRun"));
    }
    List<String> values = new ArrayList<>();
    body.path("dryRun").forEach(v -> values.add(v.asText()));
    return dryRun("DeleteOptions", values);
  }

  /**
   * The {@code resourceVersion} and {@code resourceVersionMatch} of a LIST, checked as kube's
   * {@code ValidateListOptions} checks them.
   *
   * @throws ApiError 422 for a match without resourceVersion, with continue, not {@code Exact} or
   *     {@code NotOlderThan}, or {@code Exact} with resourceVersion {@code 0}
   */
  static ListAt list(ApiRequest request) {
    String resourceVersion = request.param("resourceVersion");
    String match = request.param("resourceVersionMatch");
    List<String[]> errors = new ArrayList<>();
    if (match != null && !match.isEmpty()) {
      if (resourceVersion == null || resourceVersion.isEmpty()) {
        errors.add(forbidden("resourceVersionMatch is forbidden unless resourceVersion is provided"));
      }
      String continueToken = request.param("continue");
      if (continueToken != null && !continueToken.isEmpty()) {
        errors.add(forbidden("resourceVersionMatch is forbidden when continue is provided"));
      }
      if (!match.equals("Exact") && !match.equals("NotOlderThan")) {
        errors.add(new String[] {"FieldValueNotSupported", "Unsupported value: " + GoText.quote(match)
            + ": supported values: \"Exact\", \"NotOlderThan\", \"\"", "resourceVersionMatch"});
      }
      if (match.equals("Exact") && "0".equals(resourceVersion)) {
        errors.add(forbidden("resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
      }
    }
    if (request.param("sendInitialEvents") != null) {
      errors.add(forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
    }
    if (!errors.isEmpty()) {
      throw invalid("ListOptions", errors);
    }
    return new ListAt(resourceVersion, match);
  }

  /**
   * Checks the {@code ListOptions} of a watch as kube's {@code validateWatchOptions} does (the WatchList feature on,
   * on by default in 1.32 and from 1.34, off in 1.33): {@code sendInitialEvents} needs
   * {@code resourceVersionMatch=NotOlderThan} (and the feature), and a {@code resourceVersionMatch} needs
   * {@code sendInitialEvents}, is {@code NotOlderThan}, and has no {@code continue}.
   *
   * @param minor the minor emulated
   * @param sendInitialEvents whether {@code sendInitialEvents} is set, after kube's defaulting
   * @param match the {@code resourceVersionMatch}, after kube's defaulting, or {@code null}
   * @throws ApiError 422 {@code ListOptions.meta.k8s.io "" is invalid} with one cause per rule broken
   */
  static void watch(ApiRequest request, KubeMinor minor, boolean sendInitialEvents, String match) {
    List<String[]> errors = new ArrayList<>();
    if (sendInitialEvents && !"NotOlderThan".equals(match)) {
      errors.add(forbidden("sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
    }
    if (sendInitialEvents && !minor.watchListByDefault()) {
      errors.add(forbidden("sendInitialEvents", "sendInitialEvents is forbidden for watch unless the WatchList "
          + "feature gate is enabled"));
    }
    if (match != null && !match.isEmpty()) {
      if (!sendInitialEvents) {
        errors.add(forbidden("resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
      }
      if (!match.equals("NotOlderThan")) {
        errors.add(new String[] {"FieldValueNotSupported", "Unsupported value: " + GoText.quote(match)
            + ": supported values: \"NotOlderThan\"", "resourceVersionMatch"});
      }
      String continueToken = request.param("continue");
      if (continueToken != null && !continueToken.isEmpty()) {
        errors.add(forbidden("resourceVersionMatch is forbidden when continue is provided"));
      }
    }
    if (!errors.isEmpty()) {
      throw invalid("ListOptions", errors);
    }
  }

  private static String[] forbidden(String detail) {
    return forbidden("resourceVersionMatch", detail);
  }

  private static String[] forbidden(String field, String detail) {
    return new String[] {"FieldValueForbidden", "Forbidden: " + detail, field};
  }

  private static WriteOptions dryRun(String kind, List<String> values) {
    if (values == null || values.isEmpty()) {
      return WriteOptions.API;
    }
    if (values.stream().allMatch("All"::equals)) {
      return WriteOptions.DRY_RUN;
    }
    String go = GoText.stringSlice(values);
    StringBuilder json = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      json.append(i == 0 ? "" : ",").append(GoText.jsonString(values.get(i)));
    }
    json.append(']');
    ApiError error = invalid(kind, List.<String[]>of(new String[] {"FieldValueNotSupported",
        "Unsupported value: " + go + ": supported values: \"All\"", "dryRun"}));
    // 1.34 prints the value as JSON
    ApiError later = invalid(kind, List.<String[]>of(new String[] {"FieldValueNotSupported",
        "Unsupported value: " + json + ": supported values: \"All\"", "dryRun"}));
    throw error.wordedFrom(KubeMinor.FIELD_VALUES_AS_JSON, later);
  }

  /**
   * kube's {@code NewInvalid(meta.k8s.io/<kind>, "", errs)}: the name is empty, the details carry none.
   *
   * @param errors each {reason, message, field}
   */
  private static ApiError invalid(String kind, List<String[]> errors) {
    ObjectNode details = JsonNodeFactory.instance.objectNode();
    details.put("group", "meta.k8s.io");
    details.put("kind", kind);
    ArrayNode causes = details.putArray("causes");
    List<String> texts = new ArrayList<>();
    for (String[] error : errors) {
      causes.addObject().put("reason", error[0]).put("message", error[1]).put("field", error[2]);
      String text = error[2] + ": " + error[1];
      if (!texts.contains(text)) {
        texts.add(text);
      }
    }
    String joined = texts.size() == 1 ? texts.get(0) : "[" + String.join(", ", texts) + "]";
    return ApiError.invalid(kind + ".meta.k8s.io \"\" is invalid: " + joined, details);
  }
}
