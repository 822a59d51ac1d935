package dev.ctk.examples.handwritten;

import static dev.ctk.assertions.ControllerAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ctk.controller.ControllerProbe;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.RestartableProcess;
import dev.ctk.harness.values.ControllerProcess;
import dev.ctk.junit.AcrossModes;
import dev.ctk.junit.ControllerTest;
import dev.ctk.junit.Perturbed;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

/**
 * A controller that knows nothing of ctk, observed through a {@link ControllerProbe} that the test
 * attaches to its queue and its reconcile ({@link #observed}), then checked with the same assertions
 * as ctk's own controllers. One body, fake mode and a real kube-apiserver (envtest); Secrets go into
 * the test's namespace, which the controller watches.
 */
@ControllerTest
@AcrossModes
class RegistryCredentialsControllerTest {

  @Test
  void writes_an_image_pull_secret_for_labelled_credentials(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN
    Observed observed = observed(client, harness);
    observed.controller().start();
    // WHEN
    Secret source = client.resource(credentials("registry", "robot", "s3cret")).create();
    // THEN
    Secret dockerconfig = awaitSecret(client, "registry-dockerconfig");
    assertThat(dockerconfig.getType()).isEqualTo("kubernetes.io/dockerconfigjson");
    assertThat(decode(dockerconfig.getData().get(".dockerconfigjson"))).isEqualTo(
        "{\"auths\":{\"registry.example.com\":{\"username\":\"robot\",\"password\":\"s3cret\","
            + "\"auth\":\"cm9ib3Q6czNjcmV0\"}}}");
    assertThat(dockerconfig.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
      assertThat(owner.getKind()).isEqualTo("Secret");
      assertThat(owner.getName()).isEqualTo("registry");
      assertThat(owner.getUid()).isEqualTo(source.getMetadata().getUid());
      assertThat(owner.getController()).isTrue();
    });
    String key = harness.namespace() + "/registry";
    assertThat(observed.probe()).within(ofSeconds(5)).hasReconciledSuccessfully(key);
    assertThat(observed.probe()).hasSyncedCaches().hasReconcileCount(key, 1);
  }

  @Test
  void carries_a_new_password_over_then_has_nothing_left_to_do(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN
    Observed observed = observed(client, harness);
    observed.controller().start();
    client.resource(credentials("registry", "robot", "s3cret")).create();
    awaitSecret(client, "registry-dockerconfig");
    // WHEN
    client.secrets().withName("registry").edit(secret -> new SecretBuilder(secret)
        .addToData("password", encode("n3w-s3cret")).build());
    // THEN
    await("registry-dockerconfig to carry the new password").atMost(ofSeconds(5))
        .until(() -> decode(awaitSecret(client, "registry-dockerconfig").getData()
            .get(".dockerconfigjson")).contains("\"password\":\"n3w-s3cret\""));
    String key = harness.namespace() + "/registry";
    assertThat(observed.probe()).within(ofSeconds(5)).isIdle();
    assertThat(observed.probe()).workQueue().isEmpty().hasNoKeysInFlight();
    // one key put in the queue per event (create, update): two reconciles, both successful
    assertThat(observed.probe().workQueue().stats().adds()).isEqualTo(2);
    assertThat(observed.probe()).hasReconcileCount(key, 2).hasReconciledSuccessfully(key);
  }

  @Test
  void credentials_without_a_password_fail_to_reconcile_until_fixed(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN
    Observed observed = observed(client, harness);
    observed.controller().start();
    String key = harness.namespace() + "/registry";
    // WHEN
    client.resource(new SecretBuilder(credentials("registry", "robot", "s3cret"))
        .removeFromData("password").build()).create();
    // THEN
    assertThat(observed.probe()).within(ofSeconds(5))
        .hasFailedToReconcile(key, IllegalArgumentException.class)
        .hasFailedToReconcileWithMessageContaining(key, "lacks the data key \"password\"");
    assertThat(client.secrets().withName("registry-dockerconfig").get()).isNull();
    String error = "Secret " + key + " lacks the data key \"password\". "
        + "Give it the keys [server, username, password].";
    assertThatThrownBy(() -> assertThat(observed.probe()).hasReconciledSuccessfully(key))
        .hasMessage(String.join("\n",
            "",
            "Expecting controller \"registry-credentials\"",
            "  to have reconciled " + key + " successfully",
            "but its last reconcile failed:",
            "  ERROR IllegalArgumentException: " + error,
            "reconciles of " + key + ": 1 (oldest first)",
            "  1. ERROR IllegalArgumentException: " + error,
            "work queue: queued [], in flight [], waiting []"));

    // WHEN the password is added
    client.secrets().withName("registry").edit(secret -> new SecretBuilder(secret)
        .addToData("password", encode("s3cret")).build());
    // THEN
    assertThat(observed.probe()).within(ofSeconds(5)).hasReconciledSuccessfully(key);
    assertThat(awaitSecret(client, "registry-dockerconfig").getType())
        .isEqualTo("kubernetes.io/dockerconfigjson");
  }

  @Test
  void leaves_a_secret_it_does_not_control_alone(KubernetesClient client, ControllerHarness harness) {
    // GIVEN a Secret of the name the controller would write, made by someone else
    client.resource(new SecretBuilder()
        .withNewMetadata().withName("registry-dockerconfig").endMetadata()
        .withData(Map.of("note", encode("mine"))).build()).create();
    Observed observed = observed(client, harness);
    observed.controller().start();
    String key = harness.namespace() + "/registry";
    // WHEN
    client.resource(credentials("registry", "robot", "s3cret")).create();
    // THEN
    assertThat(observed.probe()).within(ofSeconds(5)).hasFailedToReconcileWithMessageContaining(key,
        "Secret " + harness.namespace() + "/registry-dockerconfig exists and is not controlled by "
            + "Secret " + key + ". Delete it, or rename Secret " + key + ".");
    assertThat(client.secrets().withName("registry-dockerconfig").get().getData())
        .isEqualTo(Map.of("note", encode("mine")));
  }

  @Test
  void deletes_the_image_pull_secret_with_its_credentials(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN
    Observed observed = observed(client, harness);
    observed.controller().start();
    client.resource(credentials("registry", "robot", "s3cret")).create();
    awaitSecret(client, "registry-dockerconfig");
    // WHEN
    client.secrets().withName("registry").delete();
    // THEN the controller deletes it itself (envtest has no garbage collector to follow the owner)
    await("Secret registry-dockerconfig deleted with Secret registry").atMost(ofSeconds(5))
        .until(() -> client.secrets().withName("registry-dockerconfig").get() == null);
    String key = harness.namespace() + "/registry";
    assertThat(observed.probe()).within(ofSeconds(5)).isIdle();
    assertThat(observed.probe()).hasReconcileCount(key, 2).hasReconciledSuccessfully(key);
  }

  @Test
  @Perturbed
  void writes_the_image_pull_secret_even_if_it_crashes_at_a_write(KubernetesClient client,
      ControllerHarness harness) {
    // GIVEN the controller started from a factory, so that a campaign can crash it and start a fresh one
    // region:restartable
    RestartableProcess process = harness.startProcess("registry-credentials", instance -> {
      ControllerProbe probe = ControllerProbe.builder("registry-credentials").withFailedKeysDropped().build();
      RegistryCredentialsController controller = new RegistryCredentialsController(
          instance.client(), harness.namespace(),                      // the instance's own client
          probe.observe(new LinkedBlockingQueue<>()),
          (key, reconcile) -> probe.reconcile(key, reconcile::run));
      probe.watch(controller.informer());
      controller.start();
      return ControllerProcess.of(List.of(probe), controller);        // its views, and what stops it
    });
    // endregion:restartable
    // WHEN
    client.resource(credentials("registry", "robot", "s3cret")).create();
    // THEN
    Secret dockerconfig = awaitSecret(client, "registry-dockerconfig");
    assertThat(decode(dockerconfig.getData().get(".dockerconfigjson"))).contains("\"username\":\"robot\"");
    assertThat(process.controller("registry-credentials")).within(ofSeconds(5)).isIdle();
  }

  @Test
  void reports_its_cache_unsynced_until_started(KubernetesClient client, ControllerHarness harness) {
    // GIVEN a controller observed but not started
    Observed observed = observed(client, harness);
    // THEN
    assertThatThrownBy(() -> assertThat(observed.probe()).hasSyncedCaches())
        .hasMessage(String.join("\n",
            "",
            "Expecting controller \"registry-credentials\"",
            "  to have synced its informer caches",
            "but 1 of 1 informer has not synced:",
            "  Secret informer: not synced (not running)"));
    // WHEN
    observed.controller().start();
    // THEN start() returned once the informer had listed and was watching
    assertThat(observed.probe()).hasSyncedCaches();
    assertThat(observed.controller().isRunning()).isTrue();
    assertThat(observed.probe()).workQueue().isEmpty();
  }

  /** The controller and the probe attached to it. */
  private record Observed(ControllerProbe probe, RegistryCredentialsController controller) {}

  /**
   * Builds the controller for the test's namespace with a probe on its queue and around its
   * reconcile: the two lines a test adds. The probe shows in the failure report; the controller is
   * closed after the test. Not started.
   */
  private static Observed observed(KubernetesClient client, ControllerHarness harness) {
    // region:probe
    ControllerProbe probe = harness.observe(ControllerProbe.builder("registry-credentials")
        .withFailedKeysDropped().build());                              // it retries on the next event only
    RegistryCredentialsController controller = harness.closeAfterTest(
        new RegistryCredentialsController(client, harness.namespace(),
            probe.observe(new LinkedBlockingQueue<>()),                   // 1: its queue
            (key, reconcile) -> probe.reconcile(key, reconcile::run)));    // 2: each reconcile
    probe.watch(controller.informer());
    // endregion:probe
    return new Observed(probe, controller);
  }

  /** Waits for a Secret in the client's namespace (the test's). */
  private static Secret awaitSecret(KubernetesClient client, String name) {
    return await("Secret " + client.getNamespace() + "/" + name + " to exist").atMost(ofSeconds(5))
        .until(() -> client.secrets().withName(name).get(), secret -> secret != null);
  }

  /** Registry credentials for registry.example.com, labelled for the controller. */
  private static Secret credentials(String name, String username, String password) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put("server", encode("registry.example.com"));
    data.put("username", encode(username));
    data.put("password", encode(password));
    return new SecretBuilder()
        .withNewMetadata()
          .withName(name)
          .withLabels(Map.of(RegistryCredentialsController.CREDENTIALS_LABEL, "true"))
        .endMetadata()
        .withType("Opaque")
        .withData(data)
        .build();
  }

  private static String encode(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
