package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.run;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.envtest.ApiServer;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Container mode with an image built on this machine from the envtest binaries ({@code
 * ctk.container.local-image=auto}: no registry). Needs Docker, and here the environment variables
 * TESTCONTAINERS_RYUK_DISABLED=true and TESTCONTAINERS_HOST_OVERRIDE=localhost; skipped with the
 * reason without them, failed when CTK_REQUIRE_ENVTEST=true.
 */
class ContainerModeTest {

  static final Map<String, String> SEEN = new ConcurrentHashMap<>();

  @BeforeEach
  void forget() {
    SEEN.clear();
  }

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
    try (KubernetesClient admin = server.newClient()) {
      await("the test's namespace " + SEEN.get("namespace") + " to be deleted after the test")
          .atMost(ofSeconds(30))
          .until(() -> admin.namespaces().withName(SEEN.get("namespace")).get() == null);
    }
  }

  @Test
  void should_share_one_namespace_across_a_per_class_test_and_delete_it_after_the_class() {
    // GIVEN
    ApiServer server = RealServerFixtures.serverOrSkip(Mode.CONTAINER,
        "ctk.container.local-image", "auto");
    // WHEN
    var results = run(PerClassInContainer.class, "ctk.mode", "container",
        "ctk.container.local-image", "auto");
    // THEN
    assertAllPassed(results, 2);
    assertThat(SEEN.get("first")).isEqualTo(SEEN.get("second"))
        .matches("ctk-perclassincontainer-[a-z0-9]{5}");
    assertThat(SEEN).containsEntry("second saw", "from-first");
    try (KubernetesClient admin = server.newClient()) {
      await("the class's namespace " + SEEN.get("first") + " to be deleted after the class")
          .atMost(ofSeconds(30))
          .until(() -> admin.namespaces().withName(SEEN.get("first")).get() == null);
    }
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

  @Fixture
  @ControllerTest(isolation = Isolation.PER_CLASS)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class PerClassInContainer {

    @Test
    @Order(1)
    void first(KubernetesClient client, ControllerHarness harness) {
      client.configMaps().resource(new ConfigMapBuilder().withNewMetadata()
          .withName("from-first").endMetadata().build()).create();
      SEEN.put("first", harness.namespace());
    }

    @Test
    @Order(2)
    void second(KubernetesClient client, ControllerHarness harness) {
      SEEN.put("second", harness.namespace());
      SEEN.put("second saw", client.configMaps().withName("from-first").get().getMetadata()
          .getName());
    }
  }
}
