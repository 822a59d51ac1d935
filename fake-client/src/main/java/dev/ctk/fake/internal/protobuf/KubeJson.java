package dev.ctk.fake.internal.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.math.BigInteger;
import java.util.Base64;
import java.util.Optional;

/**
 * A parsed kube protobuf message as the JSON kube-apiserver would write for the same Go object, walked through
 * protobuf-java's descriptors:
 * <ul>
 *   <li>{@code kind} and {@code apiVersion} first (from the envelope), then the fields in the order of the Go struct
 *       (the order of the {@code .proto} file);</li>
 *   <li>field names as in the {@code .proto} file, which are kube's JSON names ({@code clusterIP},
 *       {@code fieldsV1});</li>
 *   <li>64-bit integers as JSON numbers (protobuf's JSON mapping quotes them); bytes as standard base64, as Go's
 *       {@code encoding/json} writes {@code []byte} ({@code Secret.data});</li>
 *   <li>maps as objects, every entry kept; lists with every element kept;</li>
 *   <li>a zero number, {@code false} or empty string left out, as kube does for its {@code omitempty} non-pointer
 *       fields, except the pointers {@link FieldRules} lists; a struct kept even when empty ({@code strategy: {}});
 *   </li>
 *   <li>embedded structs ({@link FieldRules}: {@code Probe.handler}, {@code Volume.volumeSource}, ...) lifted into
 *       their parent; the apimachinery types with a JSON form of their own written in it ({@link KubeValues}).</li>
 * </ul>
 */
final class KubeJson {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private KubeJson() {}

  /**
   * The object as kube's JSON.
   *
   * @param kind the envelope's kind
   * @param apiVersion the envelope's apiVersion
   * @param message the parsed message of that kind
   * @return a new JSON object
   * @throws dev.ctk.fake.internal.status.ApiError 415 for a field unknown to client-java-proto's schema, 400 for raw
   *     bytes that are not JSON
   */
  static ObjectNode object(String kind, String apiVersion, Message message) {
    ObjectNode out = NODES.objectNode();
    out.put("kind", kind);
    out.put("apiVersion", apiVersion);
    fields(message, out, "", apiVersion + " " + kind);
    return out;
  }

  private static void fields(Message message, ObjectNode out, String path, String what) {
    UnknownFields.refuseSet(message, path, what);
    Descriptor type = message.getDescriptorForType();
    for (FieldDescriptor field : type.getFields()) {
      boolean set = field.isRepeated() ? message.getRepeatedFieldCount(field) > 0 : message.hasField(field);
      if (!set) {
        continue;
      }
      FieldRules.Rule rule = FieldRules.of(type.getName(), field.getName());
      String at = path.isEmpty() ? field.getName() : path + "." + field.getName();
      if (rule == FieldRules.Rule.INLINE) {
        fields((Message) message.getField(field), out, path, what);
      } else if (field.isMapField()) {
        out.set(field.getName(), map(message, field, at, what));
      } else if (field.isRepeated()) {
        ArrayNode list = out.putArray(field.getName());
        for (int i = 0; i < message.getRepeatedFieldCount(field); i++) {
          list.add(value(field, message.getRepeatedField(field, i), at + "[" + i + "]", what));
        }
      } else {
        Object value = message.getField(field);
        if (rule == FieldRules.Rule.KEEP_ZERO || !KubeValues.isZero(field, value)) {
          out.set(field.getName(), value(field, value, at, what));
        }
      }
    }
  }

  /** A map field: protobuf holds it as a list of key/value entries. */
  private static ObjectNode map(Message message, FieldDescriptor field, String path, String what) {
    ObjectNode map = NODES.objectNode();
    FieldDescriptor key = field.getMessageType().findFieldByName("key");
    FieldDescriptor value = field.getMessageType().findFieldByName("value");
    for (int i = 0; i < message.getRepeatedFieldCount(field); i++) {
      Message entry = (Message) message.getRepeatedField(field, i);
      String name = String.valueOf(entry.getField(key));
      map.set(name, value(value, entry.getField(value), path + "[" + name + "]", what));
    }
    return map;
  }

  private static JsonNode value(FieldDescriptor field, Object value, String path, String what) {
    return switch (field.getJavaType()) {
      case STRING -> NODES.textNode((String) value);
      case BOOLEAN -> NODES.booleanNode((Boolean) value);
      case INT -> unsigned32(field) ? NODES.numberNode(Integer.toUnsignedLong((Integer) value))
          : NODES.numberNode((Integer) value);
      case LONG -> unsigned64(field) ? NODES.numberNode(new BigInteger(Long.toUnsignedString((Long) value)))
          : NODES.numberNode((Long) value);
      case FLOAT -> NODES.numberNode((Float) value);
      case DOUBLE -> NODES.numberNode((Double) value);
      case BYTE_STRING -> NODES.textNode(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
      case ENUM -> NODES.textNode(String.valueOf(value));
      case MESSAGE -> message((Message) value, path, what);
    };
  }

  private static JsonNode message(Message message, String path, String what) {
    Optional<JsonNode> special = KubeValues.special(message, path);
    if (special.isPresent()) {
      return special.get();
    }
    ObjectNode object = NODES.objectNode();
    fields(message, object, path, what);
    return object;
  }

  private static boolean unsigned32(FieldDescriptor field) {
    return field.getType() == FieldDescriptor.Type.UINT32 || field.getType() == FieldDescriptor.Type.FIXED32;
  }

  private static boolean unsigned64(FieldDescriptor field) {
    return field.getType() == FieldDescriptor.Type.UINT64 || field.getType() == FieldDescriptor.Type.FIXED64;
  }
}
