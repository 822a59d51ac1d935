package dev.ctk.examples.webapp;

import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The web app operator's entry point: a Java Operator SDK {@link Operator} with {@link
 * WebAppReconciler} registered. Tests build it through {@link #create(Consumer)} with their own
 * client and metrics; everything else stays JOSDK's default.
 *
 * <pre>{@code
 * Operator operator = WebAppOperator.create(o -> o.withKubernetesClient(client));
 * operator.start();
 * }</pre>
 *
 * @since 0.1.0
 */
public final class WebAppOperator {

  private WebAppOperator() {}

  /**
   * An operator with the web app reconciler registered, not started.
   *
   * @param overrides changes to JOSDK's default configuration (client, metrics, ...)
   * @return the operator
   */
  public static Operator create(Consumer<ConfigurationServiceOverrider> overrides) {
    Operator operator = new Operator(overrides);
    operator.register(new WebAppReconciler());
    return operator;
  }

  /**
   * Runs the operator against the cluster of the current kubeconfig until the JVM stops.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    Operator operator = create(overrides -> { });
    operator.installShutdownHook(Duration.ofSeconds(10));
    operator.start();
  }
}
