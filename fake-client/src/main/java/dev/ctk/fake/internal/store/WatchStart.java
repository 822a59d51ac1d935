package dev.ctk.fake.internal.store;

/**
 * Where a watch starts.
 *
 * @param resourceVersion replay changes after this resourceVersion; {@code null} to start with synthetic ADDED
 *     events for every current object (a watch without resourceVersion, or with {@code "0"})
 * @param sendInitialEvents end the initial ADDED events with a BOOKMARK annotated
 *     {@code k8s.io/initial-events-end: "true"} (the watch-list protocol)
 */
public record WatchStart(Long resourceVersion, boolean sendInitialEvents) {
}
