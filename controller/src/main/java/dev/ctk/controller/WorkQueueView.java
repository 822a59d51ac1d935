package dev.ctk.controller;

/**
 * A read-only view of a work queue: its name, its framework's words and a snapshot of what it holds.
 * {@link WorkQueue} implements it; so does the queue of every {@link ControllerView} (a {@link
 * ControllerProbe}'s, or a framework integration's), so that one set of assertions covers them all.
 *
 * <pre>{@code
 * WorkQueueView queue = controller.workQueue();
 * queue.stats().queuedKeys();   // [default/web]
 * }</pre>
 *
 * @since 0.1.0
 */
public interface WorkQueueView {

  /**
   * The queue's name, as failure messages show it.
   *
   * @return the name, possibly empty
   */
  String name();

  /**
   * The words of the framework whose queue this is, for messages ({@code "work queue"}, {@code
   * "pending events"}, ...).
   *
   * @return the vocabulary; {@link Vocabulary#CTK} unless the framework differs
   */
  default Vocabulary vocabulary() {
    return Vocabulary.CTK;
  }

  /**
   * A snapshot of the queue, taken at one instant.
   *
   * @return the snapshot
   */
  WorkQueueStats stats();
}
