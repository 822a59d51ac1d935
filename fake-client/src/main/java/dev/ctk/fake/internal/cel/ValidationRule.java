package dev.ctk.fake.internal.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ctk.fake.internal.status.GoText;

/**
 * One entry of a schema node's {@code x-kubernetes-validations}, as written in the CRD.
 *
 * @param rule the CEL expression ({@code ""} when absent)
 * @param message the static message ({@code ""} when absent)
 * @param messageExpression a CEL expression giving the message ({@code ""} when absent)
 * @param reason {@code FieldValueInvalid}, {@code FieldValueForbidden}, {@code FieldValueRequired},
 *     {@code FieldValueDuplicate} or {@code null} (kube then reports {@code FieldValueInvalid})
 * @param fieldPath a JSONPath relative to the node the rule is declared on ({@code ""} when absent)
 * @param optionalOldSelf {@code optionalOldSelf}, or {@code null} when absent
 */
record ValidationRule(String rule, String message, String messageExpression, String reason, String fieldPath,
    Boolean optionalOldSelf) {

  /** Reads one entry; fields of the wrong JSON type read as absent. */
  static ValidationRule of(JsonNode node) {
    JsonNode reason = node.path("reason");
    JsonNode optional = node.path("optionalOldSelf");
    return new ValidationRule(text(node, "rule"), text(node, "message"), text(node, "messageExpression"),
        reason.isTextual() ? reason.asText() : null, text(node, "fieldPath"),
        optional.isBoolean() ? optional.asBoolean() : null);
  }

  /** Whether the rule is evaluated with {@code oldSelf} as an optional value (also on create). */
  boolean optional() {
    return Boolean.TRUE.equals(optionalOldSelf);
  }

  /** kube's {@code ruleErrorString}: the trimmed message, else the trimmed rule. */
  String errorString() {
    return message.isEmpty() ? rule.strip() : message.strip();
  }

  /** kube's {@code ruleMessageOrDefault}: the trimmed message, else {@code failed rule: <rule>}. */
  String messageOrDefault() {
    return message.isEmpty() ? "failed rule: " + rule.strip() : message.strip();
  }

  /**
   * The rule as kube prints it in a CRD's 422 ({@code %#v} of its internal {@code apiextensions.ValidationRule}).
   * kube prints the addresses of a set {@code reason} or {@code optionalOldSelf}, which differ on every request;
   * the fake prints {@code 0xc000000000} there.
   */
  String goSyntax() {
    return "apiextensions.ValidationRule{Rule:" + GoText.quote(rule) + ", Message:" + GoText.quote(message)
        + ", MessageExpression:" + GoText.quote(messageExpression) + ", Reason:(*apiextensions.FieldValueErrorReason)("
        + (reason == null ? "nil" : "0xc000000000") + "), FieldPath:" + GoText.quote(fieldPath)
        + ", OptionalOldSelf:(*bool)(" + (optionalOldSelf == null ? "nil" : "0xc000000000") + ")}";
  }

  /**
   * The rule as kube 1.34 and later print it in a CRD's 422: Go's {@code encoding/json} of the internal struct (no
   * JSON tags, so the Go field names; {@code <}, {@code >} and {@code &} escaped as Go escapes them).
   */
  String json() {
    return "{\"Rule\":" + GoText.jsonString(rule) + ",\"Message\":" + GoText.jsonString(message) + ",\"MessageExpression\":"
        + GoText.jsonString(messageExpression) + ",\"Reason\":" + (reason == null ? "null" : GoText.jsonString(reason))
        + ",\"FieldPath\":" + GoText.jsonString(fieldPath) + ",\"OptionalOldSelf\":"
        + (optionalOldSelf == null ? "null" : optionalOldSelf.toString()) + "}";
  }

  private static String text(JsonNode node, String name) {
    JsonNode value = node.path(name);
    return value.isTextual() ? value.asText() : "";
  }
}
