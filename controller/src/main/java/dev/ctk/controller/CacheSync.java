package dev.ctk.controller;

import dev.ctk.controller.internal.DurationText;
import dev.ctk.controller.internal.ThrowableText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Waits, in real time and with a bound, until every source of a controller has synced; fails fast if an
 * informer the controller started failed to start. The message names each failure in one line ({@link
 * ThrowableText#summary}); the exception carries each failure whole: the first as its cause, any
 * other as a suppressed exception.
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
        List<Throwable> failures = failures();
        if (!failures.isEmpty()) {
          CacheSyncTimeoutException failed = new CacheSyncTimeoutException(message(
              "informer caches did not sync, because an informer failed to start."),
              failures.get(0));
          failures.subList(1, failures.size()).forEach(failed::addSuppressed);
          throw failed;
        }
        long remaining = deadline - realTime.nanoTime();
        if (remaining <= 0) {
          throw new CacheSyncTimeoutException(message("informer caches did not sync within "
              + DurationText.of(timeout) + "."), null);
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

  /** The start failures of the sources, each once, in the sources' order. */
  private List<Throwable> failures() {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Throwable> failures = new ArrayList<>();
    for (InformerSource<?> source : sources) {
      Throwable failure = source.startFailure();
      if (failure != null && seen.add(failure)) {
        failures.add(failure);
      }
    }
    return failures;
  }

  /** "synced", "not synced", or "failed to start: " and the failure's one-line summary. */
  private static String state(InformerSource<?> source) {
    if (source.hasSynced()) {
      return "synced";
    }
    Throwable failure = source.startFailure();
    return failure == null ? "not synced" : "failed to start: " + ThrowableText.summary(failure);
  }
}
