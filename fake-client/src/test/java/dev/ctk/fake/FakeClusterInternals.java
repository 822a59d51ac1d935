package dev.ctk.fake;

import dev.ctk.fake.internal.http.RequestJournal;

/** Test-only access to a cluster's internals from other test packages. */
public final class FakeClusterInternals {

  private FakeClusterInternals() {}

  /** The requests the cluster answered. */
  public static RequestJournal journal(FakeCluster cluster) {
    return cluster.server().journal();
  }
}
