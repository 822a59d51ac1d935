package dev.ctk.fake.internal.gc;

import dev.ctk.controller.TimeSource;
import dev.ctk.fake.values.GarbageCollection;
import java.time.Duration;
import java.util.Objects;

/**
 * How a cluster's garbage collector runs.
 *
 * @param mode asynchronous (its own thread), synchronous (inside the write that gave it work) or off
 * @param time what the namespace controller's grace period is measured on
 * @param namespaceGracePeriod how long after a Namespace is deleted the namespace controller starts emptying it
 *     (kube's {@code namespaceDeletionGracePeriod}, 5 seconds); ignored when synchronous
 */
public record CollectorSettings(GarbageCollection mode, TimeSource time, Duration namespaceGracePeriod) {

  /** kube-controller-manager's {@code namespaceDeletionGracePeriod}. */
  public static final Duration KUBE_NAMESPACE_GRACE_PERIOD = Duration.ofSeconds(5);

  /** Checks the settings. */
  public CollectorSettings {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(namespaceGracePeriod, "namespaceGracePeriod");
  }
}
