package dev.ctk.controller;

import java.util.List;

/**
 * An immutable snapshot of a {@link WorkQueue}, taken at one instant under the queue's lock.
 *
 * <pre>{@code
 * WorkQueueStats stats = queue.stats();
 * stats.depth();        // 2
 * stats.queuedKeys();   // ["default/web", "default/api"], in the order they will be handed out
 * }</pre>
 *
 * @param name the queue's name
 * @param depth keys queued and ready to be handed out (the size of {@code queuedKeys})
 * @param queuedKeys ready keys, as text, in the order they will be handed out
 * @param inFlightKeys keys handed out to a worker and not yet {@code done}, in the order handed out
 * @param waitingKeys keys waiting on a delay ({@code addAfter}, {@code addRateLimited}), earliest
 *     deadline first
 * @param adds how many times a key reached the queue: calls of {@code add} accepted before shut-down,
 *     including de-duplicated ones, plus delayed keys whose delay passed
 * @param retries calls of {@code addRateLimited} accepted before shut-down
 * @param shuttingDown whether {@code shutDown} was called
 * @since 0.1.0
 */
public record WorkQueueStats(String name, int depth, List<String> queuedKeys,
    List<String> inFlightKeys, List<String> waitingKeys, long adds, long retries,
    boolean shuttingDown) {

  /**
   * Creates a snapshot; copies the lists, so that it is immutable.
   *
   * @param name the queue's name
   * @param depth keys queued and ready
   * @param queuedKeys ready keys, in hand-out order
   * @param inFlightKeys keys handed out and not yet done
   * @param waitingKeys keys waiting on a delay, earliest deadline first
   * @param adds adds that reached the queue
   * @param retries accepted addRateLimited calls
   * @param shuttingDown whether shutDown was called
   */
  public WorkQueueStats {
    queuedKeys = List.copyOf(queuedKeys);
    inFlightKeys = List.copyOf(inFlightKeys);
    waitingKeys = List.copyOf(waitingKeys);
  }

  /**
   * Whether nothing is queued, in flight or waiting on a delay.
   *
   * @return {@code true} when the queue is idle
   */
  public boolean isIdle() {
    return queuedKeys.isEmpty() && inFlightKeys.isEmpty() && waitingKeys.isEmpty();
  }
}
