package dev.ctk.junit;

import dev.ctk.envtest.ApiServer;
import dev.ctk.fake.EventInjector;
import dev.ctk.fake.FakeCluster;
import dev.ctk.junit.ControllerTest.Mode;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/** Fake mode: a {@link FakeCluster} of the scope's own, closed with it; namespace {@code default}. */
final class FakeTestCluster implements TestCluster {

  private final FakeCluster cluster;

  FakeTestCluster(FakeCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public Mode mode() {
    return Mode.FAKE;
  }

  @Override
  public KubernetesClient client() {
    return cluster.client();
  }

  @Override
  public String namespace() {
    return "default";
  }

  @Override
  public String description() {
    return "ctk fake API server at " + cluster.url();
  }

  @Override
  public EventInjector events() {
    return cluster.events();
  }

  @Override
  public Optional<FakeCluster> fakeCluster() {
    return Optional.of(cluster);
  }

  @Override
  public Optional<ApiServer> apiServer() {
    return Optional.empty();
  }

  @Override
  public void close() {
    cluster.close();
  }
}
