package dev.ctk.fake.values;

/**
 * Whether, and how, a {@link dev.ctk.fake.FakeCluster} does what kube-controller-manager does about deletions and owner
 * references: the ownerReference garbage collector and the namespace controller. Chosen with
 * {@link dev.ctk.fake.FakeCluster.Builder#withGarbageCollection(GarbageCollection)}.
 *
 * <pre>{@code
 * try (FakeCluster cluster = FakeCluster.builder().build()) {          // ASYNCHRONOUS, as a real cluster
 *   client.apps().deployments().withName("web").delete();              // answered first, collected afterwards
 *   cluster.awaitGarbageCollection(Duration.ofSeconds(5));             // its ReplicaSets and Pods are gone now
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public enum GarbageCollection {

  /**
   * The default, as in a cluster: the collector works on its own thread ({@code ctk-fake-<n>-gc}) after the request
   * that gave it work was answered. A deleted owner's dependents go shortly after it; an object created with an
   * ownerReference to an owner that does not exist (no object of that kind, namespace and name with that uid) is
   * deleted; a deleted Namespace answers and stays {@code Terminating}, and the namespace controller empties and
   * removes it after kube's grace period ({@link dev.ctk.fake.FakeCluster.Builder#withNamespaceDeletionGracePeriod}, 5 seconds on
   * the cluster's time source). Tests wait with {@link dev.ctk.fake.FakeCluster#awaitGarbageCollection}.
   */
  ASYNCHRONOUS,

  /**
   * The fake's earlier behaviour, for tests written against it: all of the above happens on the thread of the
   * request, before it is answered, and the namespace controller does not wait (a deleted Namespace that nothing
   * holds is gone when its DELETE returns, though the answer says Terminating). No real cluster behaves so; prefer
   * {@link #ASYNCHRONOUS} with {@link dev.ctk.fake.FakeCluster#awaitGarbageCollection}.
   */
  SYNCHRONOUS,

  /**
   * A bare kube-apiserver (envtest): nothing is collected. Dependents stay, an owner deleted with Foreground or
   * Orphan keeps its {@code foregroundDeletion} or {@code orphan} finalizer, and a deleted namespace stays
   * Terminating with its content.
   */
  OFF
}
