package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.testing.RawApi;
import org.junit.jupiter.api.Test;

/** Request headers as long as kube-apiserver takes them (Go's 1 MiB), over HTTP. */
class LongHeaderTest {

  @Test
  void serves_a_request_with_a_100_kib_header_as_kube_does() {
    try (FakeCluster cluster = FakeCluster.start()) {
      RawApi api = new RawApi(cluster.url());
      RawApi.Reply reply = api.get("/api/v1/namespaces/default/configmaps", "X-Long", "x".repeat(100 * 1024));
      assertThat(reply.code()).isEqualTo(200);
      assertThat(reply.json().path("kind").asText()).isEqualTo("ConfigMapList");
    }
  }

  @Test
  void refuses_headers_over_1_mib_with_gos_431_and_its_text() {
    try (FakeCluster cluster = FakeCluster.start()) {
      RawApi api = new RawApi(cluster.url());
      RawApi.Reply reply = api.get("/api/v1/namespaces/default/configmaps", "X-Long", "x".repeat(1100 * 1024));
      assertThat(reply.code()).isEqualTo(431);
      assertThat(reply.contentType()).isEqualTo("text/plain; charset=utf-8");
      assertThat(reply.body()).isEqualTo("431 Request Header Fields Too Large");
    }
  }
}
