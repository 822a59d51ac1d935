package dev.ctk.junit;

import dev.ctk.harness.values.Mode;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class or method only when a real API server of the requested mode is
 * available (binaries found, Docker running, kubeconfig present: the server starts); otherwise the
 * tests are skipped, with the reason the server could not be had (every place tried, and the fix).
 * With {@value ControllerTest#REQUIRE_ENVTEST_PROPERTY_NAME}{@code =true} (or {@code
 * CTK_REQUIRE_ENVTEST=true}), as CI sets it, they are not skipped: each test fails with that message
 * instead, so a CI machine that lost its binaries cannot pass by skipping.
 *
 * <pre>{@code
 * @EnabledIfEnvtestAvailable
 * class AgainstTheRealThingTest {
 *   @Test
 *   void lists_namespaces() {
 *     ApiServer server = SharedApiServers.get("mine", () -> LocalApiServer.builder().build().start());
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>A {@link ControllerTest @ControllerTest} class in a real mode behaves this way without the
 * annotation. The server it checks is the one {@code @ControllerTest} would use for the same mode
 * and settings ({@code ctk.envtest.*}, {@code ctk.container.*}, {@code ctk.kubeconfig}), started
 * once per JVM and shared.
 *
 * @since 0.1.0
 */
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EnvtestCondition.class)
public @interface EnabledIfEnvtestAvailable {

  /**
   * The mode whose server must be available. {@link Mode#DEFAULT}: the mode the test runs in (its
   * {@code @AcrossModes} invocation, its {@code @ControllerTest(mode)}, then {@value
   * ControllerTest#MODE_PROPERTY_NAME} and {@code CTK_MODE}); when that is {@code fake} for a class
   * without {@code @ControllerTest}, {@code envtest}. A {@code @ControllerTest} test running in fake
   * mode needs nothing and always runs.
   *
   * @return the mode
   */
  Mode value() default Mode.DEFAULT;
}
