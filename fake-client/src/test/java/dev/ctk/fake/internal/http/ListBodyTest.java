package dev.ctk.fake.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.store.StoredNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ListBody} writes exactly the bytes the list answer had when it was built as a tree (every item deep-copied,
 * {@code kind}/{@code apiVersion} removed for built-in kinds, then serialized), and never changes a stored object.
 */
class ListBodyTest {

  private static final ResourceType CONFIG_MAPS = ResourceType.builder("", "v1", "configmaps", "ConfigMap")
      .namespaced(true).build();
  private static final ResourceType DEPLOYMENTS = ResourceType.builder("apps", "v1", "deployments", "Deployment")
      .namespaced(true).build();
  private static final ResourceType WIDGETS_V1 = ResourceType.builder("example.com", "v1", "widgets", "Widget")
      .namespaced(true).custom(true).build();
  private static final ResourceType WIDGETS_V2 = ResourceType.builder("example.com", "v2", "widgets", "Widget")
      .namespaced(true).custom(true).build();

  @Test
  void builtInKind_itemsLoseKindAndApiVersion_byteForByteAsTheTree() {
    List<ObjectNode> stored = List.of(configMap("a", "plain"),
        configMap("b", "ünïcødé ☃ 日本語 \uD83D\uDE80 \"q\" \\ \n\t\u0001 </script>"), configMap("c", ""));

    assertSameBytesAndUntouched(CONFIG_MAPS, stored, 42, null, null);
  }

  @Test
  void builtInKind_withKindAndApiVersionInTheMiddleOrAbsent_keepsTheOtherFieldsInStoredOrder() {
    ObjectNode kindLast = JsonCodec.JSON.createObjectNode();
    kindLast.putObject("metadata").put("name", "late").put("namespace", "default");
    kindLast.putObject("spec").put("replicas", 3).put("paused", false).putNull("strategy");
    kindLast.put("kind", "Deployment");
    kindLast.putObject("status").put("observedGeneration", 9_000_000_000L).put("ratio", 0.25);
    kindLast.put("apiVersion", "apps/v1");
    ObjectNode noType = JsonCodec.JSON.createObjectNode();
    noType.putObject("metadata").put("name", "untyped");
    noType.putArray("finalizers").add("a/b").addArray();
    noType.putObject("empty");

    assertSameBytesAndUntouched(DEPLOYMENTS, List.of(kindLast, noType), 7, null, null);
  }

  @Test
  void emptyList_isTheSameBytes() {
    assertSameBytesAndUntouched(CONFIG_MAPS, List.of(), 1, null, null);
    assertSameBytesAndUntouched(WIDGETS_V1, List.of(), 1, null, null);
  }

  @Test
  void aPageWithContinueAndRemainingItemCount_isTheSameBytes() {
    List<ObjectNode> stored = List.of(configMap("a", "x"), configMap("b", "y"));

    assertSameBytesAndUntouched(CONFIG_MAPS, stored, 1234, "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ", 9_998L);
    assertSameBytesAndUntouched(CONFIG_MAPS, stored, 1234, "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ", null);
    assertSameBytesAndUntouched(CONFIG_MAPS, stored, 1234, "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ", 0L);
  }

  @Test
  void customResource_itemsKeepKindAndApiVersion_byteForByteAsTheTree() throws Exception {
    List<ObjectNode> stored = List.of(widget("w1", "example.com/v1", "blau ≠ blue"),
        widget("w2", "example.com/v1", ""));

    assertSameBytesAndUntouched(WIDGETS_V1, stored, 5, "token", 3L);
    assertThat(new String(JsonCodec.JSON.writeValueAsBytes(ListBody.of(WIDGETS_V1, stored, 5, null, null)),
        StandardCharsets.UTF_8)).contains("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",");
  }

  @Test
  void customResourceServedOnAnotherVersion_isConverted_onACopy() throws Exception {
    List<ObjectNode> stored = List.of(widget("w1", "example.com/v1", "rot"));

    assertSameBytesAndUntouched(WIDGETS_V2, stored, 5, null, null);
    String json = new String(JsonCodec.JSON.writeValueAsBytes(ListBody.of(WIDGETS_V2, stored, 5, null, null)),
        StandardCharsets.UTF_8);
    assertThat(json).isEqualTo("{\"kind\":\"WidgetList\",\"apiVersion\":\"example.com/v2\",\"metadata\":"
        + "{\"resourceVersion\":\"5\"},\"items\":[{\"apiVersion\":\"example.com/v2\",\"kind\":\"Widget\","
        + "\"metadata\":{\"name\":\"w1\",\"namespace\":\"default\"},\"spec\":{\"color\":\"rot\"}}]}");
    assertThat(stored.get(0).path("apiVersion").asText()).as("the stored object keeps its version")
        .isEqualTo("example.com/v1");
  }

  @Test
  void respond_isAJsonAnswerOfTheseBytes() throws Exception {
    List<ObjectNode> stored = List.of(configMap("a", "☃"));

    ApiResponse response = JsonCodec.respond(200, ListBody.of(CONFIG_MAPS, stored, 3, null, null));

    assertThat(response.code()).isEqualTo(200);
    assertThat(response.headers()).hasToString("{content-type=[application/json], cache-control=[no-cache, private]}");
    assertThat(response.body()).isEqualTo(treeBytes(CONFIG_MAPS, stored, 3, null, null));
  }

  @Test
  void storedVersions_areConcatenatedFromTheirKeptBytes_toTheTreesBytes_anEmojiAsItsUtf8Bytes() {
    List<ObjectNode> stored = List.of(StoredNode.copyOf(configMap("a", "hi \uD83D\uDC4B")),
        StoredNode.copyOf(configMap("b", "plain")));
    byte[] tree = treeBytes(CONFIG_MAPS, stored, 3, null, null);
    stored.forEach(item -> ((StoredNode) item).listItemJson());
    // a stored version is never modified; here one is, to show the list is written from the bytes kept before
    ((ObjectNode) stored.get(1)).put("notInTheKeptBytes", 1);

    byte[] concatenated = ListBody.of(CONFIG_MAPS, stored, 3, null, null).encode();

    assertThat(new String(concatenated, StandardCharsets.UTF_8)).contains("\"hi \uD83D\uDC4B\"")
        .doesNotContain("notInTheKeptBytes");
    assertThat(concatenated).isEqualTo(tree);
  }

  @Test
  void manyItems_areTheSameBytes() {
    List<ObjectNode> stored = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      stored.add(configMap(String.format("cm-%04d", i), "value-" + i + "-ß"));
    }

    assertSameBytesAndUntouched(CONFIG_MAPS, stored, 99, null, null);
  }

  private static void assertSameBytesAndUntouched(ResourceType type, List<ObjectNode> stored, long resourceVersion,
      String continueToken, Long remaining) {
    List<ObjectNode> before = new ArrayList<>();
    stored.forEach(o -> before.add(o.deepCopy()));
    byte[] expected = treeBytes(type, stored, resourceVersion, continueToken, remaining);

    byte[] actual;
    try {
      actual = JsonCodec.JSON.writeValueAsBytes(ListBody.of(type, stored, resourceVersion, continueToken, remaining));
    } catch (Exception e) {
      throw new AssertionError(e);
    }

    assertThat(new String(actual, StandardCharsets.UTF_8)).isEqualTo(new String(expected, StandardCharsets.UTF_8));
    assertThat(actual).isEqualTo(expected);
    assertThat(stored).as("stored objects are never modified").isEqualTo(before);
  }

  /** The list answer as it was built before ListBody: a tree of deep copies, serialized. */
  private static byte[] treeBytes(ResourceType type, List<ObjectNode> stored, long resourceVersion,
      String continueToken, Long remaining) {
    ObjectNode list = JsonCodec.JSON.createObjectNode();
    list.put("kind", type.listKind());
    list.put("apiVersion", type.apiVersion());
    ObjectNode meta = list.putObject("metadata");
    ArrayNode items = list.putArray("items");
    for (ObjectNode object : stored) {
      ObjectNode served = type.serve(object);
      if (type.custom()) {
        items.add(served);
      } else {
        ObjectNode copy = served.deepCopy();
        copy.remove("kind");
        copy.remove("apiVersion");
        items.add(copy);
      }
    }
    meta.put("resourceVersion", Long.toString(resourceVersion));
    if (continueToken != null) {
      meta.put("continue", continueToken);
    }
    if (remaining != null) {
      meta.put("remainingItemCount", remaining);
    }
    try {
      return JsonCodec.JSON.writeValueAsBytes(list);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static ObjectNode configMap(String name, String value) {
    ObjectNode object = JsonCodec.JSON.createObjectNode();
    object.put("kind", "ConfigMap");
    object.put("apiVersion", "v1");
    ObjectNode meta = object.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", "default");
    meta.put("resourceVersion", "17");
    meta.putObject("labels").put("app", "web").put("tier", "ëdge");
    object.putObject("data").put("key", value).put("ключ", "значение");
    return object;
  }

  private static ObjectNode widget(String name, String apiVersion, String color) {
    ObjectNode object = JsonCodec.JSON.createObjectNode();
    object.put("apiVersion", apiVersion);
    object.put("kind", "Widget");
    object.putObject("metadata").put("name", name).put("namespace", "default");
    object.putObject("spec").put("color", color);
    return object;
  }
}
