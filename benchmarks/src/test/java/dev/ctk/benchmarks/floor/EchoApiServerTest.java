package dev.ctk.benchmarks.floor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

/** The metadata the echo server adds to created objects: spliced in as given, refused when it cannot be. */
class EchoApiServerTest {

  @Test
  void addedMetadata_isInTheCreatedObject() {
    try (EchoApiServer server = EchoApiServer.start()
        .answeringCreatesWithMetadata("\"uid\":\"u-1\",\"creationTimestamp\":\"2026-11-27T12:00:00Z\"");
        KubernetesClient client = server.newClient()) {
      ConfigMap created = client.configMaps().resource(new ConfigMapBuilder()
          .withNewMetadata().withName("one").endMetadata().addToData("k", "v").build()).create();

      assertThat(created.getMetadata().getUid()).isEqualTo("u-1");
      assertThat(created.getMetadata().getCreationTimestamp()).isEqualTo("2026-11-27T12:00:00Z");
      assertThat(created.getMetadata().getNamespace()).isEqualTo("default");
      assertThat(created.getMetadata().getResourceVersion()).isEqualTo("2");
      assertThat(created.getData()).containsEntry("k", "v");
    }
  }

  @Test
  void textThatIsNotObjectMembers_isRefused_quotingIt() {
    try (EchoApiServer server = EchoApiServer.start()) {
      assertThatThrownBy(() -> server.answeringCreatesWithMetadata("\"uid\":\"a\",")).hasMessage(
          "ctk echo server: the metadata fields to add to created objects ('\"uid\":\"a\",') are not JSON object "
              + "members: Unexpected character ('}' (code 125)): was expecting double-quote to start field name. "
              + "Give them without braces and without a leading or trailing comma, e.g. "
              + "\"uid\":\"1f0e\",\"creationTimestamp\":\"2026-11-27T12:00:00Z\"");
    }
  }

  @Test
  void trailingTokens_areRefused() {
    try (EchoApiServer server = EchoApiServer.start()) {
      assertThatThrownBy(() -> server.answeringCreatesWithMetadata("\"uid\":\"a\"},{\"x\":1"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("ctk echo server: the metadata fields to add to created objects "
              + "('\"uid\":\"a\"},{\"x\":1') are not JSON object members: ");
    }
  }

  @Test
  void noFields_areRefused() {
    try (EchoApiServer server = EchoApiServer.start()) {
      assertThatThrownBy(() -> server.answeringCreatesWithMetadata(" ")).hasMessage(
          "ctk echo server: no metadata fields given to add to created objects; leave answeringCreatesWithMetadata "
              + "out to echo them as sent");
    }
  }

  @Test
  void aFieldTheServerSets_isRefused() {
    try (EchoApiServer server = EchoApiServer.start()) {
      assertThatThrownBy(() -> server.answeringCreatesWithMetadata("\"uid\":\"a\",\"namespace\":\"x\"")).hasMessage(
          "ctk echo server: the metadata fields to add to created objects name namespace, which the server sets "
              + "itself (resourceVersion from a counter; namespace from the path when the body has none): leave it "
              + "out of '\"uid\":\"a\",\"namespace\":\"x\"'");
    }
  }

  @Test
  void aCreateWhoseBodyIsNoObject_is400_andUsesNoResourceVersion() {
    try (EchoApiServer server = EchoApiServer.start(); KubernetesClient client = server.newClient()) {
      assertThatThrownBy(() -> client.raw("/api/v1/namespaces/default/configmaps", "POST", "not json"))
          .isInstanceOf(KubernetesClientException.class)
          .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(400))
          .satisfies(e -> assertThat(((KubernetesClientException) e).getStatus().getMessage()).isEqualTo(
              "ctk echo server: a create's body must be the JSON object fabric8 sends (from '{' to '}'), was: "
                  + "'not json'"));

      ConfigMap created = client.configMaps().resource(new ConfigMapBuilder()
          .withNewMetadata().withName("one").endMetadata().build()).create();
      assertThat(created.getMetadata().getResourceVersion()).isEqualTo("2");
    }
  }

  @Test
  void anEmptyObject_isCreatedWithTheServersMetadata() {
    try (EchoApiServer server = EchoApiServer.start(); KubernetesClient client = server.newClient()) {
      String created = client.raw("/api/v1/namespaces/default/configmaps", "POST", java.util.Map.of());

      assertThat(created).isEqualTo("{\"metadata\":{\"resourceVersion\":\"2\",\"namespace\":\"default\"}}");
    }
  }
}
