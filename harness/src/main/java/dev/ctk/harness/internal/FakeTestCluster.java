package dev.ctk.harness.internal;

import dev.ctk.controller.TimeSource;
import dev.ctk.controller.VirtualTime;
import dev.ctk.envtest.ApiServer;
import dev.ctk.fake.EventInjector;
import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.values.Mode;
import dev.ctk.harness.values.TestCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * Fake mode: a {@link FakeCluster} of the scope's own, closed with it; namespace {@code default}. With
 * virtual time, the cluster was built on the virtual time source, so its timestamps and its namespace
 * controller's grace period follow it.
 */
public final class FakeTestCluster implements TestCluster {

  private final FakeCluster cluster;
  private final VirtualTime virtualTime;

  /** A cluster on real time. */
  public FakeTestCluster(FakeCluster cluster) {
    this(cluster, null);
  }

  /**
   * A cluster whose scope runs on {@code virtualTime} ({@code null}: real time).
   *
   * @param cluster the cluster, built with {@code withTimeSource(virtualTime)} when virtual
   * @param virtualTime the scope's virtual time, or {@code null}
   */
  public FakeTestCluster(FakeCluster cluster, VirtualTime virtualTime) {
    this.cluster = cluster;
    this.virtualTime = virtualTime;
  }

  @Override
  public TimeSource time() {
    return virtualTime == null ? TimeSource.system() : virtualTime;
  }

  @Override
  public Optional<VirtualTime> virtualTime() {
    return Optional.ofNullable(virtualTime);
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
