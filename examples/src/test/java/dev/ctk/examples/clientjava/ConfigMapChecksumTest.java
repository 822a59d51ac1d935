package dev.ctk.examples.clientjava;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The checksum itself, against known SHA-256 values of the canonical text ({@code sha256sum}). */
class ConfigMapChecksumTest {

  @Test
  void hashes_data_entries_in_key_order() {
    // "greeting=hello\nname=world\n"
    assertThat(ConfigMapChecksumController.checksum(Map.of("name", "world", "greeting", "hello"),
        null)).isEqualTo("0f675a2820655c3ee478f121de654320f0cc8a9fe8acac9541722be978489b8f");
  }

  @Test
  void hashes_binary_data_as_base64_after_data() {
    // "a=1\nlogo=AQID\n"
    assertThat(ConfigMapChecksumController.checksum(Map.of("a", "1"),
        Map.of("logo", new byte[] {1, 2, 3})))
        .isEqualTo("891e1cdee0c8361fd1fd844b2336f75ab1bdd8257c5a8f464cee754d6e92dc4a");
  }

  @Test
  void hashes_no_content_as_the_empty_string() {
    assertThat(ConfigMapChecksumController.checksum(null, null))
        .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  }
}
