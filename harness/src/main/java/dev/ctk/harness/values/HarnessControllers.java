package dev.ctk.harness.values;

import dev.ctk.controller.Controller;
import dev.ctk.controller.ControllerView;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The controllers of one test, as the perturbation engine reads them: what {@code dev.ctk.harness.ControllerHarness}
 * started, restarted and observed. The engine attaches through this interface, never through the harness class.
 *
 * @since 0.1.0
 */
public interface HarnessControllers {

  /**
   * Registers a hook called with every controller the harness is given, before it starts.
   *
   * @param hook the hook
   */
  void onStart(Consumer<Controller> hook);

  /**
   * The controllers started through the harness and the harnesses enclosing it, outermost first.
   *
   * @return an immutable list
   */
  List<Controller> controllers();

  /**
   * Every controller shown in failure reports: started or observed, outermost first.
   *
   * @return an immutable list
   */
  List<ControllerView> views();

  /**
   * The restartable controllers started through the harness and the harnesses enclosing it, outermost first.
   *
   * @return an immutable list
   */
  List<? extends Restartable> restartables();

  /**
   * The restartable controller whose current instance is {@code controller}.
   *
   * @param controller an instance
   * @return its restartable, or empty for a controller started without a factory
   */
  Optional<? extends Restartable> restartableOf(Controller controller);

  /**
   * The instance of a restartable controller process that sends requests with this {@code User-Agent}: its current
   * instance or one it crashed.
   *
   * @param userAgent a request's {@code User-Agent}, or {@code null}
   * @return the instance, or empty when no process instance of the harness carries it
   */
  Optional<ControllerInstance> processInstance(String userAgent);
}
