package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The part of kube's "immutable spec" messages after the first line. kube appends a go-cmp diff of the Go structs
 * ({@code core.PodSpec{...}}), whose layout go-cmp deliberately varies (it mixes spaces and non-breaking spaces) so
 * that nobody parses it; the fake prints the changed top-level fields by their JSON names, in the same frame:
 *
 * <pre>
 *   core.PodSpec{
 * - 	nodeName: "node-a",
 * + 	nodeName: "node-b",
 *   }
 * </pre>
 *
 * <p>Also kube's semantic equality for these specs: a JSON {@code null} and an empty list equal a missing field (Go's
 * nil and empty slices compare equal there).
 */
final class SpecDiff {

  private SpecDiff() {}

  /** Whether two specs are equal as kube's {@code apiequality.Semantic} sees them (see the class comment). */
  static boolean equal(JsonNode a, JsonNode b) {
    return dev.ctk.fake.internal.common.SemanticEquality.equal(normalize(a), normalize(b));
  }

  /** The diff text, starting with {@code "  <goType>{\n"} and ending with {@code "  }"}. */
  static String render(String goType, JsonNode before, JsonNode after) {
    JsonNode old = normalize(before);
    JsonNode now = normalize(after);
    StringBuilder out = new StringBuilder("  ").append(goType).append("{\n");
    Set<String> fields = new LinkedHashSet<>();
    old.fieldNames().forEachRemaining(fields::add);
    now.fieldNames().forEachRemaining(fields::add);
    for (String field : fields) {
      JsonNode o = old.get(field);
      JsonNode n = now.get(field);
      if (o != null && n != null && dev.ctk.fake.internal.common.SemanticEquality.equal(o, n)) {
        continue;
      }
      if (o != null) {
        out.append("- \t").append(field).append(": ").append(o).append(",\n");
      }
      if (n != null) {
        out.append("+ \t").append(field).append(": ").append(n).append(",\n");
      }
    }
    return out.append("  }").toString();
  }

  /** A copy without nulls and empty lists (at any depth). */
  static JsonNode normalize(JsonNode node) {
    if (node == null || node.isMissingNode() || node.isNull()) {
      return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    }
    JsonNode copy = node.deepCopy();
    strip(copy);
    return copy;
  }

  private static void strip(JsonNode node) {
    if (node instanceof ObjectNode object) {
      List<String> remove = new ArrayList<>();
      object.properties().forEach(e -> {
        JsonNode v = e.getValue();
        if (v.isNull() || (v.isArray() && v.isEmpty())) {
          remove.add(e.getKey());
        } else {
          strip(v);
        }
      });
      object.remove(remove);
    } else if (node instanceof ArrayNode array) {
      array.forEach(SpecDiff::strip);
    }
  }
}
