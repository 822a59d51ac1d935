package com.example.quickstart;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.controller.Controller;
import dev.ctk.fake.EventInjector;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

@ControllerTest // a fresh fake API server per test; real fabric8 informers; parameters injected by type
class GreetingControllerTest {

  @Test
  void greets_a_labelled_config_map(KubernetesClient client, ControllerHarness harness) {
    Controller controller = harness.start(GreetingController.create(client));

    client.resource(configMap("alice", "true")).create();

    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/alice").isIdle();
    assertThat(client.configMaps().withName("alice").get().getData()).containsEntry("greeting", "Hello, Alice!");
  }

  @Test
  void leaves_other_config_maps_alone(KubernetesClient client, ControllerHarness harness) {
    Controller controller = harness.start(GreetingController.create(client));

    client.resource(configMap("bob", "false")).create();

    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/bob").isIdle();
    assertThat(client.configMaps().withName("bob").get().getData()).doesNotContainKey("greeting");
  }

  @Test
  void an_object_already_in_the_cluster_is_greeted_at_start(EventInjector events, ControllerHarness harness) {
    events.add(configMap("carol", "true")); // stored before the controller starts, as after a restart

    Controller controller = harness.start(GreetingController.create(harness.client()));

    assertThat(controller).within(ofSeconds(5)).hasReconciledSuccessfully("default/carol").isIdle();
    assertThat(harness.client().configMaps().withName("carol").get().getData())
        .containsEntry("greeting", "Hello, Carol!");
  }

  private static ConfigMap configMap(String name, String greet) {
    return new ConfigMapBuilder()
        .withNewMetadata().withName(name).withNamespace("default").withLabels(Map.of("greet", greet)).endMetadata()
        .withData(Map.of("name", Character.toUpperCase(name.charAt(0)) + name.substring(1)))
        .build();
  }
}
