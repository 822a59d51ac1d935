package dev.ctk.josdk;

import dev.ctk.controller.ControllerView;
import dev.ctk.harness.ControllerHarness;
import dev.ctk.harness.RestartableProcess;
import dev.ctk.harness.values.ControllerProcess;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import java.util.List;
import java.util.Objects;

/**
 * A Java Operator SDK {@link Operator} that ctk can crash-restart, as it does its own {@code RestartableController}:
 * each instance is built by your factory on a client of its own and reports to an {@link OperatorProbe} of its own;
 * {@link #restart()} stops the operator (its informers, caches and executors go with it) and builds a fresh one.
 * Perturbation runs ({@code @Perturbed}) crash it at each of its writes (before and after) and restart it, and tell
 * its writes from the test's by the client's {@code User-Agent}, whichever JOSDK thread sends them.
 *
 * <pre>{@code
 * RestartableOperator operator = RestartableOperator.start(harness, "webapp-operator", (client, probe) -> {
 *   Operator built = new Operator(o -> o.withKubernetesClient(client).withMetrics(probe));
 *   built.register(new WebAppReconciler());
 *   return built;
 * });
 * client.resource(webApp("web")).create();
 * assertThat(operator.controller("webapp")).within(ofSeconds(10))
 *     .hasReconciledSuccessfully(harness.namespace() + "/web");
 * }</pre>
 *
 * <p>The views of {@link #controller(String)} follow the running instance. After the test the harness stops the
 * running operator and closes its client.
 *
 * @since 0.1.0
 */
public final class RestartableOperator {

  /**
   * Builds one operator instance.
   *
   * @since 0.1.0
   */
  @FunctionalInterface
  public interface Factory {

    /**
     * Builds a fresh operator, its reconcilers registered, not started.
     *
     * @param client the instance's own client: pass it to {@code withKubernetesClient}
     * @param probe the instance's probe: pass it to {@code withMetrics} (or wrap your metrics with it)
     * @return the operator
     * @throws Exception when it cannot be built
     */
    Operator build(KubernetesClient client, OperatorProbe probe) throws Exception;
  }

  private final RestartableProcess process;

  private RestartableOperator(RestartableProcess process) {
    this.process = process;
  }

  /**
   * Builds instance 1 with {@code factory}, starts it (JOSDK waits until its informers synced; ctk then until every
   * watch is open) and returns it as a restartable operator.
   *
   * @param harness the test's harness
   * @param name the operator's name, for reports and the User-Agent of its clients
   * @param factory builds a fresh operator on the given client and probe, on each call
   * @return the operator, instance 1 running
   * @throws IllegalStateException if the factory failed, registered no reconciler, or a watch did not open in 30s
   */
  public static RestartableOperator start(ControllerHarness harness, String name, Factory factory) {
    Objects.requireNonNull(harness, "RestartableOperator.start: harness is null");
    Objects.requireNonNull(factory, "RestartableOperator.start: factory is null");
    return new RestartableOperator(harness.startProcess(name, instance -> {
      OperatorProbe probe = OperatorProbe.create();
      Operator operator = factory.build(instance.client(), probe);
      if (operator == null) {
        throw new IllegalStateException("the factory returned null; return the Operator it built");
      }
      AutoCloseable stop = probe.startInstance(operator);
      return ControllerProcess.of(probe.controllers(), stop);
    }));
  }

  /**
   * The view of one of its controllers, following the running instance.
   *
   * @param name the name JOSDK registered it under ({@code @ControllerConfiguration(name = ..)}, else the reconciler
   *     class's simple name in lower case)
   * @return the view
   * @throws IllegalArgumentException if the operator has no controller of that name
   */
  public ControllerView controller(String name) {
    return process.controller(name);
  }

  /**
   * The views of all its controllers, following the running instance.
   *
   * @return an immutable list
   */
  public List<ControllerView> controllers() {
    return process.controllers();
  }

  /**
   * Which instance runs now: 1 for the first, one more after each restart.
   *
   * @return the instance number
   */
  public int instance() {
    return process.instance();
  }

  /** Crash-restarts it now: stops the running operator and starts a fresh one from the factory. */
  public void restart() {
    process.restart();
  }

  /**
   * The restartable process under it, e.g. to restart it with a hook.
   *
   * @return the process
   */
  public RestartableProcess process() {
    return process;
  }

  @Override
  public String toString() {
    return "RestartableOperator (" + process + ")";
  }
}
