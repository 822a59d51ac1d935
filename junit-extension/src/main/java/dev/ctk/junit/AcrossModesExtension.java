package dev.ctk.junit;

import dev.ctk.harness.internal.Resolved;
import dev.ctk.harness.values.Mode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ClassTemplateInvocationContext;
import org.junit.jupiter.api.extension.ClassTemplateInvocationContextProvider;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Provides the invocations of an {@link AcrossModes @AcrossModes} class: one per mode, named {@code
 * [mode] ClassName}, each recording its mode in its own context's store, where {@link
 * ControllerTestExtension} finds it. Refuses a class with no ctk extension, an {@code @AcrossModes}
 * nested in another, a mode set elsewhere in the chain, and a repeated or {@code DEFAULT} mode.
 */
final class AcrossModesExtension implements ClassTemplateInvocationContextProvider {

  @Override
  public boolean supportsClassTemplate(ExtensionContext context) {
    return AnnotationSupport.isAnnotated(context.getRequiredTestClass(), AcrossModes.class);
  }

  @Override
  public Stream<ClassTemplateInvocationContext> provideClassTemplateInvocationContexts(
      ExtensionContext context) {
    Class<?> type = context.getRequiredTestClass();
    String where = "@AcrossModes on " + type.getName();
    for (Class<?> enclosing : context.getEnclosingTestClasses()) {
      if (AnnotationSupport.isAnnotated(enclosing, AcrossModes.class)) {
        throw new ExtensionConfigurationException(where + " is nested in "
            + enclosing.getName() + ", which carries @AcrossModes too: the modes would multiply. "
            + "Fix: keep @AcrossModes on one class of the chain.");
      }
    }
    if (!ScopeResolution.hasControllerTestExtension(context)) {
      throw new ExtensionConfigurationException(where + " chooses modes, but no ctk extension "
          + "runs the tests: neither @ControllerTest nor a @RegisterExtension "
          + "ControllerTestExtension is on " + type.getName() + " or a class enclosing it. Fix: add "
          + "@ControllerTest to the class.");
    }
    Optional<String> explicitMode = ScopeResolution.explicitModeIn(context);
    if (explicitMode.isPresent()) {
      throw new ExtensionConfigurationException(where + " runs the class in several modes, but "
          + explicitMode.get() + " fixes one mode. Fix: remove one of them (list the modes in "
          + "@AcrossModes, or drop @AcrossModes to run in one mode).");
    }
    Mode[] listed = AnnotationSupport.findAnnotation(type, AcrossModes.class).orElseThrow()
        .value();
    List<Mode> modes;
    String source;
    if (listed.length > 0) {
      modes = checked(listed, where);
      source = where;
    } else {
      ControllerTestConfig config = ControllerTestConfig.of(context);
      Resolved<List<Mode>> resolved = config.resolve(ControllerTestConfig.MODES, null, null);
      if (!resolved.source().equals("default")) {
        modes = resolved.value();
        source = where + " (modes from " + resolved.source() + ")";
      } else {
        // fake plus one real mode: the one ctk.mode / CTK_MODE names, else envtest
        Resolved<Mode> single = config.resolve(ControllerTestConfig.MODE, null, null);
        Mode real = single.value().isReal() ? single.value() : Mode.ENVTEST;
        modes = List.of(Mode.FAKE, real);
        source = where + " (default modes " + ControllerTestConfig.modeNames(modes)
            + (single.value().isReal() ? ", the real one from " + single.source() : "") + ")";
      }
    }
    String className = context.getDisplayName();
    return modes.stream().map(mode -> new Invocation(new ModeInvocation(mode, source), className));
  }

  private static List<Mode> checked(Mode[] listed, String where) {
    List<Mode> modes = new ArrayList<>();
    for (Mode mode : listed) {
      if (mode == Mode.DEFAULT || modes.contains(mode)) {
        throw new ExtensionConfigurationException(where + " lists " + Arrays.toString(listed)
            + (mode == Mode.DEFAULT ? ", including DEFAULT, which is not a mode"
                : ", with " + mode + " twice")
            + ". Fix: list each of FAKE, ENVTEST, CONTAINER, EXISTING_CLUSTER at most once, or "
            + "write @AcrossModes alone to take the modes from ctk.modes / CTK_MODES.");
      }
      modes.add(mode);
    }
    return modes;
  }

  /** One invocation: its display name says the mode; it records the mode before it runs. */
  private record Invocation(ModeInvocation mode, String className)
      implements ClassTemplateInvocationContext {

    @Override
    public String getDisplayName(int invocationIndex) {
      return "[" + mode.mode().configName() + "] " + className;
    }

    @Override
    public void prepareInvocation(ExtensionContext context) {
      mode.storeIn(context);
    }
  }
}
