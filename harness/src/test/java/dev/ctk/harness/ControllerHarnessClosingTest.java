package dev.ctk.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.Result;
import dev.ctk.harness.values.TestCluster;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What a harness closes, and what it leaves alone: the controllers it started and its {@code closeAfterTest}
 * resources, each even when an earlier one failed with an {@link Error}; never a controller it does not own.
 */
class ControllerHarnessClosingTest {

  @Test
  void should_refuse_a_controller_an_enclosing_harness_started_and_leave_it_running() {
    try (TestScope classScope = TestScope.builder().withName("class").start()) {
      // GIVEN a controller the class's harness started (a PER_CLASS @BeforeAll)
      Controller controller = classScope.harness().start(idle(classScope.harness()));
      TestScope methodScope = TestScope.borrowing(classScope);
      // WHEN a test's harness is asked to start it again
      IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
          () -> methodScope.harness().start(controller));
      methodScope.close();
      // THEN the test's harness neither took it over nor closed it
      assertThat(controller.isRunning()).as("the class's controller after the test's scope closed").isTrue();
      assertThat(error).hasMessage("Controller \"idle\" was already started by the harness of an enclosing class "
          + "(or enclosing TestScope), which owns it and closes it when that class ends; this harness neither "
          + "starts nor closes it. Fix: use the running controller as it is (it runs during this test, and this "
          + "test's failure report shows it), or start a new controller here.");
      assertThat(methodScope.harness().controllers()).containsExactly(controller);
    }
  }

  @Test
  void should_refuse_a_controller_started_outside_the_harness_and_not_close_it() {
    try (TestScope scope = TestScope.builder().start()) {
      // GIVEN a controller the test started itself
      Controller controller = idle(scope.harness()).start();
      try {
        // WHEN
        IllegalStateException error = catchThrowableOfType(IllegalStateException.class,
            () -> scope.harness().start(controller));
        scope.harness().close();
        // THEN
        assertThat(controller.isRunning()).as("the test's own controller after the harness closed").isTrue();
        assertThat(error).hasMessage("Controller \"idle\" is already running, started outside this harness; "
            + "ControllerHarness.start(controller) starts a controller that was not started yet and closes it "
            + "after the test, so it refuses one it does not own. Fix: pass a new controller, or keep this one: "
            + "show it in the failure report with harness.observe(controller) and close it with "
            + "harness.closeAfterTest(controller).");
        assertThat(scope.harness().controllers()).isEmpty();
      } finally {
        controller.close();
      }
    }
  }

  @Test
  void should_close_every_controller_and_the_cluster_when_a_resource_throws_an_error() {
    // GIVEN a controller, then a resource whose close() fails an assertion
    AtomicInteger clusterCloses = new AtomicInteger();
    TestScope scope = TestScope.owning(counting(TestScope.builder().start().cluster(), clusterCloses));
    Controller controller = scope.harness().start(idle(scope.harness()));
    AssertionError leftover = new AssertionError("the loop left errors behind: [boom]");
    scope.harness().closeAfterTest(() -> {
      throw leftover;
    });
    // WHEN
    Throwable thrown = catchThrowable(scope::close);
    // THEN
    assertThat(controller.isRunning()).as("the controller registered before the failing resource").isFalse();
    assertThat(clusterCloses).as("closes of the scope's cluster").hasValue(1);
    assertThat(thrown).isSameAs(leftover);
  }

  @Test
  void should_throw_the_first_failure_with_the_later_ones_suppressed_errors_included() {
    try (TestScope scope = TestScope.builder().start()) {
      // GIVEN three resources, closed in reverse order: an Error, then a runtime exception, then one that works
      List<String> closed = new CopyOnWriteArrayList<>();
      IllegalStateException second = new IllegalStateException("operator did not stop");
      AssertionError first = new AssertionError("leftover errors");
      scope.harness().closeAfterTest(() -> closed.add("works"));
      scope.harness().closeAfterTest(() -> {
        closed.add("runtime exception");
        throw second;
      });
      scope.harness().closeAfterTest(() -> {
        closed.add("error");
        throw first;
      });
      // WHEN
      Throwable thrown = catchThrowable(() -> scope.harness().close());
      // THEN
      assertThat(closed).containsExactly("error", "runtime exception", "works");
      assertThat(thrown).isSameAs(first);
      assertThat(thrown.getSuppressed()).containsExactly(second);
    }
  }

  @Test
  void should_close_the_cluster_when_the_harness_throws_an_error() {
    // GIVEN
    AtomicInteger clusterCloses = new AtomicInteger();
    TestScope scope = TestScope.owning(counting(TestScope.builder().start().cluster(), clusterCloses));
    StackOverflowError overflow = new StackOverflowError("deep close");
    scope.harness().closeAfterTest(() -> {
      throw overflow;
    });
    // WHEN
    Throwable thrown = catchThrowable(scope::close);
    // THEN
    assertThat(clusterCloses).as("closes of the scope's cluster").hasValue(1);
    assertThat(thrown).isSameAs(overflow);
  }

  /** A controller that reconciles nothing of note, on the scope's ConfigMaps. */
  private static Controller idle(ControllerHarness harness) {
    return Controller.builder("idle")
        .watch(harness.client().configMaps().inNamespace("default").runnableInformer(0),
            EventHandlers.enqueueObject())
        .withReconciler(key -> Result.done())
        .build();
  }

  /** {@code cluster}, counting its {@code close()} calls. */
  private static TestCluster counting(TestCluster cluster, AtomicInteger closes) {
    return (TestCluster) Proxy.newProxyInstance(TestCluster.class.getClassLoader(),
        new Class<?>[] {TestCluster.class}, (proxy, method, args) -> {
          if (method.getName().equals("close")) {
            closes.incrementAndGet();
          }
          try {
            return method.invoke(cluster, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
