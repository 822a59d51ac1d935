package dev.ctk.fake.internal.patch;

import dev.ctk.fake.internal.status.GoText;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JSON patch (RFC 6902, {@code application/json-patch+json}) as kube-apiserver applies it:
 * {@code add}, {@code remove}, {@code replace}, {@code move}, {@code copy} and {@code test}, array
 * index {@code -}, {@code ~0}/{@code ~1} escapes, with kube's answers when it fails.
 *
 * <p>kube-apiserver applies JSON patches with the evanphx/json-patch v4 library, whose behaviour the
 * fake reproduces where a client can see it, including where it departs from the RFC: negative
 * array indices count from the end ({@code /spec/containers/-1}); {@code replace} of a missing
 * object member adds it; {@code copy} from a missing object member writes {@code null}; the first
 * segment of a path that does not start with {@code /} is ignored. Failures:
 *
 * <ul>
 *   <li>a patch that does not decode as a list of operations: 400 {@code error decoding patch: ...};
 *   <li>more than 10000 operations: 413;
 *   <li>an operation that cannot be applied (failed {@code test}, missing path, bad index, unknown
 *       {@code op}): 422 with {@code Status.message} "the server rejected our request due to an error
 *       in our request", empty details, and the library's text (which kube does not send) as
 *       {@link PatchException#causeMessage()}, e.g.
 *       {@code testing value /spec/replicas failed: test failed}.
 * </ul>
 *
 * <pre>{@code
 * JsonNode patched = JsonPatch.apply(storedDeployment,
 *     json("[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":3}]"));
 * }</pre>
 *
 * @since 0.1.0
 */
public final class JsonPatch {

  /** kube-apiserver's {@code maxJSONPatchOperations}. */
  static final int MAX_OPERATIONS = 10000;

  private static final String MISSING = ": missing value";
  private static final String PATH_FIELD = "operation missing path field" + MISSING;
  private static final String FROM_FIELD = "operation, missing from field" + MISSING;

  private JsonNode root;

  private JsonPatch(JsonNode root) {
    this.root = root;
  }

  /**
   * Applies a JSON patch.
   *
   * @param target the stored object, never mutated
   * @param patch the patch document (an array of operations; {@code null} applies nothing)
   * @return the patched copy
   * @throws PatchException if the patch is malformed (400), too long (413) or cannot be applied (422)
   */
  public static JsonNode apply(JsonNode target, JsonNode patch) throws PatchException {
    List<JsonNode> operations = decode(patch);
    if (operations.size() > MAX_OPERATIONS) {
      throw PatchException.tooLarge(
          "The allowed maximum operations in a JSON patch is " + MAX_OPERATIONS + ", got " + operations.size());
    }
    JsonPatch document = new JsonPatch(target.deepCopy());
    for (JsonNode operation : operations) {
      document.applyOne(operation);
    }
    return document.root;
  }

  /** Checks the patch as kube's strict decoding into {@code []jsonPatchOp} does; first error wins. */
  private static List<JsonNode> decode(JsonNode patch) {
    List<JsonNode> operations = new ArrayList<>();
    if (patch == null || patch.isNull() || patch.isMissingNode()) {
      return operations;
    }
    if (!patch.isArray()) {
      throw decodingError("json: cannot unmarshal " + GoText.jsonKind(patch) + " into Go value of type []handlers.jsonPatchOp");
    }
    String firstError = null;
    for (JsonNode operation : patch) {
      operations.add(operation);
      if (firstError != null || operation.isNull()) {
        continue;
      }
      if (!operation.isObject()) {
        firstError = "json: cannot unmarshal " + GoText.jsonKind(operation) + " into Go value of type handlers.jsonPatchOp";
        continue;
      }
      for (Map.Entry<String, JsonNode> field : operation.properties()) {
        if (firstError != null) {
          break;
        }
        String name = field.getKey();
        JsonNode value = field.getValue();
        boolean stringField = name.equals("op") || name.equals("path") || name.equals("from");
        if (stringField && !value.isTextual() && !value.isNull()) {
          firstError = "json: cannot unmarshal " + GoText.jsonKind(value)
              + " into Go struct field jsonPatchOp." + name + " of type string";
        }
      }
    }
    if (firstError != null) {
      throw decodingError(firstError);
    }
    return operations;
  }

  private static PatchException decodingError(String error) {
    return PatchException.badRequest("error decoding patch: " + error);
  }

  private void applyOne(JsonNode operation) {
    String kind = text(operation, "op");
    switch (kind == null ? "unknown" : kind) {
      case "add":
        add(operation);
        break;
      case "remove":
        remove(operation);
        break;
      case "replace":
        replace(operation);
        break;
      case "move":
        move(operation);
        break;
      case "test":
        test(operation);
        break;
      case "copy":
        copy(operation);
        break;
      default:
        throw PatchException.unprocessable("Unexpected kind: " + (kind == null ? "unknown" : kind));
    }
  }

  private void add(JsonNode operation) {
    String path = required(operation, "path", "add operation failed to decode path" + MISSING);
    Location at = locate(path, "add operation does not apply: doc is missing path: \"" + path + "\"" + MISSING);
    try {
      at.add(value(operation));
    } catch (ContainerError e) {
      throw failed("error in add for path: '" + path + "': " + e.getMessage());
    }
  }

  private void remove(JsonNode operation) {
    String path = required(operation, "path", "remove operation failed to decode path" + MISSING);
    Location at = locate(path, "remove operation does not apply: doc is missing path: \"" + path + "\"" + MISSING);
    try {
      at.remove();
    } catch (ContainerError e) {
      throw failed("error in remove for path: '" + path + "': " + e.getMessage());
    }
  }

  private void replace(JsonNode operation) {
    String path = required(operation, "path", "replace operation failed to decode path: " + PATH_FIELD);
    if (path.isEmpty()) {
      JsonNode value = operation.get("value");
      // v4 silently ignores a whole-document replace whose value is neither an object nor an array
      if (value != null && (value.isObject() || value.isArray())) {
        root = value.deepCopy();
      }
      return;
    }
    Location at = locate(path, "replace operation does not apply: doc is missing path: " + path + MISSING);
    try {
      at.get();
    } catch (ContainerError e) {
      throw failed("replace operation does not apply: doc is missing key: " + path + MISSING);
    }
    try {
      at.set(value(operation));
    } catch (ContainerError e) {
      throw failed("error in remove for path: '" + path + "': " + e.getMessage());
    }
  }

  private void move(JsonNode operation) {
    String from = required(operation, "from", "move operation failed to decode from: " + FROM_FIELD);
    Location source = locate(from, "move operation does not apply: doc is missing from path: " + from + MISSING);
    JsonNode value;
    try {
      value = source.get();
      source.remove();
    } catch (ContainerError e) {
      throw failed("error in move for path: '" + source.key + "': " + e.getMessage());
    }
    String path = required(operation, "path", "move operation failed to decode path: " + PATH_FIELD);
    Location target = locate(path, "move operation does not apply: doc is missing destination path: " + path + MISSING);
    try {
      target.add(value);
    } catch (ContainerError e) {
      throw failed("error in move for path: '" + path + "': " + e.getMessage());
    }
  }

  private void copy(JsonNode operation) {
    String from = required(operation, "from", "copy operation failed to decode from: " + FROM_FIELD);
    Location source = locate(from, "copy operation does not apply: doc is missing from path: " + from + MISSING);
    JsonNode value;
    try {
      value = source.get();
    } catch (ContainerError e) {
      throw failed("error in copy for from: '" + from + "': " + e.getMessage());
    }
    String path = required(operation, "path", "copy operation failed to decode path" + MISSING);
    Location target = locate(path, "copy operation does not apply: doc is missing destination path: " + path + MISSING);
    try {
      target.add(value == null ? null : value.deepCopy());
    } catch (ContainerError e) {
      throw failed("error while adding value during copy: " + e.getMessage());
    }
  }

  private void test(JsonNode operation) {
    String path = required(operation, "path", "test operation failed to decode path: " + PATH_FIELD);
    JsonNode expected = operation.get("value");
    JsonNode actual;
    if (path.isEmpty()) {
      actual = root;
    } else {
      Location at = locate(path, "test operation does not apply: is missing path: " + path + MISSING);
      try {
        actual = at.get();
      } catch (ContainerError e) {
        throw failed("error in test for path: '" + path + "': " + e.getMessage());
      }
    }
    boolean passed = expected != null && (actual == null ? expected.isNull() : sameJson(actual, expected));
    if (!passed) {
      throw failed("testing value " + path + " failed: test failed");
    }
  }

  /** Finds the container of the last path segment, or {@code null} when the path leads nowhere. */
  /** Like {@link #locate(String)}, but a path that leads nowhere fails the patch with {@code missing}. */
  private Location locate(String path, String missing) {
    Location at = locate(path);
    if (at == null) {
      throw failed(missing);
    }
    return at;
  }

  private Location locate(String path) {
    String[] segments = path.split("/", -1);
    if (segments.length < 2) {
      return null;
    }
    JsonNode container = root;
    for (int i = 1; i < segments.length - 1; i++) {
      JsonNode next;
      try {
        next = new Location(container, unescape(segments[i])).get();
      } catch (ContainerError e) {
        return null;
      }
      if (next == null || !next.isContainerNode()) {
        return null;
      }
      container = next;
    }
    return new Location(container, unescape(segments[segments.length - 1]));
  }

  private static String unescape(String segment) {
    return segment.replace("~1", "/").replace("~0", "~");
  }

  private static String text(JsonNode operation, String field) {
    JsonNode value = operation.get(field);
    return value == null || !value.isTextual() ? null : value.textValue();
  }

  private static String required(JsonNode operation, String field, String failure) {
    String value = text(operation, field);
    if (value == null) {
      throw failed(failure);
    }
    return value;
  }

  /** The operation's value; an absent value counts as {@code null}, as the v4 library writes it. */
  private static JsonNode value(JsonNode operation) {
    JsonNode value = operation.get("value");
    return value == null ? null : value.deepCopy();
  }

  private static PatchException failed(String cause) {
    return PatchException.unprocessable(cause);
  }

  /** JSON equality as the v4 library's {@code test} sees it: ints and decimals never equal each other. */
  static boolean sameJson(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      if (a.isIntegralNumber() != b.isIntegralNumber()) {
        return false;
      }
      if (a.isIntegralNumber()) {
        return a.bigIntegerValue().equals(b.bigIntegerValue());
      }
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    if (a.getNodeType() != b.getNodeType()) {
      return false;
    }
    if (a.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> member : a.properties()) {
        JsonNode other = b.get(member.getKey());
        if (other == null || !sameJson(member.getValue(), other)) {
          return false;
        }
      }
      return true;
    }
    if (a.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!sameJson(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  /** A container node and the key or index the operation addresses in it. */
  private static final class Location {
    final JsonNode container;
    final String key;

    Location(JsonNode container, String key) {
      this.container = container;
      this.key = key;
    }

    /** The addressed value; {@code null} for a missing object member or a JSON {@code null}. */
    JsonNode get() {
      JsonNode value;
      if (container.isObject()) {
        value = container.get(key);
      } else {
        ArrayNode array = (ArrayNode) container;
        long index = atoi(key);
        if (index < 0) {
          if (index < -array.size()) {
            throw invalidIndex(index);
          }
          index += array.size();
        }
        if (index >= array.size()) {
          throw invalidIndex(index);
        }
        value = array.get((int) index);
      }
      return value == null || value.isNull() ? null : value;
    }

    void add(JsonNode value) {
      JsonNode stored = value == null ? NullNode.getInstance() : value;
      if (container.isObject()) {
        ((ObjectNode) container).set(key, stored);
        return;
      }
      ArrayNode array = (ArrayNode) container;
      if (key.equals("-")) {
        array.add(stored);
        return;
      }
      long index;
      try {
        index = atoi(key);
      } catch (ContainerError e) {
        throw new ContainerError("value was not a proper array index: '" + key + "': " + e.getMessage());
      }
      int size = array.size() + 1;
      if (index >= size) {
        throw invalidIndex(index);
      }
      if (index < 0) {
        if (index < -size) {
          throw invalidIndex(index);
        }
        index += size;
      }
      array.insert((int) index, stored);
    }

    void remove() {
      if (container.isObject()) {
        if (!container.has(key)) {
          throw new ContainerError("Unable to remove nonexistent key: " + key + MISSING);
        }
        ((ObjectNode) container).remove(key);
        return;
      }
      ArrayNode array = (ArrayNode) container;
      long index = atoi(key);
      if (index >= array.size()) {
        throw invalidIndex(index);
      }
      if (index < 0) {
        if (index < -array.size()) {
          throw invalidIndex(index);
        }
        index += array.size();
      }
      array.remove((int) index);
    }

    void set(JsonNode value) {
      JsonNode stored = value == null ? NullNode.getInstance() : value;
      if (container.isObject()) {
        ((ObjectNode) container).set(key, stored);
        return;
      }
      ArrayNode array = (ArrayNode) container;
      long index = atoi(key);
      if (index < 0) {
        if (index < -array.size()) {
          throw invalidIndex(index);
        }
        index += array.size();
      }
      array.set((int) index, stored);
    }

    private static ContainerError invalidIndex(long index) {
      return new ContainerError("Unable to access invalid index: " + index + ": invalid index referenced");
    }

    /** Go's {@code strconv.Atoi}, with its error texts. */
    private static long atoi(String text) {
      String digits = text.startsWith("+") || text.startsWith("-") ? text.substring(1) : text;
      if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
        throw new ContainerError("strconv.Atoi: parsing " + GoText.quote(text) + ": invalid syntax");
      }
      BigInteger value = new BigDecimal(text).toBigIntegerExact();
      if (value.bitLength() > 63) {
        throw new ContainerError("strconv.Atoi: parsing " + GoText.quote(text) + ": value out of range");
      }
      return value.longValue();
    }
  }

  /** A container-level failure; its message becomes part of the operation's 422 cause. */
  private static final class ContainerError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ContainerError(String message) {
      super(message, null, false, false);
    }
  }
}
