package dev.ctk.harness.values;

import dev.ctk.controller.Controller;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A controller the harness can crash and start afresh from its factory, as the perturbation engine and the
 * assertions see it: a ctk {@link Controller} ({@code dev.ctk.harness.RestartableController}) or a controller process
 * of another framework ({@code dev.ctk.harness.RestartableProcess}).
 *
 * @since 0.1.0
 */
public interface Restartable {

  /**
   * The name it was started under.
   *
   * @return e.g. {@code "nginx-service"}
   */
  String name();

  /**
   * Which instance runs now: 1 for the first, one more after each restart.
   *
   * @return the instance number
   */
  int instance();

  /**
   * The running ctk controller instance (after a restart, the fresh one).
   *
   * @return the instance, or empty for a controller process of another framework
   */
  Optional<Controller> currentController();

  /**
   * Crash-restarts it now, calling {@code beforeStart} with the fresh instance after the old one is closed and before
   * the fresh one starts.
   *
   * @param beforeStart called on the thread that then starts the fresh instance
   * @return {@code true} if the fresh instance started; {@code false} if the test ended meanwhile
   */
  boolean restart(Consumer<ControllerInstance> beforeStart);
}
