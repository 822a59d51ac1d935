package dev.ctk.junit;

import dev.ctk.harness.values.Mode;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.ClassTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a {@link ControllerTest @ControllerTest} class once per mode, with one body: the class is a
 * JUnit class template, and each invocation runs every test of the class (and of its {@code @Nested}
 * classes) in one mode, under a display name that says which: {@code [fake] NetworkControllerTest},
 * {@code [envtest] NetworkControllerTest}.
 *
 * <pre>{@code
 * @ControllerTest(crds = "classpath:crds/network.yaml")
 * @AcrossModes({Mode.FAKE, Mode.ENVTEST})
 * class NetworkControllerTest {
 *   @Test
 *   void creates_the_network(KubernetesClient client, ControllerHarness harness) {
 *     client.resource(network("blue")).create();        // in the test's namespace
 *     ...hasReconciledSuccessfully(harness.namespace() + "/blue");
 *   }
 * }
 * }</pre>
 *
 * <p>Without a value ({@code @AcrossModes}), the modes come from {@value
 * ControllerTest#MODES_PROPERTY_NAME} (JUnit configuration parameter), then the environment variable
 * {@code CTK_MODES} (comma-separated, e.g. {@code fake,container}), else they are {@code fake} plus
 * one real mode: the one {@value ControllerTest#MODE_PROPERTY_NAME} / {@code CTK_MODE} names, or
 * {@code envtest}. So one switch, {@code CTK_MODE=container}, moves single-mode classes to container
 * mode and the real half of {@code @AcrossModes} classes with them, and CI runs the same classes in
 * the modes the machine provides. A mode that is not available (no binaries, Docker not running)
 * skips its invocation's tests with the reason, or fails them when {@value
 * ControllerTest#REQUIRE_ENVTEST_PROPERTY_NAME}{@code =true}.
 *
 * <h2>How it composes</h2>
 *
 * <ul>
 *   <li><b>With {@code @ControllerTest} or a builder-made {@link ControllerTestExtension}.</b> This
 *       annotation only chooses the modes; one of those two must be registered on the class or an
 *       enclosing class (else the class fails with a message saying so). The mode of an invocation
 *       wins over {@code ctk.mode}; a {@code @ControllerTest(mode = ...)} or {@code
 *       builder().withMode(..)} in the same chain of classes is refused, since the two would
 *       disagree.
 *   <li><b>{@code @Nested} classes</b> below an {@code @AcrossModes} class run inside each
 *       invocation, in its mode. A nested class cannot carry {@code @AcrossModes} itself when an
 *       enclosing class does (the modes would multiply).
 *   <li><b>Isolation.</b> Each invocation is its own class scope: with {@code PER_CLASS}, each mode
 *       gets one cluster (or namespace) for the class, started when the invocation starts and closed
 *       when it ends. JUnit runs {@code @BeforeAll} and {@code @AfterAll} methods of a class
 *       template once for all invocations, before any mode is chosen, so nothing of ctk can be
 *       injected into them (the message says so): set up per mode in {@code @BeforeEach}, or in the
 *       {@code @BeforeAll} of a {@code @Nested} class (it runs inside each invocation).
 *   <li><b>{@code @TestInstance(PER_CLASS)}</b>: JUnit creates one test instance for all
 *       invocations, so its constructor cannot receive a per-mode object; inject into methods.
 * </ul>
 *
 * @since 0.1.0
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ClassTemplate
@ExtendWith(AcrossModesExtension.class)
public @interface AcrossModes {

  /**
   * The modes, in the order they run; empty (the default) means: from {@value
   * ControllerTest#MODES_PROPERTY_NAME}, then {@code CTK_MODES}, then {@code fake} and the real mode
   * of {@code ctk.mode} / {@code CTK_MODE} ({@code envtest} when that is {@code fake} or unset).
   * Each mode at most once; {@link Mode#DEFAULT} is not allowed here.
   *
   * @return the modes
   */
  Mode[] value() default {};
}
