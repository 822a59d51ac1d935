package dev.ctk.fake.internal.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.store.StoredNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The body of a list answer ({@code ConfigMapList}, {@code WidgetList}, ...; list and deletecollection), written
 * straight from the stored objects by the JSON serializer, without building a list tree or copying an item.
 *
 * <p>kube serves the items of a built-in kind without {@code kind} and {@code apiVersion} (its typed list encodes
 * them without), and the items of a custom resource with theirs (an unstructured list). The stored objects are
 * shared with the store and with watch events, so instead of copying an item to remove those two fields, the item
 * is written field by field and they are skipped. The bytes are exactly those of the equivalent tree:
 * {@code {"kind","apiVersion","metadata":{"resourceVersion","continue"?,"remainingItemCount"?},"items":[...]}}, each
 * item with its fields in stored order.
 *
 * <p>Items are taken as a read on this resource serves them ({@link ResourceType#serve}, which converts a
 * multi-version custom resource to the requested version) when the body is built, so a conversion failure is
 * raised by the handler, not inside the serializer.
 */
final class ListBody implements JsonSerializable {

  private final ResourceType type;
  private final List<ObjectNode> items;
  private final long resourceVersion;
  private final String continueToken;
  private final Long remainingItemCount;

  private ListBody(ResourceType type, List<ObjectNode> items, long resourceVersion, String continueToken,
      Long remainingItemCount) {
    this.type = type;
    this.items = items;
    this.resourceVersion = resourceVersion;
    this.continueToken = continueToken;
    this.remainingItemCount = remainingItemCount;
  }

  /**
   * A list of {@code stored} objects as served on {@code type}'s version.
   *
   * @param stored the objects as the store holds them (never modified)
   * @param resourceVersion {@code metadata.resourceVersion} of the list
   * @param continueToken {@code metadata.continue}, or {@code null} for none
   * @param remainingItemCount {@code metadata.remainingItemCount}, or {@code null} for none
   */
  static ListBody of(ResourceType type, List<ObjectNode> stored, long resourceVersion, String continueToken,
      Long remainingItemCount) {
    List<ObjectNode> served = new ArrayList<>(stored.size());
    for (ObjectNode object : stored) {
      served.add(type.serve(object));
    }
    return new ListBody(type, served, resourceVersion, continueToken, remainingItemCount);
  }

  /**
   * The answer's bytes. A typed list whose items are all stored versions ({@link StoredNode}) is written by
   * concatenation: its header, then each item's kept bytes, then its end, into one array of the exact size; any
   * other list is written by the JSON serializer. Both give the same bytes.
   *
   * @return the UTF-8 JSON
   */
  byte[] encode() {
    if (type.custom() || !items.stream().allMatch(StoredNode.class::isInstance)) {
      return JsonCodec.bytes(this);
    }
    byte[] header = header();
    byte[][] parts = new byte[items.size()][];
    int size = header.length + 2 + Math.max(0, items.size() - 1);
    for (int i = 0; i < parts.length; i++) {
      parts[i] = ((StoredNode) items.get(i)).listItemJson();
      size += parts[i].length;
    }
    byte[] out = new byte[size];
    System.arraycopy(header, 0, out, 0, header.length);
    int at = header.length;
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        out[at++] = ',';
      }
      System.arraycopy(parts[i], 0, out, at, parts[i].length);
      at += parts[i].length;
    }
    out[at++] = ']';
    out[at] = '}';
    return out;
  }

  /** {@code {"kind":..,"apiVersion":..,"metadata":{..},"items":[}. */
  private byte[] header() {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(160);
    try (JsonGenerator gen = JsonCodec.JSON.getFactory().createGenerator(out)
        .disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT)) {   // it ends open, at "items":[
      writeHeader(gen);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot write a list header", e);
    }
    return out.toByteArray();
  }

  private void writeHeader(JsonGenerator gen) throws IOException {
    gen.writeStartObject(this);
    gen.writeStringField("kind", type.listKind());
    gen.writeStringField("apiVersion", type.apiVersion());
    gen.writeObjectFieldStart("metadata");
    gen.writeStringField("resourceVersion", Long.toString(resourceVersion));
    if (continueToken != null) {
      gen.writeStringField("continue", continueToken);
    }
    if (remainingItemCount != null) {
      gen.writeNumberField("remainingItemCount", remainingItemCount.longValue());
    }
    gen.writeEndObject();
    gen.writeArrayFieldStart("items");
  }

  @Override
  public void serialize(JsonGenerator gen, SerializerProvider provider) throws IOException {
    writeHeader(gen);
    boolean typed = !type.custom();
    for (ObjectNode item : items) {
      if (typed) {
        StoredNode.writeWithoutTypeFields(item, gen, provider);
      } else {
        item.serialize(gen, provider);
      }
    }
    gen.writeEndArray();
    gen.writeEndObject();
  }

  @Override
  public void serializeWithType(JsonGenerator gen, SerializerProvider provider, TypeSerializer typeSer)
      throws IOException {
    // never written polymorphically: the mapper has no default typing
    serialize(gen, provider);
  }
}
