package dev.ctk.fake.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.FrozenObject;
import dev.ctk.fake.internal.store.StoredNode;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonCodec#bytes}: a stored version's answer is the serialization its watch events were written from, and
 * every answer writes a character outside the Basic Multilingual Plane as its UTF-8 bytes, as Go does.
 */
class JsonCodecTest {

  /** An object whose kept serialization differs from its tree, to tell which one an answer used. */
  private static final class Marked extends ObjectNode implements FrozenObject {
    private static final byte[] KEPT = "{\"kept\":true}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] STILL_KEPT = "{\"kept\":\"for another reader\"}".getBytes(StandardCharsets.UTF_8);

    Marked() {
      super(JsonNodeFactory.instance, Map.of());
    }

    @Override
    public byte[] json() {
      return STILL_KEPT;
    }

    @Override
    public byte[] takeJson() {
      return KEPT;
    }
  }

  @Test
  void aLoneSurrogate_isWrittenEscaped() {
    ObjectNode plain = JsonCodec.JSON.createObjectNode().put("k", "\uD83DA");

    assertThat(new String(JsonCodec.bytes(plain), StandardCharsets.UTF_8)).isEqualTo("{\"k\":\"\\uD83DA\"}");
  }

  @Test
  void aFrozenObjectsAnswer_takesItsKeptSerialization_notTheTreeWrittenAgain() {
    assertThat(new String(JsonCodec.bytes(new Marked()), StandardCharsets.UTF_8)).isEqualTo("{\"kept\":true}");
  }

  @Test
  void anEmoji_isWrittenAsItsUtf8Bytes_inAnAnswerOfATreeAndOfAStoredVersionAlike() {
    ObjectNode plain = JsonCodec.JSON.createObjectNode();
    plain.put("kind", "ConfigMap").putObject("data").put("wave", "hi \uD83D\uDC4B");

    byte[] tree = JsonCodec.bytes(plain);
    byte[] stored = JsonCodec.bytes(StoredNode.copyOf(plain));

    assertThat(new String(tree, StandardCharsets.UTF_8))
        .isEqualTo("{\"kind\":\"ConfigMap\",\"data\":{\"wave\":\"hi \uD83D\uDC4B\"}}");
    assertThat(stored).isEqualTo(tree);
  }
}
