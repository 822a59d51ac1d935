package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.status.GoText;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's strict decoding of a built-in kind's body: a known field of the wrong JSON type ({@code data: {"k": 5}} in a
 * ConfigMap, {@code replicas: "two"}) answers 400 BadRequest with Go's {@code encoding/json} error, where a lenient
 * decoder would store it. The body is read into fabric8's model class of the kind with every coercion off; a
 * mismatch is worded as Go words it:
 * {@code ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field
 * ConfigMap.data of type string}.
 *
 * <pre>{@code
 * TypedDecoding.check(type, body);   // throws ApiError 400 for a wrongly typed field
 * }</pre>
 *
 * <p>Limits: the Go type is named from the Java one ({@code int32} for {@code Integer}, {@code int64} for {@code Long},
 * {@code v1.<Class>} for a nested object), which can differ from kube's for a few fields; custom resources are
 * checked by their CRD schema instead; unknown fields are dropped as kube does by default (no
 * {@code fieldValidation=Strict}); a patch whose result has a wrong type is refused with kube's 422 ({@link
 * Patches}), but the JSON text of the patched object in its message is the fake's, not kube's byte for byte.
 */
final class TypedDecoding {

  private static final KubernetesSerialization KINDS = new KubernetesSerialization();
  private static final ObjectMapper STRICT = strictMapper();

  /**
   * A strict reader of fabric8's model class of each built-in kind seen, made once (a kind has none when fabric8 lacks
   * its class): a reader keeps the class's type and deserializer, which a read by class looks up on every call.
   */
  private static final Map<GroupVersionKind, Optional<ObjectReader>> MODELS = new ConcurrentHashMap<>();

  private TypedDecoding() {}

  /** A built-in kind's group, version and kind, the key of {@link #MODELS}. */
  private record GroupVersionKind(String group, String version, String kind) {
  }

  /**
   * Refuses a body whose known fields have the wrong JSON type.
   *
   * @param type the built-in resource written (custom resources are not checked here)
   * @param body the decoded body
   * @throws ApiError 400 BadRequest with Go's wording
   */
  static void check(ResourceType type, ObjectNode body) {
    mismatch(type, body).ifPresent(m -> {
      throw ApiError.badRequest(type.kind() + " in version \"" + type.version() + "\" cannot be handled as a "
          + type.kind() + ": " + m.jsonError());
    });
  }

  /**
   * A wrongly typed field of a built-in kind's object, as Go's decoders word it.
   *
   * @param jsonError {@code encoding/json}'s text: {@code json: cannot unmarshal number into Go struct field
   *     ConfigMap.data of type string}
   * @param converterError the unstructured converter's text for the same field (a strategic merge patch's result is
   *     converted, not decoded): {@code cannot convert int64 to string}
   */
  record Mismatch(String jsonError, String converterError) {
  }

  /**
   * The first wrongly typed known field of a built-in kind's object, if any.
   *
   * @param type the resource (custom resources are checked by their CRD schema instead: always empty)
   * @param body the object
   * @return the mismatch, worded as Go's decoders word it
   */
  static Optional<Mismatch> mismatch(ResourceType type, ObjectNode body) {
    if (type.custom()) {
      return Optional.empty();
    }
    ObjectReader model = MODELS.computeIfAbsent(new GroupVersionKind(type.group(), type.version(), type.kind()),
        k -> Optional.ofNullable(KINDS.getRegisteredKubernetesResource(type.apiVersion(), type.kind()))
            .map(STRICT::readerFor)).orElse(null);
    if (model == null) {
      return Optional.empty();
    }
    try {
      model.readValue(body);
      return Optional.empty();
    } catch (MismatchedInputException e) {
      JsonNode value = valueAt(body, e);
      return Optional.of(new Mismatch("json: cannot unmarshal " + valueText(value, e) + " into Go struct field "
          + goField(e) + " of type " + goType(e.getTargetType()),
          "cannot convert " + converterType(value) + " to " + goType(e.getTargetType())));
    } catch (IOException | IllegalArgumentException e) {
      // not a type mismatch (a model quirk; reading a tree does no I/O): leave the body to the fake's own checks
      return Optional.empty();
    }
  }

  /** The Go type the unstructured converter sees for a decoded JSON value. */
  private static String converterType(JsonNode value) {
    if (value == null) {
      return "<nil>";
    }
    if (value.isIntegralNumber()) {
      return "int64";
    }
    if (value.isNumber()) {
      return "float64";
    }
    if (value.isTextual()) {
      return "string";
    }
    if (value.isBoolean()) {
      return "bool";
    }
    return value.isObject() ? "map[string]interface {}" : "[]interface {}";
  }

  private static ObjectMapper strictMapper() {
    JsonMapper mapper = JsonMapper.builder()
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
        .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
        .configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false)
        .build();
    mapper.coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    SimpleModule fieldsV1 = new SimpleModule("ctk-fieldsV1-contents-skipped");
    fieldsV1.setDeserializerModifier(new BeanDeserializerModifier() {
      @Override
      public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription description,
          JsonDeserializer<?> deserializer) {
        return description.getBeanClass() == FieldsV1.class ? new ContentsSkipped(deserializer) : deserializer;
      }
    });
    mapper.registerModule(fieldsV1);
    return mapper;
  }

  /**
   * Reads a {@code managedFields[].fieldsV1} object without going through its contents: fabric8's class takes any
   * member of any type (so its contents can never mismatch), and reading each member of every manager's field set
   * into a map was the larger part of checking a tracked object. Anything but an object is read as before.
   */
  private static final class ContentsSkipped extends DelegatingDeserializer {

    ContentsSkipped(JsonDeserializer<?> delegate) {
      super(delegate);
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
      return new ContentsSkipped(delegate);
    }

    @Override
    public Object deserialize(JsonParser parser, DeserializationContext context) throws IOException {
      if (parser.currentToken() == JsonToken.START_OBJECT) {
        parser.skipChildren();
        return null;
      }
      return super.deserialize(parser, context);
    }
  }

  /** The value the mismatch is about, or {@code null}. */
  private static JsonNode valueAt(JsonNode body, MismatchedInputException e) {
    JsonNode node = body;
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (node == null) {
        break;
      }
      node = ref.getFieldName() != null ? node.get(ref.getFieldName()) : node.get(ref.getIndex());
    }
    return node;
  }

  /** Go's {@code UnmarshalTypeError.Value}: the JSON kind, with the literal for a number. */
  private static String valueText(JsonNode node, MismatchedInputException e) {
    if (node == null) {
      return "value";
    }
    String kind = GoText.jsonKind(node);
    return node.isNumber() && isIntegral(e.getTargetType()) ? kind + " " + node.asText() : kind;
  }

  /** {@code Struct.full.path}: the innermost struct and the JSON field names from the root, without indices or keys. */
  private static String goField(MismatchedInputException e) {
    String struct = "";
    List<String> names = new ArrayList<>();
    for (JsonMappingException.Reference ref : e.getPath()) {
      Object from = ref.getFrom();
      if (from instanceof Map || from instanceof Collection || ref.getFieldName() == null) {
        continue;
      }
      names.add(ref.getFieldName());
      struct = from instanceof Class<?> c ? c.getSimpleName() : from.getClass().getSimpleName();
    }
    return struct + "." + String.join(".", names);
  }

  private static boolean isIntegral(Class<?> type) {
    return type == Integer.class || type == int.class || type == Long.class || type == long.class;
  }

  private static String goType(Class<?> type) {
    if (type == null) {
      return "interface {}";
    }
    if (type == String.class) {
      return "string";
    }
    if (type == Integer.class || type == int.class) {
      return "int32";
    }
    if (type == Long.class || type == long.class) {
      return "int64";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "bool";
    }
    if (type == Double.class || type == double.class || type == Float.class || type == float.class) {
      return "float64";
    }
    if (Map.class.isAssignableFrom(type)) {
      return "map[string]string";
    }
    if (Collection.class.isAssignableFrom(type)) {
      return "[]string";
    }
    return "v1." + type.getSimpleName();
  }
}
