package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.ctk.fake.internal.common.FrozenObject;
import dev.ctk.fake.internal.common.WireJson;
import dev.ctk.fake.internal.protobuf.ProtobufBody;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.version.KubeMinor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Reads request bodies (JSON, YAML, kube's protobuf for built-in kinds) and writes JSON responses. */
final class JsonCodec {

  static final ObjectMapper JSON = WireJson.MAPPER;
  private static final YAMLMapper YAML = new YAMLMapper();

  private JsonCodec() {}

  /**
   * Decodes the object body of a write to {@code type}: as {@link #readObject(ApiRequest)}, but a protobuf body for a
   * custom resource is refused with the 415 kube-apiserver answers.
   *
   * @throws ApiError 400 when the body is missing, malformed or not an object; 415 for a media type not read here
   */
  static ObjectNode readObject(ApiRequest request, ResourceType type) {
    if (ProtobufBody.isProtobuf(request.contentType()) && type.custom()) {
      throw ProtobufBody.refuseCustomResource(type.qualifiedResource());
    }
    requireObjectMediaType(request);
    ObjectNode object = readObject(request);
    TypedDecoding.check(type, object);
    return object;
  }

  /**
   * kube's 415 for an object body in a media type it does not decode ({@code text/plain}, {@code application/xml},
   * a patch type on a POST or PUT); it lists protobuf also for a custom resource. No {@code Content-Type} at all is
   * read as JSON, as kube reads it.
   */
  private static void requireObjectMediaType(ApiRequest request) {
    String contentType = request.contentType();
    if (contentType.isEmpty() || contentType.equals("application/json") || contentType.equals("application/yaml")
        || contentType.contains("protobuf") || contentType.contains("cbor") || request.hasNoBody()) {
      // protobuf and CBOR get readTree's own answer (the fake decodes only kube's protobuf envelope)
      return;
    }
    throw ApiError.unsupportedMediaType("the body of the request was in an unknown format - accepted media types "
        + "include: application/json, application/yaml, " + ProtobufBody.MEDIA_TYPE);
  }

  /**
   * Decodes an object body: JSON, YAML when the content type says so, kube's protobuf envelope for built-in kinds.
   *
   * @throws ApiError 400 when the body is missing, malformed or not an object; 415 for a media type not read here
   */
  static ObjectNode readObject(ApiRequest request) {
    JsonNode node = readTree(request, "couldn't get version/kind; json parse error: ");
    if (!(node instanceof ObjectNode object)) {
      throw ApiError.badRequest("couldn't get version/kind; json parse error: the request body must be a JSON "
          + "object, got " + node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
    }
    return object;
  }

  /**
   * Decodes any JSON or YAML body, or kube's protobuf envelope of a built-in kind ({@link ProtobufBody});
   * {@code prefix} starts the 400 message when JSON or YAML does not parse.
   */
  static JsonNode readTree(ApiRequest request, String prefix) {
    if (request.hasNoBody()) {
      throw ApiError.badRequest(prefix + "the request body is empty");
    }
    String contentType = request.contentType();
    if (ProtobufBody.isProtobuf(contentType)) {
      return ProtobufBody.decode(request.body());
    }
    if (contentType.contains("protobuf") || contentType.contains("cbor")) {
      throw ApiError.unsupportedMediaType("the body of the request was in an unknown format - accepted media types "
          + "include: application/json, application/yaml, " + ProtobufBody.MEDIA_TYPE + " (ctk's fake API server "
          + "does not decode " + contentType + "; send the body as application/json)");
    }
    try {
      ObjectMapper mapper = request.contentType().contains("yaml") ? YAML : JSON;
      JsonNode node = mapper.readTree(request.body());
      if (node == null || node.isMissingNode()) {
        throw ApiError.badRequest(prefix + "the request body is empty");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw ApiError.badRequest(prefix + e.getOriginalMessage());
    } catch (IOException e) {
      throw ApiError.badRequest(prefix + e.getMessage());
    }
  }

  /**
   * A JSON response, straight into the bytes the exchange sends: a tree ({@link JsonNode}), serialized once or, for a
   * stored version its watch events were just written from ({@link FrozenObject}), not again; or a body that writes
   * itself ({@link ListBody}).
   */
  static ApiResponse respond(int code, JsonSerializable body) {
    return ApiResponse.json(code, bytes(body));
  }

  /** A list answer: written by concatenation where its items' bytes are kept ({@link ListBody#encode}). */
  static ApiResponse respond(int code, ListBody body) {
    return ApiResponse.json(code, body.encode());
  }

  /** The UTF-8 JSON of a body. */
  static byte[] bytes(JsonSerializable body) {
    if (body instanceof FrozenObject frozen) {
      return frozen.takeJson();
    }
    try {
      return JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize a response: " + e.getMessage(), e);
    }
  }

  /** The Status response for an error. */
  static ApiResponse respond(ApiError error) {
    return respond(error, KubeMinor.DEFAULT);
  }

  /** The Status response for an error, worded as that minor words it. */
  static ApiResponse respond(ApiError error, KubeMinor minor) {
    if (error.plainText()) {
      return text(error.code(), ApiError.PAGE_NOT_FOUND);
    }
    return respond(error.code(), error.toStatus(minor));
  }

  /** A plain text response (health endpoints). */
  static ApiResponse text(int code, String text) {
    return ApiResponse.of(code, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
  }

  static String write(JsonNode node) {
    try {
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize: " + e.getMessage(), e);
    }
  }
}
