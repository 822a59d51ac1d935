package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ctk.fake.testing.Fixtures;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.testing.RawApi.Reply;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code dryRun=All} on every write verb, and bodies whose name or namespace disagree with the URL. */
class DryRunAndUrlTest {

  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
  private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";

  private FakeCluster cluster;
  private RawApi api;

  @BeforeEach
  void start() {
    cluster = FakeCluster.builder().withClock(Fixtures.FIXED_CLOCK).build();
    api = new RawApi(cluster.url());
    api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"web\",\"finalizers\":[\"ctk.dev/hold\"]},\"data\":{\"k\":\"v\"}}");
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void dryRunCreate_defaultsAndValidates_butStoresNothing() {
    String rv = cluster.resourceVersion();

    Reply ok = api.post(DEPLOYMENTS + "?dryRun=All", """
        {"metadata":{"name":"dry"},"spec":{"selector":{"matchLabels":{"app":"a"}},
         "template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"m","image":"nginx"}]}}}}""");
    Reply invalid = api.post(DEPLOYMENTS + "?dryRun=All", "{\"metadata\":{\"name\":\"bad\"},\"spec\":{}}");

    assertThat(ok.code()).isEqualTo(201);
    assertThat(ok.json().path("spec").path("replicas").asInt()).isEqualTo(1);
    assertThat(ok.json().path("metadata").has("resourceVersion")).isFalse();
    assertThat(invalid.code()).isEqualTo(422);
    assertThat(invalid.json().path("message").asText()).isEqualTo("Deployment.apps \"bad\" is invalid: ["
        + "spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string(nil): "
        + "`selector` does not match template `labels`, spec.template.spec.containers: Required value]");
    assertThat(api.get(DEPLOYMENTS + "/dry").code()).isEqualTo(404);
    assertThat(cluster.resourceVersion()).isEqualTo(rv);
  }

  @Test
  void dryRunUpdatePatchDelete_answerAsIfDone_withoutResourceVersionBumpOrWatchEvent() {
    List<String> events = new CopyOnWriteArrayList<>();
    String rv = cluster.resourceVersion();
    try (Watch watch = cluster.client().configMaps().inNamespace("default").withResourceVersion(rv)
        .watch(new Watcher<ConfigMap>() {
          @Override
          public void eventReceived(Action action, ConfigMap resource) {
            events.add(action + " " + resource.getData());
          }

          @Override
          public void onClose(WatcherException cause) {
            // nothing to release
          }
        })) {
      Reply put = api.put(CONFIGMAPS + "/web?dryRun=All", "{\"metadata\":{\"name\":\"web\",\"resourceVersion\":\""
          + rv + "\",\"finalizers\":[\"ctk.dev/hold\"]},\"data\":{\"k\":\"put\"}}");
      Reply patch = api.patch(CONFIGMAPS + "/web?dryRun=All", "application/merge-patch+json",
          "{\"data\":{\"k\":\"patched\"}}");
      Reply delete = api.delete(CONFIGMAPS + "/web?dryRun=All");
      Reply stale = api.put(CONFIGMAPS + "/web?dryRun=All",
          "{\"metadata\":{\"name\":\"web\",\"resourceVersion\":\"1\"},\"data\":{\"k\":\"x\"}}");

      assertThat(put.code()).isEqualTo(200);
      assertThat(put.json().path("data").path("k").asText()).isEqualTo("put");
      assertThat(put.json().path("metadata").path("resourceVersion").asText()).isEqualTo(rv);
      assertThat(patch.json().path("data").path("k").asText()).isEqualTo("patched");
      assertThat(delete.code()).isEqualTo(200);
      assertThat(delete.json().path("metadata").path("deletionTimestamp").asText()).isEqualTo("2025-03-01T12:00:00Z");
      assertThat(stale.code()).isEqualTo(409);
      assertThat(cluster.resourceVersion()).isEqualTo(rv);
      Reply stored = api.get(CONFIGMAPS + "/web");
      assertThat(stored.json().path("data").path("k").asText()).isEqualTo("v");
      assertThat(stored.json().path("metadata").has("deletionTimestamp")).isFalse();

      api.patch(CONFIGMAPS + "/web", "application/merge-patch+json", "{\"data\":{\"k\":\"real\"}}");
      await().atMost(Duration.ofSeconds(10)).alias("the real patch's MODIFIED event").until(() -> !events.isEmpty());
      assertThat(events).containsExactly("MODIFIED {k=real}");
      watch.close();
    }
  }

  @Test
  void bodyNameOrNamespaceDisagreeingWithUrl_isBadRequest_forUpdateAndPatch() {
    Reply wrongNamespace = api.put(CONFIGMAPS + "/web",
        "{\"metadata\":{\"name\":\"web\",\"namespace\":\"kube-system\"}}");
    Reply patchedName = api.patch(CONFIGMAPS + "/web", "application/merge-patch+json",
        "{\"metadata\":{\"name\":\"other\"}}");

    assertThat(wrongNamespace.code()).isEqualTo(400);
    assertThat(wrongNamespace.json().path("message").asText())
        .isEqualTo("the namespace of the provided object does not match the namespace sent on the request");
    assertThat(wrongNamespace.json().path("reason").asText()).isEqualTo("BadRequest");
    assertThat(patchedName.code()).isEqualTo(400);
    assertThat(patchedName.json().path("message").asText())
        .isEqualTo("the name of the object (other) does not match the name on the URL (web)");
  }
}
