package dev.ctk.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventPredicateTest {

  private static final ConfigMap BASE = new ConfigMapBuilder()
      .withNewMetadata()
      .withNamespace("default")
      .withName("web")
      .withGeneration(1L)
      .withResourceVersion("10")
      .withLabels(Map.of("app", "web"))
      .withAnnotations(Map.of("note", "a"))
      .endMetadata()
      .build();

  @Test
  void generationChanged_passes_only_updates_that_change_the_generation() {
    EventPredicate<ConfigMap> predicate = EventPredicate.generationChanged();

    assertThat(predicate.onUpdate(BASE, edit(BASE).editMetadata().withGeneration(2L)
        .withResourceVersion("11").endMetadata().build())).isTrue();
    assertThat(predicate.onUpdate(BASE, edit(BASE).editMetadata().withResourceVersion("11")
        .addToLabels("tier", "front").endMetadata().build())).isFalse();
    assertThat(predicate.onAdd(BASE)).isTrue();
    assertThat(predicate.onDelete(BASE)).isTrue();
  }

  @Test
  void labelsChanged_passes_only_updates_that_change_labels() {
    EventPredicate<ConfigMap> predicate = EventPredicate.labelsChanged();

    assertThat(predicate.onUpdate(BASE, edit(BASE).editMetadata().addToLabels("tier", "front")
        .endMetadata().build())).isTrue();
    assertThat(predicate.onUpdate(BASE, edit(BASE).editMetadata().withGeneration(2L)
        .endMetadata().build())).isFalse();
  }

  @Test
  void annotationsChanged_passes_only_updates_that_change_annotations() {
    EventPredicate<ConfigMap> predicate = EventPredicate.annotationsChanged();

    assertThat(predicate.onUpdate(BASE, edit(BASE).editMetadata().withAnnotations(Map.of())
        .endMetadata().build())).isTrue();
    assertThat(predicate.onUpdate(BASE, edit(BASE).editMetadata().addToLabels("tier", "front")
        .endMetadata().build())).isFalse();
  }

  @Test
  void resourceVersionChanged_drops_resync_updates() {
    EventPredicate<ConfigMap> predicate = EventPredicate.resourceVersionChanged();

    assertThat(predicate.onUpdate(BASE, BASE)).as("a resync").isFalse();
    assertThat(predicate.onUpdate(BASE, edit(BASE).editMetadata().withResourceVersion("11")
        .endMetadata().build())).isTrue();
  }

  @Test
  void labelSelector_passes_objects_that_carry_every_label() {
    EventPredicate<ConfigMap> predicate = EventPredicate.labelSelector(Map.of("app", "web"));
    ConfigMap other = edit(BASE).editMetadata().withLabels(Map.of("app", "api")).endMetadata()
        .build();
    ConfigMap unlabelled = edit(BASE).editMetadata().withLabels(null).endMetadata().build();

    assertThat(predicate.onAdd(BASE)).isTrue();
    assertThat(predicate.onAdd(other)).isFalse();
    assertThat(predicate.onAdd(unlabelled)).isFalse();
    assertThat(predicate.onDelete(other)).isFalse();
    assertThat(predicate.onUpdate(BASE, other)).as("the object leaves the selection").isTrue();
    assertThat(predicate.onUpdate(other, unlabelled)).isFalse();
  }

  @Test
  void predicates_combine_with_and_or_not() {
    EventPredicate<ConfigMap> generation = EventPredicate.generationChanged();
    EventPredicate<ConfigMap> labels = EventPredicate.labelsChanged();
    ConfigMap relabelled = edit(BASE).editMetadata().addToLabels("tier", "front").endMetadata()
        .build();
    ConfigMap both = edit(relabelled).editMetadata().withGeneration(2L).endMetadata().build();

    assertThat(generation.or(labels).onUpdate(BASE, relabelled)).isTrue();
    assertThat(generation.and(labels).onUpdate(BASE, relabelled)).isFalse();
    assertThat(generation.and(labels).onUpdate(BASE, both)).isTrue();
    assertThat(EventPredicate.not(generation).onUpdate(BASE, relabelled)).isTrue();
    assertThat(EventPredicate.not(generation).onAdd(BASE)).isFalse();
    assertThat(generation.or(labels).onUpdate(BASE, BASE)).isFalse();
  }

  private static ConfigMapBuilder edit(ConfigMap configMap) {
    return new ConfigMapBuilder(configMap);
  }
}
