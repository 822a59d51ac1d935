package dev.ctk.junit;

import dev.ctk.harness.internal.realserver.RealServers;
import dev.ctk.harness.internal.realserver.ServerConfig;
import dev.ctk.harness.values.Mode;
import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The condition behind {@link EnabledIfEnvtestAvailable @EnabledIfEnvtestAvailable}: skips when the
 * requested real mode's server is not available on this machine (no binaries, Docker or kubeconfig), with its
 * message as the reason; when {@code ctk.require-envtest=true}, enables the test and makes it fail in {@code
 * beforeEach} with that same message. A server that was found but failed to start, and an invalid ctk setting,
 * fail the test in {@code beforeEach} with their message.
 */
final class EnvtestCondition implements ExecutionCondition, BeforeEachCallback {

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (context.getTestClass().isPresent() && ScopeResolution.isTemplateContext(context)) {
      return ConditionEvaluationResult.enabled("the mode is chosen by each @AcrossModes "
          + "invocation");
    }
    Optional<ServerConfig> server;
    try {
      server = requested(context);
    } catch (ExtensionConfigurationException e) {
      return ConditionEvaluationResult.enabled("ctk settings are reported when the test starts");
    }
    if (server.isEmpty()) {
      return ConditionEvaluationResult.enabled("fake mode needs no real API server");
    }
    return JUnitAdapter.condition(RealServers.availability(server.get(), context.getTestMethod().isEmpty()));
  }

  /** Fails with an invalid setting's message, or, when required, with the server's failure. */
  @Override
  public void beforeEach(ExtensionContext context) {
    requested(context).filter(ServerConfig::required).ifPresent(RealServers::server);
  }

  /** The server the annotation asks for; empty when the test runs in fake mode. */
  private static Optional<ServerConfig> requested(ExtensionContext context) {
    Mode mode = annotated(context).map(EnabledIfEnvtestAvailable::value).orElse(Mode.DEFAULT);
    boolean controllerTest = context.getTestClass().isPresent()
        && ScopeResolution.hasControllerTestExtension(context);
    ControllerTestConfig config = ControllerTestConfig.of(context);
    if (mode == Mode.DEFAULT) {
      mode = ModeInvocation.enclosing(context).map(ModeInvocation::mode)
          .or(() -> annotatedMode(context))
          .orElseGet(() -> config.resolve(ControllerTestConfig.MODE, null, null).value());
      if (mode == Mode.FAKE) {
        if (controllerTest) {
          return Optional.empty();
        }
        mode = Mode.ENVTEST;
      }
    }
    return Optional.ofNullable(config.serverConfig(mode));
  }

  /** The nearest annotation: the method's, else the class's, else an enclosing class's. */
  private static Optional<EnabledIfEnvtestAvailable> annotated(ExtensionContext context) {
    Optional<AnnotatedElement> element = context.getElement();
    if (element.isPresent()) {
      Optional<EnabledIfEnvtestAvailable> own =
          AnnotationSupport.findAnnotation(element.get(), EnabledIfEnvtestAvailable.class);
      if (own.isPresent()) {
        return own;
      }
    }
    if (context.getTestClass().isEmpty()) {
      return Optional.empty();
    }
    var chain = ScopeResolution.classChain(context);
    for (int i = chain.size() - 1; i >= 0; i--) {
      Optional<EnabledIfEnvtestAvailable> found =
          AnnotationSupport.findAnnotation(chain.get(i), EnabledIfEnvtestAvailable.class);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** The mode of the innermost {@code @ControllerTest(mode)} of the chain that sets one. */
  private static Optional<Mode> annotatedMode(ExtensionContext context) {
    if (context.getTestClass().isEmpty()) {
      return Optional.empty();
    }
    var chain = ScopeResolution.classChain(context);
    for (int i = chain.size() - 1; i >= 0; i--) {
      Optional<ControllerTest> found =
          AnnotationSupport.findAnnotation(chain.get(i), ControllerTest.class);
      if (found.isPresent() && found.get().mode() != Mode.DEFAULT) {
        return Optional.of(found.get().mode());
      }
    }
    return Optional.empty();
  }
}
