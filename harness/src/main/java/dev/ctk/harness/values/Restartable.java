package dev.ctk.harness.values;

import dev.ctk.controller.Controller;
import java.util.function.Consumer;

/**
 * A controller the harness can crash and start afresh from its factory, as the perturbation engine and the
 * assertions see it ({@code dev.ctk.harness.RestartableController} is the one users get).
 *
 * @since 0.1.0
 */
public interface Restartable {

  /**
   * The running instance (after a restart, the fresh one).
   *
   * @return the current instance
   */
  Controller current();

  /**
   * Which instance runs now: 1 for the first, one more after each restart.
   *
   * @return the instance number
   */
  int instance();

  /**
   * Crash-restarts the controller now, calling {@code beforeStart} with the fresh instance after the old one is
   * closed and before the fresh one starts.
   *
   * @param beforeStart called on the thread that then starts the fresh instance
   * @return {@code true} if the fresh instance started; {@code false} if the test ended meanwhile
   */
  boolean restart(Consumer<Controller> beforeStart);
}
