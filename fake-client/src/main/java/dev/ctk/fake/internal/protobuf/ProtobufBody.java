package dev.ctk.fake.internal.protobuf;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.ctk.fake.internal.status.ApiError;
import io.kubernetes.client.proto.Runtime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a request body sent as {@code application/vnd.kubernetes.protobuf} (kubectl's {@code create} commands and
 * client-go send built-in kinds so) into the JSON object the rest of the fake works on.
 *
 * <p>The body is kube's envelope: the 4 bytes {@code k8s\0}, then a {@code runtime.Unknown} whose {@code typeMeta}
 * names the apiVersion and kind and whose {@code raw} bytes are the kind's own message. The message is parsed with the
 * generated classes of {@code io.kubernetes:client-java-proto} ({@link ProtoKinds}) and written as kube's JSON
 * ({@link KubeJson}).
 *
 * <pre>{@code
 * ObjectNode namespace = ProtobufBody.decode(body); // {"kind":"Namespace","apiVersion":"v1","metadata":{...},...}
 * }</pre>
 *
 * @since 0.1.0
 */
public final class ProtobufBody {

  /** The media type of kube's protobuf encoding. */
  public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

  private static final byte[] MAGIC = {'k', '8', 's', 0};

  /** What kube-apiserver lists in a 415 for a body of a custom resource: it decodes them from JSON or YAML only. */
  private static final String CUSTOM_RESOURCE_TYPES = "the body of the request was in an unknown format - accepted "
      + "media types include: application/json, application/yaml";

  private ProtobufBody() {}

  /**
   * Whether a media type (without parameters) is kube's protobuf.
   *
   * @param contentType the request's content type, lower case, e.g. {@code application/vnd.kubernetes.protobuf}
   * @return true for kube's protobuf media type
   */
  public static boolean isProtobuf(String contentType) {
    return MEDIA_TYPE.equals(contentType);
  }

  /**
   * Decodes an enveloped protobuf object of a built-in kind.
   *
   * @param body the request body
   * @return the object as JSON, with {@code kind} and {@code apiVersion}
   * @throws ApiError 400 for a body that is not a protobuf envelope or whose bytes do not parse; 415 for a kind this
   *     fake cannot decode from protobuf (custom resources, as on a real cluster; built-in kinds client-java-proto
   *     has no message for; fields newer than its schema)
   */
  public static ObjectNode decode(byte[] body) {
    Runtime.Unknown envelope = envelope(body);
    String apiVersion = envelope.getTypeMeta().getApiVersion();
    String kind = envelope.getTypeMeta().getKind();
    if (kind.isEmpty() || apiVersion.isEmpty()) {
      throw ApiError.badRequest("Object 'Kind' is missing in the protobuf envelope: its runtime.Unknown typeMeta has "
          + "apiVersion \"" + apiVersion + "\" and kind \"" + kind + "\"; set both, e.g. apiVersion \"v1\" and kind "
          + "\"ConfigMap\"");
    }
    if (!envelope.getContentEncoding().isEmpty()) {
      throw ApiError.unsupportedMediaType("the protobuf envelope of this " + apiVersion + " " + kind + " has "
          + "contentEncoding \"" + envelope.getContentEncoding() + "\": ctk's fake API server reads raw bytes "
          + "without an encoding, as kube's clients send them; leave contentEncoding empty");
    }
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = apiVersion.substring(slash + 1);
    if (!ProtoKinds.builtinGroup(group)) {
      throw ApiError.unsupportedMediaType(CUSTOM_RESOURCE_TYPES + " (" + apiVersion + " " + kind + " is not a "
          + "built-in kind: kube-apiserver decodes custom resources from JSON or YAML only; send it as "
          + "application/json)");
    }
    Optional<Message> empty = ProtoKinds.emptyMessage(group, version, kind);
    if (empty.isEmpty()) {
      throw ApiError.unsupportedMediaType("ctk's fake API server cannot decode " + apiVersion + " " + kind + " from "
          + MEDIA_TYPE + ": io.kubernetes:client-java-proto has no message for it. Send it as application/json "
          + "(for a client-go client: rest.Config.ContentType = \"application/json\")");
    }
    Message message;
    try {
      message = empty.get().getParserForType().parseFrom(envelope.getRaw());
    } catch (InvalidProtocolBufferException e) {
      throw ApiError.badRequest(kind + " in version \"" + version + "\" cannot be handled as a " + kind + ": the raw "
          + "bytes of the protobuf envelope are not a " + empty.get().getDescriptorForType().getFullName()
          + " message (" + e.getMessage() + ")");
    }
    return KubeJson.object(kind, apiVersion, message);
  }

  /**
   * The 415 kube-apiserver answers a protobuf body for a custom resource, with the way round it.
   *
   * @param qualifiedResource the resource, e.g. {@code widgets.example.com}
   * @return the error to throw
   */
  public static ApiError refuseCustomResource(String qualifiedResource) {
    return ApiError.unsupportedMediaType(CUSTOM_RESOURCE_TYPES + " (" + qualifiedResource + " is a custom "
        + "resource: kube-apiserver decodes custom resources from JSON or YAML only; send it as application/json)");
  }

  /** Whether bytes start with kube's protobuf magic {@code k8s\0}. */
  static boolean hasMagic(byte[] bytes) {
    if (bytes.length < MAGIC.length) {
      return false;
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (bytes[i] != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  private static Runtime.Unknown envelope(byte[] body) {
    if (!hasMagic(body)) {
      throw ApiError.badRequest("provided data does not appear to be a protobuf message, expected prefix "
          + unsigned(MAGIC, MAGIC.length) + " but the body starts with " + unsigned(body, MAGIC.length) + ": send "
          + "kube's envelope (the bytes \"k8s\\x00\", then a runtime.Unknown message) as " + MEDIA_TYPE
          + ", or the object as application/json");
    }
    try {
      return Runtime.Unknown.parser().parseFrom(body, MAGIC.length, body.length - MAGIC.length);
    } catch (InvalidProtocolBufferException e) {
      throw ApiError.badRequest("the protobuf envelope is not a runtime.Unknown message after its \"k8s\\x00\" "
          + "prefix (" + e.getMessage() + "): send kube's envelope as " + MEDIA_TYPE + ", or the object as "
          + "application/json");
    }
  }

  /** Bytes as Go prints a byte slice: {@code [107 56 115 0]}. */
  private static String unsigned(byte[] bytes, int count) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < Math.min(count, bytes.length); i++) {
      values.add(Integer.toString(Byte.toUnsignedInt(bytes[i])));
    }
    return "[" + String.join(" ", values) + "]";
  }
}
