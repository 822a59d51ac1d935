package dev.ctk.fake.internal.protobuf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.ctk.fake.internal.status.ApiError;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1beta1Apiextensions;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * The apimachinery types whose JSON is not their protobuf message, as their Go {@code MarshalJSON} writes them:
 * <ul>
 *   <li>{@code meta/v1 Time}: RFC 3339 in UTC to the second ({@code 2024-05-01T10:00:00Z}), {@code null} when
 *       zero; {@code MicroTime} likewise to the microsecond ({@code 2024-05-01T10:00:00.123456Z});</li>
 *   <li>{@code IntOrString}: a number or a string;</li>
 *   <li>{@code resource.Quantity}: its string ({@code 500m}, {@code 1Gi});</li>
 *   <li>{@code runtime.RawExtension}, {@code meta/v1 FieldsV1} and apiextensions' {@code JSON}: the JSON their raw
 *       bytes hold ({@code null} when empty); raw bytes that are a protobuf envelope are decoded as one;</li>
 *   <li>{@code meta/v1 Verbs} and every {@code ExtraValue}: Go string slices, so JSON arrays.</li>
 * </ul>
 */
final class KubeValues {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'")
      .withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
      .withZone(ZoneOffset.UTC);

  private KubeValues() {}

  /**
   * The JSON of a message with a JSON form of its own, or empty for a plain struct.
   *
   * @param message the message
   * @param path where it is in the object, for error messages
   */
  static Optional<JsonNode> special(Message message, String path) {
    if (message instanceof Meta.Time time) {
      return Optional.of(time(time.getSeconds(), time.getNanos(), SECONDS));
    }
    if (message instanceof Meta.MicroTime time) {
      return Optional.of(time(time.getSeconds(), time.getNanos(), MICROS));
    }
    if (message instanceof IntStr.IntOrString value) {
      return Optional.of(value.getType() == 1 ? NODES.textNode(value.getStrVal()) : NODES.numberNode(
          value.getIntVal()));
    }
    if (message instanceof Resource.Quantity quantity) {
      return Optional.of(NODES.textNode(quantity.getString()));
    }
    if (message instanceof Runtime.RawExtension raw) {
      return Optional.of(rawJson(raw.getRaw(), path));
    }
    if (message instanceof Meta.FieldsV1 fields) {
      return Optional.of(rawJson(fields.getRaw(), path));
    }
    if (message instanceof V1beta1Apiextensions.JSON json) {
      return Optional.of(rawJson(json.getRaw(), path));
    }
    String name = message.getDescriptorForType().getName();
    if (name.equals("Verbs") || name.equals("ExtraValue")) {
      ArrayNode items = NODES.arrayNode();
      FieldDescriptor field = message.getDescriptorForType().findFieldByName("items");
      for (int i = 0; i < message.getRepeatedFieldCount(field); i++) {
        items.add((String) message.getRepeatedField(field, i));
      }
      return Optional.of(items);
    }
    return Optional.empty();
  }

  /**
   * Whether a set field holds what kube's JSON leaves out: a zero number, {@code false}, an empty string or bytes,
   * an {@code IntOrString} of {@code 0}.
   */
  static boolean isZero(FieldDescriptor field, Object value) {
    return switch (field.getJavaType()) {
      case INT -> (Integer) value == 0;
      case LONG -> (Long) value == 0L;
      case FLOAT -> (Float) value == 0f;
      case DOUBLE -> (Double) value == 0d;
      case BOOLEAN -> !(Boolean) value;
      case STRING -> ((String) value).isEmpty();
      case BYTE_STRING -> ((ByteString) value).isEmpty();
      case MESSAGE -> value instanceof IntStr.IntOrString intOrString && intOrString.getType() == 0
          && intOrString.getIntVal() == 0;
      default -> false;
    };
  }

  private static JsonNode time(long seconds, int nanos, DateTimeFormatter format) {
    if (seconds == 0 && nanos == 0) {
      return NODES.nullNode();
    }
    return NODES.textNode(format.format(Instant.ofEpochSecond(seconds, nanos)));
  }

  /** The JSON that raw bytes hold: JSON text, or a protobuf envelope of its own. */
  private static JsonNode rawJson(ByteString raw, String path) {
    if (raw.isEmpty()) {
      return NODES.nullNode();
    }
    byte[] bytes = raw.toByteArray();
    if (ProtobufBody.hasMagic(bytes)) {
      return ProtobufBody.decode(bytes);
    }
    try {
      JsonNode node = JSON.readTree(bytes);
      if (node == null || node.isMissingNode()) {
        return NODES.nullNode();
      }
      return node;
    } catch (JsonProcessingException e) {
      throw notJson(path, e.getOriginalMessage());
    } catch (IOException e) {
      throw notJson(path, e.getMessage());
    }
  }

  private static ApiError notJson(String path, String why) {
    return ApiError.badRequest("the raw bytes at " + path + " in the protobuf body are neither JSON nor a protobuf "
        + "envelope: " + why + ". Put the embedded object there as JSON, as kubectl and client-go do");
  }
}
