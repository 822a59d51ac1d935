package dev.ctk.controller;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Waits, in real time and with a bound, until every source of a controller has synced; fails fast if an
 * informer the controller started failed to start.
 */
final class CacheSync {

  private static final long RECHECK_NANOS = 10_000_000L;

  private final String controllerName;
  private final List<InformerSource<?>> sources;
  private final Duration timeout;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  CacheSync(String controllerName, List<InformerSource<?>> sources, Duration timeout) {
    this.controllerName = controllerName;
    this.sources = sources;
    this.timeout = timeout;
  }

  /**
   * Blocks until all sources synced.
   *
   * @param cancelled checked while waiting; when it turns true, waiting ends
   * @return {@code true} if synced, {@code false} if cancelled
   * @throws CacheSyncTimeoutException on timeout or failed informer start
   * @throws InterruptedException if interrupted
   */
  boolean await(BooleanSupplier cancelled) throws InterruptedException {
    for (InformerSource<?> source : sources) {
      if (source.startFuture() != null) {
        source.startFuture().whenComplete((ignored, error) -> wake());
      }
    }
    TimeSource realTime = TimeSource.system();
    long deadline = realTime.nanoTime() + SystemTimeSource.saturatedNanos(timeout);
    lock.lockInterruptibly();
    try {
      while (true) {
        if (cancelled.getAsBoolean()) {
          return false;
        }
        if (sources.stream().allMatch(InformerSource::hasSynced)) {
          return true;
        }
        Throwable failure = sources.stream().map(InformerSource::startFailure)
            .filter(f -> f != null).findFirst().orElse(null);
        if (failure != null) {
          throw new CacheSyncTimeoutException(message(
              "informer caches did not sync, because an informer failed to start."), failure);
        }
        long remaining = deadline - realTime.nanoTime();
        if (remaining <= 0) {
          throw new CacheSyncTimeoutException(message("informer caches did not sync within "
              + Durations.format(timeout) + "."), null);
        }
        changed.awaitNanos(Math.min(remaining, RECHECK_NANOS));
      }
    } finally {
      lock.unlock();
    }
  }

  private void wake() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private String message(String problem) {
    StringBuilder text = new StringBuilder("Controller \"").append(controllerName)
        .append("\" could not start: ").append(problem).append('\n');
    for (InformerSource<?> source : sources) {
      text.append("  ").append(source.kind()).append(" informer: ").append(state(source))
          .append('\n');
    }
    return text.append("Fix: check that the API server is reachable and that the controller may "
        + "list and watch these kinds, or raise withCacheSyncTimeout(..).").toString();
  }

  private static String state(InformerSource<?> source) {
    if (source.hasSynced()) {
      return "synced";
    }
    Throwable failure = source.startFailure();
    return failure == null ? "not synced" : "failed to start: " + describe(failure);
  }

  /** "403 Forbidden: message" for API errors, else "ExceptionType: first line of the message". */
  private static String describe(Throwable failure) {
    if (failure instanceof KubernetesClientException apiError && apiError.getStatus() != null
        && apiError.getStatus().getCode() != null) {
      Status status = apiError.getStatus();
      return status.getCode() + (status.getReason() == null ? "" : " " + status.getReason())
          + (status.getMessage() == null ? "" : ": " + firstLine(status.getMessage()));
    }
    String message = failure.getMessage() == null ? "" : firstLine(failure.getMessage());
    return failure.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
  }

  private static String firstLine(String text) {
    String stripped = text.strip();
    int newline = stripped.indexOf('\n');
    return newline < 0 ? stripped : stripped.substring(0, newline).strip() + " ...";
  }
}
