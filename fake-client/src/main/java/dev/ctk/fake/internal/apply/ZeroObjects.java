package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The empty object of a kind as kube's Go types serialize it: the baseline kube compares a created object with,
 * and the one the first apply to an untracked object compares the live object with. Its empty structs
 * ({@code spec: {}}) are why a create's managedFields entry has no {@code "."} for them, while a custom resource,
 * whose empty object has no {@code spec}, gets {@code f:spec: {".": {}}}.
 *
 * <p>Only objects and lists matter here (scalars are owned whether they were zero or absent). Each built-in kind's
 * empty object is a column of its row in {@code BuiltinKinds} ({@link ResourceType#zeroObject()}); a built-in kind
 * also gets {@code {"metadata": {"creationTimestamp": null}}}. Each distinct text is parsed once per JVM and
 * shared.
 */
final class ZeroObjects {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, ObjectNode> PARSED = new ConcurrentHashMap<>();
  private static final ObjectNode EMPTY = JSON.createObjectNode();

  private ZeroObjects() {}

  /**
   * The zero object of a kind (empty for a custom resource), shared by every caller: for comparisons, which only read
   * it (every create compares with it; a copy each time would cost about as much as comparing a small object). Never
   * modify it.
   */
  static ObjectNode readOnly(ResourceType type) {
    if (type.custom()) {
      return EMPTY;
    }
    return PARSED.computeIfAbsent(type.zeroObject(), text -> parse(type));
  }

  private static ObjectNode parse(ResourceType type) {
    try {
      ObjectNode zero = (ObjectNode) JSON.readTree(type.zeroObject());
      zero.putObject("metadata").putNull("creationTimestamp");
      return zero;
    } catch (JsonProcessingException | ClassCastException e) {
      throw new IllegalStateException("malformed zero object of " + type + " in BuiltinKinds: "
          + type.zeroObject(), e);
    }
  }
}
