package dev.ctk.junit;

import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.TestScope;
import dev.ctk.harness.internal.FakeTestCluster;
import dev.ctk.harness.internal.perturb.PerturbationTracker;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A fresh fake cluster and a test harness on it for each test, and a perturbation tracker slot, closed after the
 * test in reverse order: the fixture of the tracker and restartable-controller tests.
 */
abstract class FakeHarnessFixture {

  FakeCluster cluster;
  KubernetesClient client;
  ControllerHarness harness;
  /** Set by a test that attaches one; closed first. */
  PerturbationTracker tracker;

  @BeforeEach
  void startCluster() {
    cluster = FakeCluster.start();
    client = cluster.client();
    harness = TestScope.owning(new FakeTestCluster(cluster)).harness();
  }

  @AfterEach
  void closeCluster() {
    if (tracker != null) {
      tracker.close();
    }
    harness.close();
    cluster.close();
  }
}
