package dev.ctk.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One HTTP answer of an API server: the status code and the body parsed as JSON (a {@link MissingNode} when the body
 * is empty or not JSON; {@link #text()} keeps it verbatim).
 *
 * <pre>{@code
 * Response created = t.api().post(t.core("configmaps"), "{\"metadata\":{\"name\":\"web\"}}");
 * o.check("create", created.code(), 201);
 * }</pre>
 *
 * @param code the HTTP status code
 * @param body the parsed body
 * @param text the body as received
 */
public record Response(int code, JsonNode body, String text) {

  /**
   * A field of the body by JSON pointer, as text ({@code null} when absent; objects and arrays as compact JSON).
   *
   * @param pointer e.g. {@code /metadata/resourceVersion}
   * @return the value or {@code null}
   */
  public String at(String pointer) {
    JsonNode node = body.at(pointer);
    if (node.isMissingNode() || node.isNull()) {
      return null;
    }
    return node.isValueNode() ? node.asText() : node.toString();
  }

  /**
   * {@code reason} of a {@code Status} body.
   *
   * @return the reason or {@code null}
   */
  public String reason() {
    return at("/reason");
  }

  /**
   * {@code message} of a {@code Status} body.
   *
   * @return the message or {@code null}
   */
  public String message() {
    return at("/message");
  }

  /**
   * {@code metadata.resourceVersion} of the body.
   *
   * @return the resourceVersion or {@code null}
   */
  public String resourceVersion() {
    return at("/metadata/resourceVersion");
  }

  /**
   * {@code details.causes} of a {@code Status} body, one {@code "reason field: message"} line per cause, in order.
   *
   * @return the causes, empty when there are none
   */
  public List<String> causes() {
    List<String> causes = new ArrayList<>();
    for (JsonNode cause : body.at("/details/causes")) {
      causes.add(cause.path("reason").asText() + " " + cause.path("field").asText() + ": "
          + cause.path("message").asText());
    }
    return causes;
  }

  /**
   * {@code "<code> <reason>"} for a Status body, just the code otherwise: the first thing a scenario compares.
   *
   * @return e.g. {@code 409 AlreadyExists} or {@code 201}
   */
  public String outcome() {
    String reason = "Status".equals(at("/kind")) ? reason() : null;
    return reason == null || reason.isEmpty() ? String.valueOf(code) : code + " " + reason;
  }
}
