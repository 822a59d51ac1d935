package dev.ctk.fake.internal.seed;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.ctk.fake.values.FakeClusterException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads multi-document YAML (or JSON) into {@link SeedDocument}s; a {@code kind: List} document contributes its
 * items. Empty documents are skipped but still counted, so document numbers match what an editor shows between
 * {@code ---} separators.
 */
public final class YamlDocuments {

  private static final YAMLMapper YAML = new YAMLMapper();

  private YamlDocuments() {}

  /**
   * Reads every document.
   *
   * @param source how to name the input in messages (a path or {@code classpath resource "x"})
   * @param in the content (not closed)
   * @throws FakeClusterException when the YAML is malformed or a document is not an object
   */
  public static List<SeedDocument> read(String source, InputStream in) {
    List<SeedDocument> out = new ArrayList<>();
    int index = 0;
    try (JsonParser parser = new YAMLFactory().createParser(in);
        MappingIterator<JsonNode> docs = YAML.readValues(parser, JsonNode.class)) {
      while (true) {
        index++;
        JsonNode doc;
        try {
          if (!docs.hasNextValue()) {
            break;
          }
          doc = docs.nextValue();
        } catch (JsonProcessingException e) {
          JsonLocation location = e.getLocation();
          String line = location == null || location.getLineNr() < 1 ? "" : " (line " + location.getLineNr() + ")";
          throw new FakeClusterException("Cannot seed the fake cluster: " + source + ", document " + index + line
              + " is not valid YAML: " + e.getOriginalMessage().trim()
              + ". Fix the YAML there (kubectl apply --dry-run=client -f reports the same problem).", e);
        }
        if (doc == null || doc.isNull() || doc.isMissingNode() || (doc.isObject() && doc.isEmpty())) {
          continue;
        }
        if (!(doc instanceof ObjectNode object)) {
          throw new FakeClusterException("Cannot seed the fake cluster: " + source + ", document " + index
              + " is a YAML " + doc.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)
              + ", not a Kubernetes object. Every document needs apiVersion, kind and metadata.");
        }
        if (object.path("kind").asText("").equals("List") && object.path("items").isArray()) {
          int item = 0;
          for (JsonNode element : object.get("items")) {
            item++;
            if (!(element instanceof ObjectNode itemObject)) {
              throw new FakeClusterException("Cannot seed the fake cluster: " + source + ", document " + index
                  + " item " + item + " is not a Kubernetes object. Every item needs apiVersion, kind and "
                  + "metadata.");
            }
            out.add(new SeedDocument(source, index, item, itemObject));
          }
        } else {
          out.add(new SeedDocument(source, index, 0, object));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
    }
    return out;
  }
}
