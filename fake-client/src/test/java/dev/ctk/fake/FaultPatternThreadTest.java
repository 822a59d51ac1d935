package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.RequestPattern;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Where and how often fault rule patterns run: exactly once per request; in process on the thread that sent it (so
 * a where(..) predicate reads the caller's ThreadLocals), over HTTP on a server thread.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(ClientTransport.class)
class FaultPatternThreadTest {

  @Parameter
  ClientTransport transport;

  private static final ThreadLocal<String> CALLER = new ThreadLocal<>();

  @Test
  void aPattern_runsOncePerRequest_inProcessOnTheSendersThread_overHttpOnAServerThread() {
    try (FakeCluster cluster = FakeCluster.builder().withClientTransport(transport).build()) {
      cluster.create(configMap("web", Map.of("v", "1")));
      List<String> seen = new CopyOnWriteArrayList<>();
      cluster.faults().when(RequestPattern.get("ConfigMap").where("records its thread", r -> {
        seen.add(r.sequence() + " " + Thread.currentThread().getName() + " " + CALLER.get());
        return false;
      })).answer(ApiFault.conflict());
      cluster.faults().when(RequestPattern.get("ConfigMap").where("sent by the marked caller",
          r -> "reconcile".equals(CALLER.get()))).answer(ApiFault.status(403, "Forbidden", "marked caller"));
      String test = Thread.currentThread().getName();

      assertThat(cluster.client().configMaps().inNamespace("default").withName("web").get()).isNotNull();
      CALLER.set("reconcile");
      try {
        if (transport == ClientTransport.IN_PROCESS) {
          assertThatThrownBy(() -> cluster.client().configMaps().inNamespace("default").withName("web").get())
              .isInstanceOfSatisfying(KubernetesClientException.class,
                  e -> assertThat(e.getStatus().getMessage()).isEqualTo("marked caller"));
        } else {
          assertThat(cluster.client().configMaps().inNamespace("default").withName("web").get())
              .as("over HTTP the predicate runs on a server thread, without the caller's ThreadLocal").isNotNull();
        }
      } finally {
        CALLER.remove();
      }

      List<Long> gets = cluster.requests().entries(RequestPattern.get("ConfigMap")).stream()
          .map(ApiRequestRecord::sequence).toList();
      assertThat(gets).hasSize(2);
      if (transport == ClientTransport.IN_PROCESS) {
        assertThat(seen).containsExactly(gets.get(0) + " " + test + " null", gets.get(1) + " " + test + " reconcile");
      } else {
        assertThat(seen).hasSize(2).allSatisfy(s -> assertThat(s).doesNotContain(" " + test + " ").endsWith(" null"));
        assertThat(seen).extracting(s -> Long.parseLong(s.substring(0, s.indexOf(' ')))).containsExactlyElementsOf(gets);
      }
    }
  }
}
