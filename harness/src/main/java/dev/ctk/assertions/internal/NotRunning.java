package dev.ctk.assertions.internal;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerView;
import dev.ctk.controller.internal.ThrowableText;
import dev.ctk.harness.values.Restartable;
import java.util.List;
import java.util.Optional;

/**
 * Why a controller is not running, for the messages of checks that need it running: a ctk {@link Controller} (or the
 * current instance of a restartable one) whose worker thread a {@link VirtualMachineError} ended, one that was
 * closed, or else one that was not started (or a view that cannot tell).
 *
 * <pre>
 * but it is not running: it was closed, and a closed controller does not start again. Fix: ...
 * but it is not running: a worker thread died of StackOverflowError: ... Fix: ...
 * but it is not running: start it with controller.start() or ControllerHarness.start(controller).
 * </pre>
 *
 * <p>Internal: not part of ctk's API; it may change in any release.
 */
public final class NotRunning {

  private NotRunning() {}

  /**
   * Why {@code view} is not running, completing "is not running: ", with the fix.
   *
   * @param view a view that is not running
   * @return one sentence or two, ending with a full stop
   */
  public static String reason(ControllerView view) {
    Optional<Controller> controller = controllerOf(view);
    Optional<VirtualMachineError> died = controller.flatMap(Controller::workerError);
    if (died.isPresent()) {
      return "a worker thread died of " + ThrowableText.summary(died.get()) + " (the whole error is the cause "
          + "of this failure), and a controller does not replace a worker that a VirtualMachineError ended. Fix: "
          + "make the reconciler stop throwing it (a StackOverflowError is usually a recursion without end), then "
          + "start a new controller.";
    }
    if (controller.map(Controller::isClosed).orElse(false)) {
      return "it was closed, and a closed controller does not start again. Fix: check it before it is closed, or "
          + "build and start a new controller (a RestartableController restarts with restart()).";
    }
    return "start it with " + view.vocabulary().startHint() + ".";
  }

  /**
   * The error {@link #reason} names, to attach to the failure whole.
   *
   * @param view a view that is not running
   * @return the error that ended a worker of it, or an empty list
   */
  public static List<Throwable> errors(ControllerView view) {
    return controllerOf(view).flatMap(Controller::workerError).<List<Throwable>>map(List::of).orElse(List.of());
  }

  private static Optional<Controller> controllerOf(ControllerView view) {
    if (view instanceof Controller controller) {
      return Optional.of(controller);
    }
    if (view instanceof Restartable restartable) {
      return restartable.currentController();
    }
    return Optional.empty();
  }
}
