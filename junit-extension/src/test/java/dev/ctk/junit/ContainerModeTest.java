package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.envtest.ApiServer;
import dev.ctk.junit.ControllerTest.Mode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Container mode with an image built on this machine from the envtest binaries ({@code
 * ctk.container.local-image=auto}: no registry). Needs Docker, and here the environment variables
 * TESTCONTAINERS_RYUK_DISABLED=true and TESTCONTAINERS_HOST_OVERRIDE=localhost; skipped with the
 * reason without them, failed when CTK_REQUIRE_ENVTEST=true.
 */
class ContainerModeTest {

  static final Map<String, String> SEEN = new ConcurrentHashMap<>();

  @Test
  void should_run_a_test_in_a_fresh_namespace_of_the_container_server() {
    // GIVEN
    ApiServer server = RealServerFixtures.serverOrSkip(Mode.CONTAINER,
        "ctk.container.local-image", "auto");
    // WHEN
    var results = run(InContainer.class, "ctk.mode", "container",
        "ctk.container.local-image", "auto");
    // THEN
    assertAllPassed(results, 1);
    assertThat(SEEN).containsEntry("server", server.description())
        .containsEntry("mode", "container");
    assertThat(SEEN.get("namespace")).matches("ctk-test-in-incontainer-[a-z0-9]{5}");
  }

  @Fixture
  @ControllerTest
  static class InContainer {

    @Test
    void test(KubernetesClient client, ControllerHarness harness) {
      client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("web")
          .endMetadata().build()).create();
      assertThat(client.configMaps().inNamespace(harness.namespace()).withName("web").get())
          .isNotNull();
      SEEN.put("server", harness.serverDescription());
      SEEN.put("mode", harness.mode().configName());
      SEEN.put("namespace", harness.namespace());
    }
  }
}
