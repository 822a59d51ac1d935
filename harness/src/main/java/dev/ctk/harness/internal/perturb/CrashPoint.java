package dev.ctk.harness.internal.perturb;

import dev.ctk.assertions.internal.StateFormat;
import dev.ctk.harness.internal.ControllerWrite;
import dev.ctk.harness.internal.ReconcileThreads.Instance;
import dev.ctk.harness.values.Perturbation;
import dev.ctk.harness.values.Restartable;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import java.util.function.Supplier;

/**
 * Executes a {@link Perturbation#CRASH_RESTART} or {@link Perturbation#STALE_RESTART} point: at controller write n
 * the instance that sent it crashes. Before the write: the write is refused (its connection dropped). After it: the
 * write is served, and the instance crashes at the end of that reconcile or at its next request, whichever comes
 * first. A crashed instance's every later request from inside its reconciles is refused, as if its process were gone;
 * on the thread {@code ctk-perturb-restart} its {@link Restartable} closes it and starts a fresh instance
 * from the factory. A controller process of another framework (told apart by its {@code User-Agent}, not by reconcile
 * threads) crashed after write n has every request refused from write n on, and is stopped once write n was
 * answered.
 *
 * <p>The fault rule's predicate calls {@link #refuses} and {@link #onWrite} on the thread that sent the request, so
 * neither blocks: the restart is handed to the restart thread, started for it (a point crashes one instance once).
 * {@link #close} waits for that thread, and logs a restart it had to abandon.
 *
 * <p>It takes effect ({@link #fired()}) when the instance crashed: the run got to write n and the controller that
 * sent it was started from a factory.
 */
public final class CrashPoint {

  /** How long a controller process crashed right after write n stays up, at most, for write n to be answered. */
  private static final Duration SERVED_WAIT = Duration.ofSeconds(10);

  private final PerturbationPoint point;
  private final Consumer<String> log;
  /** For a stale restart: the stale view the fresh instance starts on; else {@code null}. */
  private final StaleRestart stale;
  private final Supplier<String> resourceVersion;
  /** Whether the request of a journal sequence was answered (it is in the journal). */
  private final LongPredicate served;
  private final AtomicInteger pending = new AtomicInteger();
  private volatile boolean reached;
  private volatile boolean fired;
  private volatile ControllerWrite write;
  private volatile Instance writer;
  private volatile Instant crashedAt;
  private volatile String staleResourceVersion;
  /** Guarded by {@code this}. */
  private Thread restart;
  /** Guarded by {@code this}. */
  private boolean closed;

  /**
   * @param point a crash-restart or stale-restart point
   * @param log where the injection lines go
   * @param resourceVersion for a stale restart: the resourceVersion its stale kind is listed as of (the store's when
   *     the first controller started), read when write n is reached
   * @param stale for a stale restart, the stale view to start the fresh instance on; else {@code null}
   * @param served whether the request of a journal sequence was answered: a controller process crashed right after
   *     write n is stopped only once write n was served
   */
  public CrashPoint(PerturbationPoint point, Consumer<String> log, Supplier<String> resourceVersion,
      StaleRestart stale, LongPredicate served) {
    this.point = point;
    this.served = served;
    this.log = log;
    this.resourceVersion = resourceVersion;
    this.stale = stale;
  }

  /** Whether the crash happened. */
  public boolean fired() {
    return fired;
  }

  /**
   * Why the crash did not happen, or {@code null} when it did.
   *
   * @return e.g. {@code "the run never got to write #3"}
   */
  public String notFiredReason() {
    if (fired) {
      return null;
    }
    if (!reached) {
      return "the run never got to write #" + point.write();
    }
    Instance instance = writer;
    if (instance.restartable() == null) {
      return "write #" + point.write() + " came from controller \"" + instance.name() + "\", started without a "
          + "factory (harness.start(Controller))";
    }
    return "write #" + point.write() + " was served, but the test ended before controller \"" + instance.name()
        + "\" crashed";
  }

  /** Whether a restart is still under way. */
  public boolean busy() {
    return pending.get() > 0;
  }

  /** The resourceVersion a stale restart lists its stale kind as of, or {@code null} before write n. */
  public String staleResourceVersion() {
    return staleResourceVersion;
  }

  /**
   * Called for every request sent from inside a reconcile, before it is numbered.
   *
   * @return {@code true} to refuse it: its instance crashed (or crashes now, its write n being served)
   */
  public boolean refuses(Instance instance) {
    if (instance.crashed()) {
      return true;
    }
    if (instance.crashDue()) {
      crash(instance, "right after");
      return true;
    }
    return false;
  }

  /**
   * Called for every numbered controller write.
   *
   * @return {@code true} to refuse it (crash before write n)
   */
  public boolean onWrite(ControllerWrite sent, Instance instance) {
    if (reached || sent.number() != point.write()) {
      return false;
    }
    write = sent;
    writer = instance;
    reached = true;
    if (instance.restartable() == null) {
      log.accept(PerturbationTracker.now() + " did not crash controller \"" + instance.name() + "\" at write #"
          + sent.number() + " (" + sent.request() + "): it was started with harness.start(Controller), without a "
          + "factory to restart it from. Start it with harness.start(() -> ...) to crash-restart it");
      return false;
    }
    if (point.kind() == Perturbation.STALE_RESTART) {
      staleResourceVersion = resourceVersion.get();
    }
    if (point.beforeWrite()) {
      crash(instance, "before");
      return true;
    }
    if (instance.isProcess()) {
      // no reconcile end is seen for a process: it crashes now, every later request of it refused, and is stopped
      // once write n was served
      crash(instance, "right after");
      return false;
    }
    instance.crashSoon();
    return false;
  }

  /** Called on the worker thread at the end of each reconcile: a crash after write n happens here at the latest. */
  public void onReconcileEnd(Instance instance) {
    if (instance.crashDue()) {
      crash(instance, "right after");
    }
  }

  private void crash(Instance instance, String when) {
    String line;
    synchronized (this) {
      if (instance.crashed()) {
        return;
      }
      instance.crash();
      fired = true;
      crashedAt = Instant.now();
      ControllerWrite sent = write;
      line = PerturbationTracker.time(crashedAt) + " crashed controller \"" + instance.name() + "\" " + when
          + " write #" + sent.number() + " (" + sent.request() + (when.equals("before") ? ", refused)" : ")");
      if (!closed) {
        pending.incrementAndGet();
        restart = new Thread(() -> restart(instance, line), "ctk-perturb-restart");
        restart.setDaemon(true);
        restart.start();
        return;
      }
    }
    log.accept(line + "; not restarted: the test was over");
  }

  private void restart(Instance instance, String line) {
    try {
      if (instance.isProcess()) {
        awaitServed(write.journalSequence());
      }
      Restartable restartable = instance.restartable();
      boolean started;
      try {
        started = restartable.restart(fresh -> {
          if (stale != null) {
            stale.prepare(fresh, staleResourceVersion);
          }
        });
      } finally {
        if (stale != null) {
          stale.started();
        }
      }
      String note = stale == null ? null : stale.note();
      if (!started) {
        log.accept(line + "; not restarted: the test ended during the restart");
        if (stale != null) {
          stale.release("when the test ended");
        }
        return;
      }
      log.accept(line + "; restarted as instance " + restartable.instance()
          + (note == null ? "" : ", " + note));
      if (stale != null) {
        stale.releaseWhenQuiet();
      }
    } catch (RuntimeException | Error e) {
      log.accept(line + "; the restart failed: " + e);
      if (stale != null) {
        stale.release("after the failed restart");
      }
    } finally {
      pending.decrementAndGet();
    }
  }

  /** Waits (at most 10 s) until write n was answered, so that stopping the process does not cut it off. */
  private void awaitServed(long sequence) {
    long deadline = System.nanoTime() + SERVED_WAIT.toNanos();
    while (!served.test(sequence) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Lets no further restart start and waits (at most {@code bound}) for the one under way; logs it when it had to
   * give up on it.
   */
  public void close(Duration bound) {
    Thread thread;
    synchronized (this) {
      closed = true;
      thread = restart;
    }
    if (thread == null) {
      return;
    }
    try {
      thread.join(bound.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      thread.interrupt();
      log.accept(PerturbationTracker.now() + " abandoned the restart of controller \"" + writer.name() + "\": it "
          + "was still under way " + StateFormat.duration(bound) + " after the tracker closed (thread "
          + thread.getName() + " interrupted)");
    }
  }
}
