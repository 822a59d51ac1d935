package dev.ctk.junit;

import dev.ctk.fake.FakeCluster;
import dev.ctk.harness.internal.ClusterSpec;
import dev.ctk.harness.internal.Resolved;
import dev.ctk.harness.internal.realserver.ResourceLocation;
import dev.ctk.harness.internal.realserver.ServerConfig;
import dev.ctk.harness.values.Isolation;
import dev.ctk.harness.values.Mode;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.ModifierSupport;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Finds, for any extension context, the class that owns the ctk settings of its test scope, and
 * resolves those settings (once per owner) into a {@link ClusterSpec}.
 *
 * <p>The owner is, for the annotation, the innermost class of the chain (the test class and its
 * enclosing {@code @Nested} parents) that carries {@code @ControllerTest}; for a builder-made
 * extension, the innermost class whose {@code @RegisterExtension} field holds that very extension
 * instance. Without either (a bare {@code @ExtendWith}) it is the outermost test class.
 *
 * <p>The scope root is the context that holds the settings and the per-class cluster: the owner's
 * class context, or, when an {@link AcrossModes @AcrossModes} invocation lies between the context
 * and the owner (the owner is the class template or encloses it), that invocation's context, so
 * that each mode has settings and clusters of its own. {@code @Nested} classes below the root borrow
 * its per-class cluster. The class template's own context (above its invocations) belongs to no mode:
 * callers check {@link #isTemplateContext} first.
 */
final class ScopeResolution {

  /** Where the extension keeps its state. */
  static final Namespace NAMESPACE = Namespace.create(ControllerTestExtension.class);

  private ScopeResolution() {}

  /**
   * A store key: what is stored, for which extension instance (compared by identity), in which
   * context.
   *
   * @param kind {@code "spec"}, {@code "class-scope"} or {@code "method-scope"}
   * @param extension the extension instance
   * @param uniqueId the unique id of the context the value belongs to
   */
  record StoreKey(String kind, ControllerTestExtension extension, String uniqueId) {}

  /**
   * The fake cluster customizer with {@code ctk.fake.kubernetes-version} applied first, so that the user's own
   * {@code withKubernetesVersion} in the customizer wins.
   */
  private static UnaryOperator<FakeCluster.Builder> emulating(ControllerTestConfig config,
      UnaryOperator<FakeCluster.Builder> customizer) {
    String version = config.resolve(ControllerTestConfig.FAKE_KUBERNETES_VERSION, null, null).value();
    return version == null ? customizer : builder -> customizer.apply(builder.withKubernetesVersion(version));
  }

  /** The test class and its enclosing test classes, outermost first. */
  static List<Class<?>> classChain(ExtensionContext context) {
    List<Class<?>> chain = new ArrayList<>(context.getEnclosingTestClasses());
    chain.add(context.getRequiredTestClass());
    return chain;
  }

  /** Whether the context is a class's context (not a method's, not the engine's). */
  static boolean isClassContext(ExtensionContext context) {
    return context.getTestMethod().isEmpty() && context.getTestClass().isPresent();
  }

  /** The nearest class context at or above {@code context}. */
  static ExtensionContext classContext(ExtensionContext context) {
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      if (isClassContext(c)) {
        return c;
      }
    }
    throw new IllegalStateException("No test class context at or above " + context.getUniqueId());
  }

  /** The context of the class enclosing a {@code @Nested} class, from that class's context. */
  static ExtensionContext enclosingClassContext(ExtensionContext classContext) {
    return classContext(classContext.getParent().orElseThrow(() -> new IllegalStateException(
        "No enclosing class context above " + classContext.getUniqueId())));
  }

  /** The class that owns the settings of {@code context} for this extension instance. */
  static Class<?> ownerClass(ExtensionContext context, ControllerTestExtension extension,
      BuilderSettings explicit) {
    List<Class<?>> chain = classChain(context);
    for (int i = chain.size() - 1; i >= 0; i--) {
      Class<?> type = chain.get(i);
      boolean owns = explicit == null
          ? AnnotationSupport.findAnnotation(type, ControllerTest.class).isPresent()
          : registrations(type, context).stream().anyMatch(r -> r.value() == extension);
      if (owns) {
        return type;
      }
    }
    if (explicit != null) {
      for (int i = chain.size() - 1; i >= 0; i--) {
        if (!registrations(chain.get(i), context).isEmpty()) {
          return chain.get(i);
        }
      }
    }
    return chain.get(0);
  }

  /**
   * The scope root of {@code context}: walking up, the first {@code @AcrossModes} invocation context
   * or class context of the owner class, whichever comes first.
   */
  static ExtensionContext scopeRoot(ExtensionContext context, ControllerTestExtension extension,
      BuilderSettings explicit) {
    Class<?> owner = ownerClass(context, extension, explicit);
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      if (ModeInvocation.of(c).isPresent()
          || (isClassContext(c) && c.getRequiredTestClass() == owner)) {
        return c;
      }
    }
    throw new IllegalStateException("No class context for " + owner.getName() + " above "
        + context.getUniqueId());
  }

  /**
   * Whether {@code context} is the context of an {@code @AcrossModes} class template itself (above
   * its invocations), where no mode is chosen yet.
   */
  static boolean isTemplateContext(ExtensionContext context) {
    return isClassContext(context)
        && AnnotationSupport.isAnnotated(context.getRequiredTestClass(), AcrossModes.class)
        && ModeInvocation.of(context).isEmpty();
  }

  /**
   * Whether a ControllerTestExtension runs the tests of {@code context}'s class: {@code
   * @ControllerTest} or a {@code @RegisterExtension} ControllerTestExtension field in the chain.
   */
  static boolean hasControllerTestExtension(ExtensionContext context) {
    for (Class<?> type : classChain(context)) {
      if (AnnotationSupport.isAnnotated(type, ControllerTest.class)
          || !registrations(type, context).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Where a mode is fixed in the chain of {@code context}'s class, for a message: {@code
   * @ControllerTest(mode = ENVTEST) on com.example.FooTest}; empty when nothing fixes one.
   */
  static Optional<String> explicitModeIn(ExtensionContext context) {
    for (Class<?> type : classChain(context)) {
      Optional<ControllerTest> annotation =
          AnnotationSupport.findAnnotation(type, ControllerTest.class);
      if (annotation.isPresent() && annotation.get().mode() != Mode.DEFAULT) {
        return Optional.of("@ControllerTest(mode = " + annotation.get().mode() + ") on "
            + type.getName());
      }
      for (Registration registration : registrations(type, context)) {
        if (registration.value() instanceof ControllerTestExtension extension
            && extension.settings() != null && extension.settings().mode() != null) {
          return Optional.of("ControllerTestExtension.builder().withMode("
              + extension.settings().mode() + ") in "
              + registration.field().getDeclaringClass().getName() + "."
              + registration.field().getName());
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The settings of the scope {@code context} belongs to, resolved once per owner class and kept in
   * the owner's store.
   *
   * @param explicit the builder's settings, or {@code null} when registered by the annotation
   * @throws ExtensionConfigurationException for an invalid value or a missing file
   */
  static ClusterSpec spec(ExtensionContext context, ControllerTestExtension extension,
      BuilderSettings explicit) {
    ExtensionContext root = scopeRoot(context, extension, explicit);
    return root.getStore(NAMESPACE).computeIfAbsent(
        new StoreKey("spec", extension, root.getUniqueId()),
        key -> resolve(root, explicit), ClusterSpec.class);
  }

  /**
   * Fails when a builder-made extension shares the class chain of {@code context} with another
   * registration: {@code @ControllerTest}, or a second {@code @RegisterExtension} field. (Several
   * {@code @ControllerTest} annotations are fine: JUnit registers their extension once.)
   *
   * @throws ExtensionConfigurationException naming both registrations and the fix
   */
  static void checkRegisteredOnce(ExtensionContext context, BuilderSettings explicit) {
    if (explicit == null) {
      return;
    }
    List<Class<?>> chain = classChain(context);
    for (Class<?> type : chain) {
      if (AnnotationSupport.findAnnotation(type, ControllerTest.class).isPresent()) {
        throw new ExtensionConfigurationException("ControllerTestExtension is registered twice for "
            + context.getRequiredTestClass().getName() + ": by @ControllerTest on "
            + type.getName() + " and by a @RegisterExtension field made with "
            + "ControllerTestExtension.builder(). Fix: keep one of them; the builder can do "
            + "everything the annotation does.");
      }
    }
    Set<Field> fields = new LinkedHashSet<>();
    for (Class<?> type : chain) {
      registrations(type, context).forEach(r -> fields.add(r.field()));
    }
    if (fields.size() > 1) {
      throw new ExtensionConfigurationException("ControllerTestExtension is registered twice for "
          + context.getRequiredTestClass().getName() + ": by the @RegisterExtension fields "
          + fields.stream().map(f -> f.getDeclaringClass().getName() + "." + f.getName())
              .collect(Collectors.joining(" and ")) + ". Fix: keep one of them; to give "
          + "@Nested classes settings of their own, register one extension on each @Nested class "
          + "and none on the class that encloses them.");
    }
  }

  /** A {@code @RegisterExtension} field that holds a ControllerTestExtension (value if readable). */
  private record Registration(Field field, Object value) {}

  /** The ControllerTestExtension fields of {@code type} (and its superclasses). */
  private static List<Registration> registrations(Class<?> type, ExtensionContext context) {
    List<Registration> found = new ArrayList<>();
    for (Field field : AnnotationSupport.findAnnotatedFields(type, RegisterExtension.class)) {
      Object value = read(field, type, context);
      if (value instanceof ControllerTestExtension
          || (value == null && ControllerTestExtension.class.isAssignableFrom(field.getType()))) {
        found.add(new Registration(field, value));
      }
    }
    return found.isEmpty() ? Collections.emptyList() : found;
  }

  /** A field's value: static, or from the test instance of {@code type}; null if unreadable. */
  private static Object read(Field field, Class<?> type, ExtensionContext context) {
    Object instance = null;
    if (!ModifierSupport.isStatic(field)) {
      instance = context.getTestInstances().flatMap(all -> all.findInstance(type)).orElse(null);
      if (instance == null) {
        return null;
      }
    }
    return ReflectionSupport.tryToReadFieldValue(field, instance).toOptional().orElse(null);
  }

  private static ClusterSpec resolve(ExtensionContext root, BuilderSettings explicit) {
    ControllerTestConfig config = ControllerTestConfig.of(root);
    Class<?> ownerClass = root.getRequiredTestClass();
    Optional<ModeInvocation> invocation = ModeInvocation.enclosing(root);
    if (explicit != null) {
      if (invocation.isPresent() && explicit.mode() != null) {
        throw new ExtensionConfigurationException(invocation.get().source() + " runs the class "
            + "in several modes, but ControllerTestExtension.builder().withMode("
            + explicit.mode() + ") registered for " + ownerClass.getName() + " fixes one mode. "
            + "Fix: remove one of them (list the modes in @AcrossModes, or drop @AcrossModes to "
            + "run in one mode).");
      }
      Resolved<Mode> mode = invocation
          .map(i -> new Resolved<>(i.mode(), i.source()))
          .orElseGet(() -> config.resolve(ControllerTestConfig.MODE, explicit.mode(),
              "ControllerTestExtension.builder().withMode(..)"));
      return new ClusterSpec(mode, config.serverConfig(mode.value()),
          config.resolve(ControllerTestConfig.ISOLATION, explicit.isolation(),
              "ControllerTestExtension.builder().withIsolation(..)"),
          explicit.crds(), explicit.resources(), explicit.crdObjects(), explicit.objects(),
          emulating(config, explicit.customizer()), explicit.virtualTime(),
          "ControllerTestExtension.builder() registered for " + ownerClass.getName());
    }
    // innermost first: each attribute comes from the innermost annotation that sets it
    List<Class<?>> chain = classChain(root);
    Collections.reverse(chain);
    List<Class<?>> annotated = chain.stream()
        .filter(c -> AnnotationSupport.findAnnotation(c, ControllerTest.class).isPresent())
        .collect(Collectors.toList());
    Resolved<Mode> mode;
    if (invocation.isPresent()) {
      mode = new Resolved<>(invocation.get().mode(), invocation.get().source());
    } else {
      Optional<Class<?>> modeFrom = annotated.stream()
          .filter(c -> annotation(c).mode() != Mode.DEFAULT).findFirst();
      mode = config.resolve(ControllerTestConfig.MODE,
          modeFrom.map(c -> annotation(c).mode()).orElse(null),
          modeFrom.map(c -> "@ControllerTest on " + c.getName()).orElse(null));
    }
    Optional<Class<?>> isolationFrom = annotated.stream()
        .filter(c -> annotation(c).isolation() != Isolation.DEFAULT).findFirst();
    Resolved<Isolation> isolation = config.resolve(ControllerTestConfig.ISOLATION,
        isolationFrom.map(c -> annotation(c).isolation()).orElse(null),
        isolationFrom.map(c -> "@ControllerTest on " + c.getName()).orElse(null));
    List<ResourceLocation> crds = locations(annotated, "crds", ControllerTest::crds);
    List<ResourceLocation> resources =
        locations(annotated, "resources", ControllerTest::resources);
    // virtual time is on when any annotation of the chain turns it on (nested classes inherit it)
    boolean virtualTime = annotated.stream().anyMatch(c -> annotation(c).virtualTime());
    return new ClusterSpec(mode, config.serverConfig(mode.value()), isolation, crds,
        resources, List.of(), List.of(), emulating(config, UnaryOperator.identity()), virtualTime,
        "@ControllerTest on " + ownerClass.getName());
  }

  private static ControllerTest annotation(Class<?> type) {
    return AnnotationSupport.findAnnotation(type, ControllerTest.class).orElseThrow();
  }

  /** The files of the innermost annotation that lists any, parsed and checked. */
  private static List<ResourceLocation> locations(List<Class<?>> annotated, String attribute,
      Function<ControllerTest, String[]> read) {
    List<ResourceLocation> parsed = new ArrayList<>();
    for (Class<?> type : annotated) {
      String[] texts = read.apply(annotation(type));
      if (texts.length == 0) {
        continue;
      }
      ClassLoader loader = ResourceLocation.defaultLoader();
      for (String text : texts) {
        parsed.add(ResourceLocation.parse(text,
            "@ControllerTest(" + attribute + ") on " + type.getName(), loader,
            ExtensionConfigurationException::new));
      }
      break;
    }
    return parsed;
  }
}
