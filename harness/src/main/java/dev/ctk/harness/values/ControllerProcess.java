package dev.ctk.harness.values;

import dev.ctk.controller.ControllerView;
import java.util.List;
import java.util.Objects;

/**
 * A running controller of another framework, as a restartable factory returns it: a Java Operator SDK {@code
 * Operator}, a Kubernetes Java client controller, a hand-written loop. ctk shows its {@link #views()} in failure
 * reports and waits on them for idleness, and closes it (then the client it was given) when it crashes one instance
 * and after the test. ctk-josdk's {@code RestartableOperator} and ctk-client-java's {@code
 * ClientJavaProbe.startRestartable} build one for you.
 *
 * <pre>{@code
 * RestartableProcess loop = harness.startProcess("config-syncer", instance -> {
 *   ControllerProbe probe = ControllerProbe.create("config-syncer");
 *   ConfigSyncer syncer = ConfigSyncer.start(instance.client(), probe);    // informers synced, watches open
 *   return ControllerProcess.of(List.of(probe), syncer::stop);
 * });
 * }</pre>
 *
 * @since 0.1.0
 */
public interface ControllerProcess extends AutoCloseable {

  /**
   * The views of this process's controllers, one per controller, each with a distinct {@link ControllerView#name()}:
   * the same names on every instance, so that assertions follow restarts by name.
   *
   * @return a non-empty list
   */
  List<ControllerView> views();

  /**
   * Stops the process as a crash would end it: its informers and workers stop; a reconcile in flight may be cut
   * short. Called once.
   *
   * @throws Exception when it could not stop; ctk reports it and goes on
   */
  @Override
  void close() throws Exception;

  /**
   * A process made of its views and what stops it.
   *
   * @param views the views of its controllers
   * @param stop stops it
   * @return the process
   */
  static ControllerProcess of(List<? extends ControllerView> views, AutoCloseable stop) {
    List<ControllerView> copy = List.copyOf(Objects.requireNonNull(views, "ControllerProcess.of: views is null"));
    Objects.requireNonNull(stop, "ControllerProcess.of: stop is null");
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("ControllerProcess.of: no views. Give the view of each controller the "
          + "process runs (a ControllerProbe, an OperatorProbe's controllers(), a ClientJavaProbe), so that ctk "
          + "can wait for it and show it in failure reports.");
    }
    return new ControllerProcess() {
      @Override
      public List<ControllerView> views() {
        return copy;
      }

      @Override
      public void close() throws Exception {
        stop.close();
      }

      @Override
      public String toString() {
        return "process of " + copy.stream().map(ControllerView::name).toList();
      }
    };
  }
}
