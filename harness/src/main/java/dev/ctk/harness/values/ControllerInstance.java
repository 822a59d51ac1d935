package dev.ctk.harness.values;

import dev.ctk.controller.Controller;
import java.util.Objects;

/**
 * One started instance of a restartable controller, as the perturbation engine tells its requests apart: a ctk
 * {@link Controller} by the threads of its reconciles, a controller process of another framework (a Java Operator SDK
 * {@code Operator}, a Kubernetes Java client controller) by the {@code User-Agent} of the client ctk handed it.
 *
 * @param name the restartable's name, e.g. {@code "nginx-service"} or {@code "webapp-operator"}
 * @param number 1 for the first instance, one more after each restart
 * @param controller the ctk controller of this instance, or {@code null} for a controller process
 * @param userAgent the {@code User-Agent} every request of this instance carries, or {@code null} for a ctk
 *     controller (whose client the test shares)
 * @since 0.1.0
 */
public record ControllerInstance(String name, int number, Controller controller, String userAgent) {

  /**
   * @throws NullPointerException if {@code name} is null
   * @throws IllegalArgumentException if {@code number} is below 1, or neither or both of {@code controller} and
   *     {@code userAgent} are given
   */
  public ControllerInstance {
    Objects.requireNonNull(name, "ControllerInstance: name is null");
    if (number < 1) {
      throw new IllegalArgumentException("ControllerInstance \"" + name + "\": number " + number + " is below 1");
    }
    if ((controller == null) == (userAgent == null)) {
      throw new IllegalArgumentException("ControllerInstance \"" + name + "\": give either a ctk controller or "
          + "the User-Agent of a controller process, not " + (controller == null ? "neither" : "both"));
    }
  }

  /** Whether this is a controller process of another framework (told apart by its {@link #userAgent()}). */
  public boolean isProcess() {
    return userAgent != null;
  }

  /** For messages: {@code controller "nginx-service" instance 2}. */
  public String describe() {
    return "controller \"" + name + "\" instance " + number;
  }
}
