package dev.ctk.fake;

import static dev.ctk.fake.testing.Fixtures.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.fake.values.FakeClusterException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Seeding from builders, YAML files and classpath resources, and its error messages. */
class SeedingTest {

  @TempDir
  Path dir;

  @Test
  void classpathYaml_createsCrdsThenNamespacesThenObjects() {
    try (FakeCluster cluster = FakeCluster.builder().withClasspathResources("seed/good.yaml").build()) {
      GenericKubernetesResource net = cluster.client().genericKubernetesResources("samplecrd.k8s.io/v1", "Network")
          .inNamespace("team-a").withName("net-a").get();
      assertThat(net.<String>get("spec", "cidr")).isEqualTo("10.0.0.0/24");
      assertThat(cluster.client().configMaps().inNamespace("team-a").withName("settings").get().getData())
          .containsEntry("mode", "fast");
      assertThat(cluster.client().configMaps().inNamespace("default").withName("defaults").get()).isNotNull();
    }
  }

  @Test
  void builderObjects_keepStatus_andTypedObjectsComeBackTyped() {
    try (FakeCluster cluster = FakeCluster.builder().withObjects(new PodBuilder().withNewMetadata().withName("p")
        .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("i").endContainer().endSpec()
        .withNewStatus().withPhase("Running").endStatus().build()).build()) {
      assertThat(cluster.client().pods().withName("p").get().getStatus().getPhase()).isEqualTo("Running");
      ConfigMap created = cluster.create(configMap("c", Map.of()));
      assertThat(created.getMetadata().getUid()).isNotBlank();
    }
  }

  @Test
  void load_atRunTime_returnsObjectsInWriteOrder() throws IOException {
    Path file = Files.writeString(dir.resolve("more.yaml"), """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: a
        ---
        apiVersion: v1
        kind: Namespace
        metadata:
          name: late
        """);
    try (FakeCluster cluster = FakeCluster.start()) {
      List<HasMetadata> loaded = cluster.load(file);
      assertThat(loaded).extracting(o -> o.getKind() + "/" + o.getMetadata().getName())
          .containsExactly("Namespace/late", "ConfigMap/a");
      assertThat(loaded.get(1)).isInstanceOf(ConfigMap.class);
      assertThat(cluster.loadClasspathResource("seed/good.yaml")).hasSize(5);
    }
  }

  @Test
  void missingFile_failsAtOnce_namingThePathAndTheFix() {
    Path missing = dir.resolve("nope.yaml");
    assertThatThrownBy(() -> FakeCluster.builder().withYaml(missing))
        .isInstanceOf(FakeClusterException.class)
        .hasMessage("Cannot seed the fake cluster: file " + missing.toAbsolutePath() + " does not exist. Check the "
            + "path (relative paths resolve against the working directory " + Path.of("").toAbsolutePath()
            + "), or use withClasspathResources(..) for files on the classpath.");
  }

  @Test
  void missingClasspathResource_failsAtOnce() {
    assertThatThrownBy(() -> FakeCluster.builder().withClasspathResources("seed/nope.yaml"))
        .isInstanceOf(FakeClusterException.class)
        .hasMessage("Cannot seed the fake cluster: classpath resource \"seed/nope.yaml\" not found (looked in the "
            + "thread context class loader and ctk's class loader). Put the file under "
            + "src/test/resources/seed/nope.yaml, or use withYaml(Path) for files outside the classpath.");
  }

  @Test
  void malformedYaml_namesDocumentAndLine() {
    assertThatThrownBy(() -> FakeCluster.builder().withClasspathResources("seed/malformed.yaml"))
        .isInstanceOf(FakeClusterException.class)
        .hasMessageStartingWith("Cannot seed the fake cluster: classpath resource \"seed/malformed.yaml\", "
            + "document 2 (line 10) is not valid YAML: ")
        .hasMessageEndingWith(". Fix the YAML there (kubectl apply --dry-run=client -f reports the same problem).");
  }

  @Test
  void kindWithoutCrd_nothingIsHalfLoaded() {
    try (FakeCluster cluster = FakeCluster.start()) {
      assertThatThrownBy(() -> cluster.loadClasspathResource("seed/missing-crd.yaml"))
          .isInstanceOf(FakeClusterException.class)
          .hasMessage("Cannot seed the fake cluster: classpath resource \"seed/missing-crd.yaml\", document 2 "
              + "(Network net-a) has kind Network in samplecrd.k8s.io/v1, which no CustomResourceDefinition "
              + "defines and the fake API server does not serve. Add the CRD (withCrds(..), or a "
              + "CustomResourceDefinition document in the seed), or fix apiVersion/kind.");
      assertThat(cluster.client().configMaps().withName("would-be-created").get())
          .as("the valid document before the bad one was not created").isNull();
    }
  }

  @Test
  void incompleteObject_and_missingNamespace_and_duplicates() {
    assertThatThrownBy(() -> FakeCluster.builder().withClasspathResources("seed/incomplete.yaml").build())
        .isInstanceOf(FakeClusterException.class)
        .hasMessage("Cannot seed the fake cluster: classpath resource \"seed/incomplete.yaml\", document 1 "
            + "(<no kind> no-kind) has no kind. Every object needs apiVersion, kind and metadata.name (or "
            + "metadata.generateName).");
    ConfigMap elsewhere = configMap("x", Map.of());
    elsewhere.getMetadata().setNamespace("team-b");
    assertThatThrownBy(() -> FakeCluster.builder().withObjects(elsewhere).build())
        .isInstanceOf(FakeClusterException.class)
        .hasMessage("Cannot seed the fake cluster: withObjects(..), object 1 (ConfigMap team-b/x): namespace "
            + "\"team-b\" does not exist. Add a Namespace named team-b to the seed, or create it first.");
    assertThatThrownBy(() -> FakeCluster.builder().withObjects(configMap("x", Map.of()), configMap("x", Map.of()))
        .build())
        .isInstanceOf(FakeClusterException.class)
        .hasMessage("Cannot seed the fake cluster: withObjects(..), object 2 (ConfigMap default/x) is also defined "
            + "by withObjects(..), object 1. Remove one of them.");
  }

  @Test
  void builder_misuse_failsAtOnce() {
    FakeCluster.Builder builder = FakeCluster.builder();
    try (FakeCluster built = builder.build()) {
      assertThat(built.port()).isPositive();
      assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
          .hasMessage("FakeCluster.Builder.build() was already called; a builder makes one cluster. Use a new "
              + "FakeCluster.builder() for another.");
    }
    assertThatThrownBy(() -> FakeCluster.builder().withPort(70_000)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("port must be between 0 (a free port) and 65535, was 70000");
    assertThatThrownBy(() -> FakeCluster.builder().withWatchHistoryLimit(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("watch history limit must be at least 1 event, was 0");
  }

  @Test
  void seedingRacingAConcurrentWriter_isAllOrNothing() throws Exception {
    try (FakeCluster cluster = FakeCluster.start()) {
      for (int round = 0; round < 200; round++) {
        String a = "a-" + round;
        String b = "b-" + round;
        Path file = dir.resolve("race-" + round + ".yaml");
        Files.writeString(file, """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: %s, namespace: default}
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: %s, namespace: default}
            """.formatted(a, b));
        java.util.concurrent.CyclicBarrier go = new java.util.concurrent.CyclicBarrier(2);
        java.util.concurrent.CompletableFuture<Boolean> writer = java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              await(go);
              try {
                cluster.create(configMap(b, Map.of("by", "writer")));
                return true;
              } catch (FakeClusterException e) {
                return false;
              }
            });
        await(go);
        boolean seeded;
        try {
          cluster.load(file);
          seeded = true;
        } catch (FakeClusterException e) {
          seeded = false;
        }
        boolean written = writer.get(10, java.util.concurrent.TimeUnit.SECONDS);
        boolean aExists = cluster.client().configMaps().withName(a).get() != null;
        assertThat(seeded ^ written).as("round %d: exactly one of the seed and the writer wins", round).isTrue();
        assertThat(aExists).as("round %d: %s exists exactly when the seed succeeded (no half-applied seed)", round, a)
            .isEqualTo(seeded);
      }
    }
  }

  private static void await(java.util.concurrent.CyclicBarrier barrier) {
    try {
      barrier.await(10, java.util.concurrent.TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("the racing threads did not start together", e);
    }
  }
}
