package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.WireJson;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import java.util.Iterator;
import java.util.Map;

/**
 * The size limits a write meets in kube's storage: etcd refuses a request over 1.5 MiB ({@code --max-request-bytes}
 * default), and kube-apiserver's etcd client will not send one over 2 MiB. kube answers both with a 500 and the
 * storage layer's text, and stores nothing.
 *
 * <pre>{@code
 * StorageLimits.check(type, object);   // throws ApiError 500 for an object over the limits
 * }</pre>
 *
 * <p>Limits: the size is the object's JSON plus its etcd key twice and a small constant, an estimate of the etcd
 * request kube sends (which also carries the transaction's comparisons, and protobuf, not JSON, for built-in kinds);
 * an object within a few hundred bytes of a limit may be judged otherwise than by kube, and the byte count in the
 * 2 MiB message is that estimate.
 */
final class StorageLimits {

  /** etcd's default {@code --max-request-bytes}. */
  static final long ETCD_MAX_REQUEST_BYTES = 1536 * 1024;
  /** kube-apiserver's etcd client's largest message. */
  static final long CLIENT_MAX_SEND_BYTES = 2 * 1024 * 1024;

  private static final ObjectMapper JSON = WireJson.MAPPER;
  /** Below this many bytes of text an object cannot reach the limits, so it is not serialized to be measured. */
  private static final long MEASURE_FROM = ETCD_MAX_REQUEST_BYTES / 2;
  private static final int REQUEST_OVERHEAD = 16;

  private StorageLimits() {}

  /**
   * Refuses an object kube's storage would refuse.
   *
   * @param type its resource
   * @param object the object about to be stored
   * @throws ApiError 500 {@code etcdserver: request is too large} over 1.5 MiB, or the etcd client's
   *     {@code ResourceExhausted} over 2 MiB
   */
  static void check(ResourceType type, ObjectNode object) {
    if (textLength(object) < MEASURE_FROM) {
      return;
    }
    long size;
    try {
      size = JSON.writeValueAsBytes(object).length;
    } catch (JsonProcessingException e) {
      return;
    }
    JsonNode metadata = object.path("metadata");
    String key = "/registry/" + (type.group().isEmpty() ? "" : type.group() + "/") + type.plural() + "/"
        + (metadata.hasNonNull("namespace") ? metadata.get("namespace").asText() + "/" : "")
        + metadata.path("name").asText();
    size += 2L * key.length() + REQUEST_OVERHEAD;
    if (size > CLIENT_MAX_SEND_BYTES) {
      throw ApiError.untranslated(500, "rpc error: code = ResourceExhausted desc = trying to send message larger "
          + "than max (" + size + " vs. " + CLIENT_MAX_SEND_BYTES + ")");
    }
    if (size > ETCD_MAX_REQUEST_BYTES) {
      throw ApiError.untranslated(500, "etcdserver: request is too large");
    }
  }

  /** The characters of every string, number and field name: a lower bound of the JSON's length, without writing it. */
  private static long textLength(JsonNode node) {
    if (node.isTextual()) {
      return node.textValue().length();
    }
    long length = 0;
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        length += field.getKey().length() + textLength(field.getValue());
      }
    } else if (node.isArray()) {
      for (JsonNode item : node) {
        length += textLength(item);
      }
    }
    return length;
  }
}
