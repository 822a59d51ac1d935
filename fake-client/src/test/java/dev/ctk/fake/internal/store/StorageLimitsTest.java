package dev.ctk.fake.internal.store;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import org.junit.jupiter.api.Test;

/**
 * {@link StorageLimits}: an object is measured by its JSON as the fake writes it, a character outside the Basic
 * Multilingual Plane as its four UTF-8 bytes (as kube stores it), not as the twelve of an escaped surrogate pair.
 */
class StorageLimitsTest {

  private static final ResourceType CONFIG_MAPS = ResourceType.builder("", "v1", "configmaps", "ConfigMap")
      .namespaced(true).build();
  private static final String WAVE = "\uD83D\uDC4B";

  private static ObjectNode configMap(int emoji, int ascii) {
    ObjectNode object = JsonNodeFactory.instance.objectNode();
    object.put("apiVersion", "v1").put("kind", "ConfigMap");
    object.putObject("metadata").put("name", "big").put("namespace", "default");
    object.putObject("data").put("emoji", WAVE.repeat(emoji)).put("ascii", "a".repeat(ascii));
    return object;
  }

  @Test
  void emoji_count_their_utf8_bytes_so_1_4_mb_of_them_is_stored() {
    // 300,000 emoji and 200,000 letters: 1.4 MB as UTF-8 (under 1.5 MiB), 3.8 MB with escaped pairs
    assertThatCode(() -> StorageLimits.check(CONFIG_MAPS, configMap(300_000, 200_000))).doesNotThrowAnyException();
  }

  @Test
  void past_1_5_mib_of_utf8_the_object_is_refused_as_etcd_refuses_it() {
    // 400,000 emoji: 1.6 MB as UTF-8
    assertThatThrownBy(() -> StorageLimits.check(CONFIG_MAPS, configMap(400_000, 0)))
        .isInstanceOf(ApiError.class).hasMessageContaining("etcdserver: request is too large");
  }
}
