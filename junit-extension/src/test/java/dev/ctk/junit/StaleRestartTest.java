package dev.ctk.junit;

import static dev.ctk.junit.PerturbationTrackerTest.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.controller.Controller;
import dev.ctk.controller.Result;
import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.RequestPattern;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.TestScope;
import dev.ctk.harness.internal.FakeTestCluster;
import dev.ctk.harness.internal.perturb.StaleRestart;
import dev.ctk.harness.values.ControllerInstance;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link StaleRestart}: only the fresh instance's first LISTs, sent from the thread that starts it, are served
 * stale, and it takes effect only if one was.
 */
class StaleRestartTest {

  private FakeCluster cluster;
  private KubernetesClient client;
  private ControllerHarness harness;
  private final List<String> lines = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startCluster() {
    cluster = FakeCluster.builder().withWatchHistoryLimit(3).build();
    client = cluster.client();
    harness = TestScope.owning(new FakeTestCluster(cluster)).harness();
  }

  @AfterEach
  void closeCluster() {
    harness.close();
    cluster.close();
  }

  @Test
  void should_serve_stale_only_the_lists_sent_while_the_fresh_instance_starts_on_its_thread() {
    // GIVEN web with k=v, then changed to k=v2
    client.configMaps().resource(configMap("web")).create();
    String old = cluster.resourceVersion();
    client.configMaps().withName("web").edit(cm -> withData(cm, "v2"));
    StaleRestart stale = new StaleRestart(cluster, "ConfigMap", lines::add, (quiet, bound) -> true);
    Controller fresh = RestartableControllerTest.configMapController(client, "fresh", Result.done());
    // WHEN the stale list is installed, another thread lists, then the fresh instance starts on this one
    stale.prepare(new ControllerInstance(fresh.name(), 2, fresh, null), old);
    List<ConfigMap> otherThread = CompletableFuture.supplyAsync(() -> client.configMaps().list().getItems()).join();
    harness.start(fresh);
    stale.started();
    List<ConfigMap> afterStart = client.configMaps().list().getItems();
    // THEN
    assertThat(otherThread).extracting(cm -> cm.getData().get("k")).containsExactly("v2");
    assertThat(fresh.informers().get(0).getStore().getByKey("default/web")).extracting(cm -> ((ConfigMap) cm)
        .getData().get("k")).isEqualTo("v");
    assertThat(afterStart).extracting(cm -> cm.getData().get("k")).containsExactly("v2");
    // the fresh informer's cache stays at k=v: the MODIFIED its watch replays from the old resourceVersion is held
    assertThat(cluster.requests().entries(RequestPattern.list("ConfigMap"))).extracting(ApiRequestRecord::fault)
        .containsExactly(null, "stale read at resourceVersion " + old, null);
    assertThat(stale.fired()).isTrue();
    assertThat(stale.notFiredReason()).isNull();
    assertThat(stale.note()).isEqualTo("which listed ConfigMap as of resourceVersion " + old + " (the controller's "
        + "first start), its ConfigMap watches held");
    assertThat(cluster.faults().rules()).isEmpty();
    stale.release("at the end of the test");
    assertThat(PerturbationTrackerTest.withoutTimes(lines))
        .containsExactly("released 1 held ConfigMap watch event in order at the end of the test");
    assertThat(cluster.watchFaults().rulesInForce()).isEmpty();
  }

  @Test
  void should_not_fire_when_the_stale_list_was_answered_410_because_the_history_no_longer_reaches_back() {
    // GIVEN more changes since the first start than the watch history keeps (3)
    client.configMaps().resource(configMap("web")).create();
    String old = cluster.resourceVersion();
    for (String value : List.of("1", "2", "3", "4")) {
      client.configMaps().withName("web").edit(cm -> withData(cm, value));
    }
    StaleRestart stale = new StaleRestart(cluster, "ConfigMap", lines::add, (quiet, bound) -> true);
    stale.prepare(instance(RestartableControllerTest.configMapController(client, "fresh", Result.done())), old);
    // WHEN this thread (the starting one) lists
    KubernetesClientException error = catchThrowableOfType(KubernetesClientException.class,
        () -> client.configMaps().list());
    stale.started();
    // THEN
    assertThat(error.getCode()).isEqualTo(410);
    assertThat(stale.fired()).isFalse();
    assertThat(stale.notFiredReason()).isEqualTo("the stale list was never served: the LIST of ConfigMap as of "
        + "resourceVersion " + old + " was answered 410");
    stale.release("at the end of the test");
  }

  @Test
  void should_not_fire_when_the_fresh_instance_does_not_watch_the_kind() {
    // GIVEN
    StaleRestart stale = new StaleRestart(cluster, "Secret", lines::add, (quiet, bound) -> true);
    // WHEN
    stale.prepare(instance(RestartableControllerTest.configMapController(client, "fresh", Result.done())), "1");
    stale.started();
    stale.release("at the end of the test");
    // THEN nothing was installed, nothing logged
    assertThat(stale.notFiredReason()).isEqualTo("the fresh instance does not watch Secret");
    assertThat(stale.note()).isNull();
    assertThat(cluster.faults().rules()).isEmpty();
    assertThat(lines).isEmpty();
  }

  @Test
  void should_not_fire_when_the_fresh_instance_never_started() {
    StaleRestart stale = new StaleRestart(cluster, "ConfigMap", lines::add, (quiet, bound) -> true);
    stale.release("after the failed restart");
    assertThat(stale.notFiredReason())
        .isEqualTo("the fresh instance never started (the restart failed or the test ended first)");
  }

  private static ConfigMap withData(ConfigMap cm, String value) {
    cm.setData(Map.of("k", value));
    return cm;
  }

  private static ControllerInstance instance(Controller fresh) {
    return new ControllerInstance(fresh.name(), 2, fresh, null);
  }
}
