package dev.ctk.examples.docs;

import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.fake.ApiFault;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.FaultRule;
import dev.ctk.fake.values.RequestPattern;
import dev.ctk.junit.ControllerTest;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The three forms of an API fault rule that docs/faults-and-time.md shows, each checked against what it answers. */
@ControllerTest
class FaultRulesExampleTest {

  @Test
  void each_rule_answers_the_requests_it_matches(KubernetesClient client, FakeCluster cluster) {
    // GIVEN
    // region:rules
    cluster.faults().when(RequestPattern.verbs("update", "patch").kind("Service").named("default", "web"))
        .once().answer(ApiFault.conflict());              // 409, kube's own Status message
    cluster.faults().when(RequestPattern.create("Service")).onCall(2).times(3)
        .answer(ApiFault.tooManyRequests(ofSeconds(1))); // 429 + Retry-After: 1, on calls 2, 3 and 4
    FaultRule drops = cluster.faults().when(RequestPattern.list("ConfigMap")).withProbability(0.2).withSeed(7)
        .answer(ApiFault.dropConnection());
    // endregion:rules

    // WHEN five Services are created, one after the other
    List<Integer> answers = new ArrayList<>();
    for (String name : List.of("web", "api", "admin", "docs", "shop")) {
      KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
          () -> client.resource(service(name)).create());
      answers.add(refused == null ? 201 : refused.getCode());
      if (refused != null) {
        assertThat(refused.getStatus().getDetails().getRetryAfterSeconds()).isEqualTo(1);
      }
    }
    // THEN calls 2, 3 and 4 were answered 429
    assertThat(answers).containsExactly(201, 429, 429, 429, 201);

    // WHEN Service web is labelled twice
    KubernetesClientException conflict = catchThrowableOfType(KubernetesClientException.class,
        () -> label(client, "web", "first"));
    Service labelled = label(client, "web", "second");
    // THEN the first edit got 409 Conflict, the second went through
    assertThat(conflict.getCode()).isEqualTo(409);
    assertThat(labelled.getMetadata().getLabels()).containsEntry("edit", "second");

    // WHEN ConfigMaps are listed 50 times
    int dropped = 0;
    for (int i = 0; i < 50; i++) {
      try {
        client.configMaps().list();
      } catch (KubernetesClientException e) {
        dropped++;
      }
    }
    // THEN some lists lost their connection, each one a firing of the seeded rule
    assertThat(dropped).isBetween(1, 49).isEqualTo((int) drops.fired());
  }

  private static Service label(KubernetesClient client, String name, String value) {
    return client.services().withName(name).edit(s -> {
      s.getMetadata().setLabels(Map.of("edit", value));
      return s;
    });
  }

  private static Service service(String name) {
    return new ServiceBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().addToSelector("app", name).addNewPort().withPort(80).endPort().endSpec()
        .build();
  }
}
