package dev.ctk.junit;

import static dev.ctk.junit.EngineRuns.assertAllPassed;
import static dev.ctk.junit.EngineRuns.onlyFailure;
import static dev.ctk.junit.EngineRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.FakeCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code ctk.fake.kubernetes-version}: the minor the fake emulates in fake mode. */
class FakeKubernetesVersionTest {

  private static final Map<String, String> SEEN = new ConcurrentHashMap<>();

  @AfterEach
  void forget() {
    SEEN.clear();
  }

  @Test
  void the_fake_emulates_1_32_unless_told() {
    assertAllPassed(run(RecordsVersion.class), 1);
    assertThat(SEEN).containsEntry("RecordsVersion", "32 1.32");
  }

  @Test
  void the_setting_chooses_the_minor() {
    assertAllPassed(run(RecordsVersion.class, "ctk.fake.kubernetes-version", "1.34"), 1);
    assertThat(SEEN).containsEntry("RecordsVersion", "34 1.34");
  }

  @Test
  void a_customizer_wins_over_the_setting() {
    assertAllPassed(run(CustomizedTo137.class, "ctk.fake.kubernetes-version", "1.34"), 1);
    assertThat(SEEN).containsEntry("CustomizedTo137", "37 1.37");
  }

  @Test
  void a_minor_the_fake_does_not_emulate_fails_the_class_naming_the_setting() {
    var results = run(RecordsVersion.class, "ctk.fake.kubernetes-version", "1.29");
    assertThat(onlyFailure(results)).isInstanceOf(ExtensionConfigurationException.class)
        .hasMessage("Invalid value \"1.29\" from the JUnit configuration parameter ctk.fake.kubernetes-version "
            + "(junit-platform.properties, -D or the launcher). Expected a Kubernetes minor the fake emulates: 1.32, "
            + "1.33, 1.34, 1.35, 1.36, 1.37. Fix the value, or remove it to get the default (1.32).");
  }

  @Fixture
  @ControllerTest
  static class RecordsVersion {

    @Test
    void records(KubernetesClient client, FakeCluster cluster) {
      SEEN.put(getClass().getSimpleName(), client.getKubernetesVersion().getMinor() + " " + cluster.kubernetesVersion());
    }
  }

  @Fixture
  static class CustomizedTo137 {

    @RegisterExtension
    static final ControllerTestExtension CTK = ControllerTestExtension.builder()
        .withClusterCustomizer(builder -> builder.withKubernetesVersion("1.37")).build();

    @Test
    void records(KubernetesClient client, FakeCluster cluster) {
      SEEN.put(getClass().getSimpleName(), client.getKubernetesVersion().getMinor() + " " + cluster.kubernetesVersion());
    }
  }
}
