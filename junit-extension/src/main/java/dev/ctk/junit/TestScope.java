package dev.ctk.junit;

/**
 * What one test method, or one class of a per-class scope, holds: a {@link TestCluster} (a fake
 * cluster or a namespace on a real server; owned, or borrowed from the enclosing class scope) and a
 * {@link ControllerHarness} whose parent is the enclosing scope's harness. Stored in the store of
 * its own JUnit context, which closes it when that test (or class) ends: first the harness's
 * controllers, then an owned cluster. A borrowed cluster stays open for the scope that owns it.
 */
final class TestScope implements AutoCloseable {

  private final TestCluster cluster;
  private final boolean ownsCluster;
  private final ControllerHarness harness;
  private final TimelineRecorder timeline;

  private TestScope(TestCluster cluster, boolean ownsCluster, TestScope enclosing) {
    this.cluster = cluster;
    this.ownsCluster = ownsCluster;
    this.harness = new ControllerHarness(cluster, enclosing == null ? null : enclosing.harness);
    this.timeline = new TimelineRecorder(cluster, enclosing == null ? null : enclosing.timeline);
    harness.onStart(timeline::attach);
  }

  /** A scope that owns a new cluster and closes it after its controllers. */
  static TestScope owning(TestCluster cluster) {
    return new TestScope(cluster, true, null);
  }

  /** A scope inside {@code enclosing}: same cluster, its own harness listing the enclosing one's. */
  static TestScope borrowing(TestScope enclosing) {
    return new TestScope(enclosing.cluster, false, enclosing);
  }

  TestCluster cluster() {
    return cluster;
  }

  ControllerHarness harness() {
    return harness;
  }

  /** What this scope records for its failure timeline. */
  TimelineRecorder timeline() {
    return timeline;
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    try {
      harness.close();
    } catch (RuntimeException e) {
      failure = e;
    }
    if (ownsCluster) {
      try {
        cluster.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
