package dev.ctk.fake.internal.seed;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One object to seed, with where it came from (for error messages).
 *
 * @param source a file path, {@code classpath resource "x"} or {@code withObjects(..)}
 * @param index 1-based position in the source (YAML document, or argument position)
 * @param item 1-based position inside a {@code kind: List} document, or 0
 * @param object the object
 */
public record SeedDocument(String source, int index, int item, ObjectNode object) {

  /** {@code source, document N} (and {@code item M} inside a List). */
  public String where() {
    String unit = source.startsWith("withObjects") || source.startsWith("withCrds") ? "object" : "document";
    return source + ", " + unit + " " + index + (item > 0 ? " item " + item : "");
  }

  /** {@code Kind namespace/name} or {@code Kind name} as far as known. */
  public String identity() {
    String kind = object.path("kind").asText("<no kind>");
    String namespace = object.path("metadata").path("namespace").asText("");
    String name = object.path("metadata").path("name").asText("");
    if (name.isEmpty()) {
      name = object.path("metadata").path("generateName").asText("") + "*";
    }
    return kind + " " + (namespace.isEmpty() ? name : namespace + "/" + name);
  }
}
