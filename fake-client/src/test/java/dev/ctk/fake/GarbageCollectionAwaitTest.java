package dev.ctk.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.controller.VirtualTime;
import dev.ctk.fake.testing.RawApi;
import dev.ctk.fake.values.AdmissionDecision;
import dev.ctk.fake.values.AdmissionRequest;
import dev.ctk.fake.values.FakeClusterException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link FakeCluster#awaitGarbageCollection}: the collector works after the request is answered, on the cluster's
 * own thread; the wait returns once it settled, follows the time source (the namespace controller's grace period is
 * awaited on real time, not on virtual time), and says what is still pending when it times out.
 */
class GarbageCollectionAwaitTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

  private FakeCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theCollectorDeletes_onTheClustersGcThread() {
    List<String> threads = new CopyOnWriteArrayList<>();
    cluster = FakeCluster.builder().withValidatingAdmission("watch.example.com", request -> {
      if (request.operation() == AdmissionRequest.Operation.DELETE) {
        threads.add(request.name() + " on " + Thread.currentThread().getName());
      }
      return AdmissionDecision.allow();
    }).build();
    RawApi api = new RawApi(cluster.url());
    String ownerUid = api.post(CONFIGMAPS, configMap("owner", "")).json().path("metadata").path("uid").asText();
    api.post(CONFIGMAPS, configMap("dependent", ownerUid));

    api.delete(CONFIGMAPS + "/owner");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(threads).hasSize(2).last().isEqualTo("dependent on " + cluster.server().name() + "-gc");
    assertThat(threads.get(0)).startsWith("owner on ").doesNotEndWith("-gc");
    assertThat(api.get(CONFIGMAPS + "/dependent").code()).isEqualTo(404);
  }

  @Test
  void await_returnsAtOnce_whenThereIsNothingToDo() {
    cluster = FakeCluster.start();

    cluster.awaitGarbageCollection(Duration.ZERO);
  }

  @Test
  void await_timesOut_sayingWhatRuns_andWhatWaitsForTheVirtualClock() throws InterruptedException {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    VirtualTime time = VirtualTime.startingAt(Instant.parse("2030-01-01T00:00:00Z"));
    cluster = FakeCluster.builder().withTimeSource(time).withValidatingAdmission("hold.example.com", request -> {
      if (request.operation() == AdmissionRequest.Operation.DELETE && request.name().equals("dependent")) {
        entered.countDown();
        awaitQuietly(release);
      }
      return AdmissionDecision.allow();
    }).build();
    RawApi api = new RawApi(cluster.url());
    api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"scratch\"}}");
    api.delete("/api/v1/namespaces/scratch");
    String ownerUid = api.post(CONFIGMAPS, configMap("owner", "")).json().path("metadata").path("uid").asText();
    api.post(CONFIGMAPS, configMap("dependent", ownerUid));
    // the collector checks the new dependent's owners first: done before the owner goes, so that the owner's delete
    // is what deletes the dependent
    cluster.awaitGarbageCollection(WAIT);
    api.delete(CONFIGMAPS + "/owner");
    assertThat(entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the collector deletes the dependent").isTrue();

    try {
      assertThatThrownBy(() -> cluster.awaitGarbageCollection(Duration.ofMillis(200)))
          .isInstanceOf(FakeClusterException.class)
          .hasMessage("Expecting the garbage collector of FakeCluster " + cluster.server().name() + "\n"
              + "  to settle within 200ms\n"
              + "but it still had 1 work item:\n"
              + "  running: collect the dependents of ConfigMap default/owner (deleted)\n"
              + "and, not awaited (they wait for the cluster's virtual clock to move):\n"
              + "  waiting: empty and remove namespace scratch (5s after its delete at 2030-01-01T00:00:00Z, "
              + "the namespace controller's grace period)\n"
              + "Fix: an item that stays running is blocked, most often by an admission hook that waits or calls "
              + "the cluster's API (hooks also see the collector's writes, on its thread, under the store lock); "
              + "otherwise raise the timeout, or shorten the namespace controller's grace period with "
              + "FakeCluster.Builder.withNamespaceDeletionGracePeriod(..).");
    } finally {
      release.countDown();
    }
    cluster.awaitGarbageCollection(WAIT);
    assertThat(api.get(CONFIGMAPS + "/dependent").code()).isEqualTo(404);
    assertThat(api.get("/api/v1/namespaces/scratch").json().path("status").path("phase").asText())
        .isEqualTo("Terminating");
  }

  @Test
  void onSystemTime_awaitWaitsForTheNamespaceControllersGracePeriod() {
    cluster = FakeCluster.builder().withNamespaceDeletionGracePeriod(Duration.ofMillis(300)).build();
    RawApi api = new RawApi(cluster.url());
    api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"scratch\"}}");

    assertThat(api.delete("/api/v1/namespaces/scratch").json().path("status").path("phase").asText())
        .isEqualTo("Terminating");
    cluster.awaitGarbageCollection(WAIT);

    assertThat(api.get("/api/v1/namespaces/scratch").code()).isEqualTo(404);
  }

  @Test
  void await_withGarbageCollectionOff_isRefused() {
    cluster = FakeCluster.builder().withGarbageCollection(false).build();

    assertThatThrownBy(() -> cluster.awaitGarbageCollection(WAIT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("FakeCluster " + cluster.server().name() + " runs no garbage collector "
            + "(withGarbageCollection(GarbageCollection.OFF), or withGarbageCollection(false)), so there is nothing to "
            + "await: dependents of deleted owners and the content of deleted namespaces stay, as on a bare "
            + "kube-apiserver. Remove the call, or build the cluster with garbage collection.");
  }

  @Test
  void await_onAClosedCluster_isRefused() {
    cluster = FakeCluster.start();
    String url = cluster.url();
    cluster.close();

    assertThatThrownBy(() -> cluster.awaitGarbageCollection(WAIT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("FakeCluster at " + url + " is closed; awaitGarbageCollection(..) needs a running cluster. "
            + "Build a new one with FakeCluster.builder()...build().");
  }

  @Test
  void negativeGracePeriod_isRefused() {
    assertThatThrownBy(() -> FakeCluster.builder().withNamespaceDeletionGracePeriod(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("namespace deletion grace period must be zero or more, was PT-1S. Use Duration.ZERO to start "
            + "emptying a deleted namespace at once, or leave kube's 5 seconds.");
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String configMap(String name, String ownerUid) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\""
        + (ownerUid.isEmpty() ? "" : ",\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
            + "\"name\":\"owner\",\"uid\":\"" + ownerUid + "\"}]") + "}}";
  }
}
