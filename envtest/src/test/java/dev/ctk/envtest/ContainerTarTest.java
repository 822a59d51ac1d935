package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.envtest.internal.ContainerTar;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tar bytes that carry files into and out of containers. */
class ContainerTarTest {

  @Test
  void an_archive_holds_its_folders_then_its_files_and_reads_back() throws IOException {
    Map<String, byte[]> files = new LinkedHashMap<>();
    byte[] big = "x".repeat(1000).getBytes(StandardCharsets.UTF_8);
    files.put("ctk/auth/tokens.csv", big);
    files.put("ctk/auth/sa.pub", "key".getBytes(StandardCharsets.UTF_8));

    byte[] tar = ContainerTar.archive(files, 0600);

    assertThat(tar.length % 512).isZero();
    assertThat(new String(tar, 0, 5, StandardCharsets.US_ASCII)).isEqualTo("ctk/\u0000");
    assertThat(ContainerTar.firstFile(new ByteArrayInputStream(tar))).hasValueSatisfying(
        content -> assertThat(content).isEqualTo(big));
  }

  @Test
  void an_empty_archive_has_no_file() throws IOException {
    assertThat(ContainerTar.firstFile(new ByteArrayInputStream(ContainerTar.archive(Map.of(), 0644)))).isEmpty();
    assertThat(ContainerTar.firstFile(new ByteArrayInputStream(new byte[0]))).isEmpty();
  }
}
