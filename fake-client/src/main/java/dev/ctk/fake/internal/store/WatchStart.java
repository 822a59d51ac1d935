package dev.ctk.fake.internal.store;

/**
 * Where a watch starts.
 *
 * @param resourceVersion replay changes after this resourceVersion; {@code null} to start with synthetic ADDED
 *     events for every current object (a watch without resourceVersion, or with {@code "0"})
 * @param sendInitialEvents end the initial ADDED events with a BOOKMARK annotated
 *     {@code k8s.io/initial-events-end: "true"} (the watch-list protocol)
 * @param fromNow start at the store's current resourceVersion, without initial events
 *     ({@code sendInitialEvents=false} with no resourceVersion or {@code "0"}, as kube's watch cache starts such a
 *     watch); {@code resourceVersion} is then {@code null}
 */
public record WatchStart(Long resourceVersion, boolean sendInitialEvents, boolean fromNow) {

  /**
   * A start from a resourceVersion, or with the initial state.
   *
   * @param resourceVersion replay changes after it; {@code null} for synthetic ADDED events of every current object
   * @param sendInitialEvents end the initial events with the initial-events-end BOOKMARK
   */
  public WatchStart(Long resourceVersion, boolean sendInitialEvents) {
    this(resourceVersion, sendInitialEvents, false);
  }
}
