package dev.ctk.harness.internal;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.ReconcileListener;
import dev.ctk.controller.ReconcileRecord;
import dev.ctk.harness.values.Restartable;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Which controller instance the current thread reconciles for: a reconcile listener on each instance marks its
 * worker thread at the start of a reconcile and clears the mark at its end. The fake's in-process transport decides
 * fault rules on the thread that sent the request, so a rule's {@code where(..)} predicate can ask {@link
 * #current()} whether a request comes from inside a reconcile, and of which instance.
 *
 * <p>Limits: requests a reconciler sends from other threads (an executor of its own, an async client call that
 * completes elsewhere) are not attributed to it.
 */
public final class ReconcileThreads {

  private final ThreadLocal<Instance> current = new ThreadLocal<>();

  /**
   * Adds the listener that marks the instance's reconciles; call it before the instance starts.
   *
   * @param controller the instance
   * @param number its instance number (1, or more after restarts)
   * @param restartable its restartable, or {@code null} when it was started without a factory
   * @param onStart called on the worker thread at the start of each of its reconciles, once the mark is set
   * @param onEnd called on the worker thread at the end of each of its reconciles, before the mark is cleared
   * @return the instance
   */
  public Instance track(Controller controller, int number, Restartable restartable, Consumer<Instance> onStart,
      Consumer<Instance> onEnd) {
    Instance instance = new Instance(controller, number, restartable);
    controller.addReconcileListener(new ReconcileListener() {
      @Override
      public void onReconcileStart(ObjectKey key, String worker) {
        current.set(instance);
        onStart.accept(instance);
      }

      @Override
      public void onReconcileEnd(ReconcileRecord record) {
        try {
          onEnd.accept(instance);
        } finally {
          current.remove();
        }
      }
    });
    return instance;
  }

  /**
   * The instance whose reconcile runs on this thread now.
   *
   * @return the instance, or {@code null} outside reconciles of tracked instances
   */
  public Instance current() {
    return current.get();
  }

  /**
   * One started controller instance, and what a crash point did to it: a ctk controller (its requests told apart by
   * its reconcile threads) or a controller process of another framework (told apart by its {@code User-Agent}).
   */
  public static final class Instance {

    private final String name;
    private final Controller controller;
    private final int number;
    private final Restartable restartable;
    private volatile boolean crashed;
    private volatile boolean crashDue;

    public Instance(Controller controller, int number, Restartable restartable) {
      this(Objects.requireNonNull(controller, "controller").name(), controller, number, restartable);
    }

    /** A controller process's instance: no ctk controller. */
    public Instance(String name, int number, Restartable restartable) {
      this(name, null, number, Objects.requireNonNull(restartable, "restartable"));
    }

    private Instance(String name, Controller controller, int number, Restartable restartable) {
      this.name = name;
      this.controller = controller;
      this.number = number;
      this.restartable = restartable;
    }

    /** The ctk controller, or {@code null} for a controller process. */
    public Controller controller() {
      return controller;
    }

    /** Whether this is a controller process of another framework: no reconcile listener marks its threads. */
    public boolean isProcess() {
      return controller == null;
    }

    public String name() {
      return name;
    }

    public int number() {
      return number;
    }

    /** Its restartable, or {@code null} when it was started with {@code start(Controller)}. */
    public Restartable restartable() {
      return restartable;
    }

    /** Whether it crashed: every later request from its reconciles is refused. */
    public boolean crashed() {
      return crashed;
    }

    public void crash() {
      crashed = true;
      crashDue = false;
    }

    /** Whether it is to crash at the end of the current reconcile or at its next request. */
    public boolean crashDue() {
      return crashDue;
    }

    public void crashSoon() {
      crashDue = true;
    }
  }
}
