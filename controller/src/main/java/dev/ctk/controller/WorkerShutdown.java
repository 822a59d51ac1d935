package dev.ctk.controller;

import dev.ctk.controller.internal.DurationText;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the worker threads of a closing {@link Controller}: bounded joins, then interrupts, and says
 * which keys and threads were left behind, with the fix.
 */
final class WorkerShutdown {

  private static final Logger LOG = LoggerFactory.getLogger(Controller.class);
  private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(1);

  private WorkerShutdown() {}

  /**
   * Joins the workers until {@code deadline} (unless the closing thread was interrupted), then
   * interrupts those still alive and joins them for the grace period.
   *
   * @param name the controller's name, for messages
   * @param threads the worker threads (the calling thread, if among them, is skipped)
   * @param workerLoops the loops of {@code threads}, in the same order
   * @param deadline the end of the shutdown timeout, on {@link TimeSource#system()}
   * @param alreadyInterrupted whether the closing thread was interrupted before
   * @return whether the closing thread was interrupted meanwhile
   */
  static boolean join(String name, List<Thread> threads, List<ReconcileWorker> workerLoops,
      long deadline, boolean alreadyInterrupted) {
    TimeSource realTime = TimeSource.system();
    boolean interrupted = alreadyInterrupted;
    List<Thread> others = threads.stream().filter(t -> t != Thread.currentThread()).toList();
    for (Thread worker : others) {
      if (interrupted) {
        break;
      }
      try {
        worker.join(Math.max(1, (deadline - realTime.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    List<Thread> alive = others.stream().filter(Thread::isAlive).toList();
    alive.forEach(Thread::interrupt);
    long graceEnd = realTime.nanoTime() + INTERRUPT_GRACE.toNanos();
    for (Thread worker : alive) {
      while (worker.isAlive() && graceEnd - realTime.nanoTime() > 0) {
        try {
          worker.join(Math.max(1, (graceEnd - realTime.nanoTime()) / 1_000_000));
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (worker.isAlive()) {
        ObjectKey key = workerLoops.get(threads.indexOf(worker)).currentKey();
        LOG.warn("Controller \"{}\": worker {} did not stop within {} after the shutdown timeout "
            + "and an interrupt (its reconcile of {} ignores interrupts); it is a daemon thread and "
            + "is left behind. Fix: let the reconciler give up when interrupted, or raise "
            + "withShutdownTimeout(..).", name, worker.getName(), DurationText.of(INTERRUPT_GRACE),
            key);
      }
    }
    return interrupted;
  }

  /** The warning of a close() that gave up on keys still in flight. */
  static String stuckKeysWarning(String name, boolean interrupted, Duration shutdownTimeout,
      List<String> stuck) {
    return "Controller \"" + name + "\": close() " + (interrupted
        ? "was interrupted"
        : "waited " + DurationText.of(shutdownTimeout) + " (the shutdown timeout)")
        + " but " + stuck.size() + (stuck.size() == 1 ? " key was" : " keys were")
        + " still in flight: " + stuck + "; their workers were interrupted. Fix: make the "
        + "reconciler return sooner (and give up when interrupted), or raise "
        + "withShutdownTimeout(..) above the longest reconcile.";
  }
}
