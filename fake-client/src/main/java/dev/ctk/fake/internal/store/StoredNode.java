package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.ctk.fake.internal.common.FrozenObject;
import dev.ctk.fake.internal.common.WireJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The root of a stored object version: an {@link ObjectNode} whose common parts are shared with other stored versions
 * ({@link #shareCommonParts()}: field sets and short texts of {@code managedFields}), and that, once a list has
 * written it, keeps its JSON as a list item (without {@code kind} and {@code apiVersion}, as kube's typed lists serve
 * items), so that the next list copies those bytes instead of walking the tree again, as kube-apiserver's watch cache
 * keeps an object's serialized form. A stored version is never modified (the store copies before it changes
 * anything, and shares stored versions with lists and watch events on that promise), so the bytes never go stale.
 *
 * <p>A write's watch events and its answer share one serialization of the whole version: the events take it with
 * {@link #json()}, which keeps it on the thread that wrote it, and the answer with {@link #takeJson()}, which forgets
 * it. An in-process watch's event is written on the writer's thread right after its delivery thread is woken; when
 * that thread asks first, it writes the event and the answer writes the version again.
 *
 * <p>Limits: only list items are kept for good (a GET serializes the tree each time), and only a list whose items are
 * all stored versions is concatenated from them; a custom resource's list items (served with {@code kind} and {@code
 * apiVersion}, possibly converted to another version) are written from the tree. The bytes are kept from the first
 * list on: about the size of the object's JSON more per listed object, for as long as that version is stored. A
 * thread whose last serialization for watch events no answer took keeps that version and its bytes until its next
 * one: one version per thread at most (a write answered with a Status or a list, an update that removes the
 * object, the garbage collector's and the namespace controller's writes, a test's seeding).
 */
public final class StoredNode extends ObjectNode implements FrozenObject {

  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = WireJson.MAPPER;

  /** The most shared parts kept; past it, the tables start again (bounded memory in a long-lived JVM). */
  private static final int MAX_SHARED = 8_192;
  private static final Map<JsonNode, JsonNode> SHARED_TREES = new ConcurrentHashMap<>();
  private static final Map<String, TextNode> SHARED_TEXT = new ConcurrentHashMap<>();
  private static final List<String> ENTRY_TEXT = List.of("manager", "operation", "apiVersion", "fieldsType", "time",
      "subresource");
  private static final List<String> METADATA_TEXT = List.of("namespace", "creationTimestamp");

  private transient volatile byte[] listItem;

  /**
   * The last version a thread serialized whole for watch events, and its bytes, until its answer takes them: a write
   * sends its stored version in its watch events and then in its answer, on the writer's thread, one right after the
   * other. Not a field: kept per version, the bytes would cost the object's size again for as long as it is stored.
   */
  private static final ThreadLocal<LastJson> LAST_JSON = ThreadLocal.withInitial(LastJson::new);

  private StoredNode(Map<String, JsonNode> children) {
    super(JsonNodeFactory.instance, children);
  }

  /**
   * A deep copy of {@code object} to store.
   *
   * @param object the object (not modified)
   * @return the copy
   */
  public static StoredNode copyOf(ObjectNode object) {
    Map<String, JsonNode> children = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      children.put(field.getKey(), field.getValue().deepCopy());
    }
    return new StoredNode(children);
  }

  /**
   * Shares, among all stored versions, the parts that many objects carry alike, instead of a copy in each: every
   * {@code managedFields} entry's {@code fieldsV1} (the field set, alike for objects written alike) and its short
   * texts (manager, operation, apiVersion, fieldsType, time, subresource), and {@code metadata.namespace} and {@code
   * creationTimestamp}. Call it once, on the fresh copy, before the version is published; a stored version is never
   * modified, so a shared part never changes (a write copies before it changes anything).
   *
   * @return this
   */
  public StoredNode shareCommonParts() {
    if (!(get("metadata") instanceof ObjectNode metadata)) {
      return this;
    }
    shareTexts(metadata, METADATA_TEXT);
    if (metadata.get("managedFields") instanceof ArrayNode entries) {
      for (JsonNode entry : entries) {
        if (entry instanceof ObjectNode fields) {
          shareTexts(fields, ENTRY_TEXT);
          if (fields.get("fieldsV1") instanceof ObjectNode set) {
            fields.set("fieldsV1", shared(SHARED_TREES, set, set));
          }
        }
      }
    }
    return this;
  }

  private static void shareTexts(ObjectNode node, List<String> names) {
    for (String name : names) {
      if (node.get(name) instanceof TextNode text) {
        node.set(name, shared(SHARED_TEXT, text.textValue(), text));
      }
    }
  }

  private static <K, V> V shared(Map<K, V> table, K key, V value) {
    V known = table.get(key);
    if (known != null) {
      return known;
    }
    if (table.size() >= MAX_SHARED) {
      table.clear();
    }
    V raced = table.putIfAbsent(key, value);
    return raced == null ? value : raced;
  }

  /**
   * {@inheritDoc} Written once for consecutive callers on one thread (a write's watch events) and kept on that thread
   * until {@link #takeJson()} or its next serialization of another version.
   */
  @Override
  public byte[] json() {
    LastJson last = LAST_JSON.get();
    if (last.node != this) {
      last.bytes = serialize();
      last.node = this;
    }
    return last.bytes;
  }

  /** {@inheritDoc} The bytes {@link #json()} kept on this thread when they are this version's, else written now. */
  @Override
  public byte[] takeJson() {
    LastJson last = LAST_JSON.get();
    byte[] bytes = last.node == this ? last.bytes : serialize();
    last.node = null;
    last.bytes = null;
    return bytes;
  }

  private byte[] serialize() {
    try {
      return JSON.writeValueAsBytes(this);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize a stored object", e);
    }
  }

  /** One thread's last whole serialization (see {@link #json()}). */
  private static final class LastJson {
    private StoredNode node;
    private byte[] bytes;
  }

  /**
   * This object's JSON as a typed list's item (without {@code kind} and {@code apiVersion}), written on the first
   * call and kept. Do not modify the array.
   *
   * @return the UTF-8 bytes
   */
  public byte[] listItemJson() {
    byte[] bytes = listItem;
    if (bytes == null) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(512);
      try (JsonGenerator gen = JSON.getFactory().createGenerator(out)) {
        writeWithoutTypeFields(this, gen, JSON.getSerializerProviderInstance());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot serialize a stored object", e);
      }
      bytes = out.toByteArray();
      listItem = bytes;
    }
    return bytes;
  }

  /** Writes {@code item} as {@link ObjectNode#serialize} would, leaving out {@code kind} and {@code apiVersion}. */
  public static void writeWithoutTypeFields(ObjectNode item, JsonGenerator gen, SerializerProvider provider)
      throws IOException {
    gen.writeStartObject(item);
    for (Map.Entry<String, JsonNode> field : item.properties()) {
      String name = field.getKey();
      if (!name.equals("kind") && !name.equals("apiVersion")) {
        gen.writeFieldName(name);
        field.getValue().serialize(gen, provider);
      }
    }
    gen.writeEndObject();
  }
}
