package dev.ctk.harness.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.harness.ControllerHarness;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The fence around ctk-harness's public API: the public packages never name an internal or an unexpected
 * third-party type in a public signature, no class of the module imports JUnit, and every change of the public API
 * shows in review as a change of {@code src/test/resources/api/ctk-harness.api} (regenerate it with {@code
 * -Dctk.api.update=true} and commit the diff).
 */
class PublicApiTest {

  /** The packages users may import. */
  static final Set<String> PUBLIC_PACKAGES = Set.of("dev.ctk.harness", "dev.ctk.assertions");

  /** What a public signature may name besides the public packages of ctk's modules. */
  static final List<String> ALLOWED_PREFIXES = List.of("java.", "dev.ctk.controller.", "dev.ctk.fake.",
      "dev.ctk.envtest.", "dev.ctk.harness.", "dev.ctk.assertions.", "io.fabric8.kubernetes.api.model.",
      "io.fabric8.kubernetes.client.", "org.assertj.core.");

  static final Path SNAPSHOT = Path.of("src/test/resources/api/ctk-harness.api");

  @Test
  void should_name_no_internal_or_unexpected_type_in_a_public_signature() {
    // WHEN
    List<String> leaks = new ArrayList<>();
    for (Class<?> type : publicTypes()) {
      for (String line : signatures(type)) {
        for (String named : named(line)) {
          if (named.contains(".internal.") || ALLOWED_PREFIXES.stream().noneMatch(named::startsWith)) {
            leaks.add(line + "  names " + named);
          }
        }
      }
    }
    // THEN
    assertThat(leaks).as("public signatures of ctk-harness that name an internal or unexpected type: make the "
        + "type public API, or keep it out of the signature").isEmpty();
  }

  @Test
  void should_match_the_committed_public_api_snapshot() throws IOException {
    // GIVEN
    String current = publicTypes().stream().flatMap(t -> signatures(t).stream())
        .collect(Collectors.joining("\n", "", "\n"));
    // WHEN
    if (Boolean.getBoolean("ctk.api.update")) {
      Files.createDirectories(SNAPSHOT.getParent());
      Files.writeString(SNAPSHOT, current, StandardCharsets.UTF_8);
    }
    // THEN
    assertThat(current).as("the public API of ctk-harness changed; if that is meant, run this test with "
        + "-Dctk.api.update=true and commit " + SNAPSHOT)
        .isEqualTo(Files.readString(SNAPSHOT, StandardCharsets.UTF_8));
  }

  @Test
  void should_not_depend_on_junit_anywhere_in_the_module() {
    // GIVEN
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    StringWriter out = new StringWriter();
    // WHEN
    int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-filter:none",
        classes().toString());
    // THEN
    assertThat(exit).as(out.toString()).isZero();
    assertThat(out.toString().lines().filter(l -> l.contains("-> org.junit"))).as("classes of ctk-harness that use "
        + "JUnit: the harness is the framework-free core; JUnit belongs in ctk-junit").isEmpty();
  }

  /** Every public type of the public packages, by name. */
  static List<Class<?>> publicTypes() {
    Path root = classes();
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(f -> f.toString().endsWith(".class"))
          .map(f -> root.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", ""))
          .filter(name -> PUBLIC_PACKAGES.contains(name.substring(0, name.lastIndexOf('.'))))
          .map(PublicApiTest::load)
          .filter(PublicApiTest::isApi)
          .sorted((a, b) -> a.getName().compareTo(b.getName()))
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean isApi(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
      if (!Modifier.isPublic(c.getModifiers()) || c.isAnonymousClass() || c.isSynthetic()) {
        return false;
      }
    }
    return true;
  }

  /** One line per public or protected member: {@code Class#member(Type, Type) -> Type}, generics written out. */
  static List<String> signatures(Class<?> type) {
    List<String> lines = new ArrayList<>();
    String owner = type.getName();
    lines.add(owner + " : " + Stream.concat(Stream.ofNullable(type.getGenericSuperclass()),
        Arrays.stream(type.getGenericInterfaces())).map(Type::getTypeName)
        .filter(n -> !n.equals("java.lang.Object") && !n.startsWith("java.lang.Enum") && !n.startsWith("java.lang.Record"))
        .collect(Collectors.joining(", ")));
    for (Field field : type.getDeclaredFields()) {
      if (visible(field.getModifiers()) && !field.isSynthetic()) {
        lines.add(owner + "#" + field.getName() + " : " + field.getGenericType().getTypeName());
      }
    }
    for (Constructor<?> constructor : type.getDeclaredConstructors()) {
      if (visible(constructor.getModifiers()) && !constructor.isSynthetic()) {
        lines.add(owner + "#<init>" + parameters(constructor));
      }
    }
    for (Method method : type.getDeclaredMethods()) {
      if (visible(method.getModifiers()) && !method.isSynthetic() && !method.isBridge()) {
        lines.add(owner + "#" + method.getName() + parameters(method) + " -> "
            + method.getGenericReturnType().getTypeName()
            + (method.getGenericExceptionTypes().length == 0 ? "" : " throws " + Arrays.stream(
                method.getGenericExceptionTypes()).map(Type::getTypeName).collect(Collectors.joining(", "))));
      }
    }
    lines.subList(1, lines.size()).sort(null);
    return lines;
  }

  private static String parameters(Executable executable) {
    return Arrays.stream(executable.getGenericParameterTypes()).map(Type::getTypeName)
        .collect(Collectors.joining(", ", "(", ")"));
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  /** The fully qualified type names a signature line names (type variables and primitives left out). */
  static Set<String> named(String line) {
    Set<String> names = new TreeSet<>();
    String types = line.substring(line.indexOf(line.contains("#") ? '#' : ' '));
    for (String token : types.split("[^A-Za-z0-9_.$]+")) {
      if (token.contains(".") && Character.isLowerCase(token.charAt(0))) {
        names.add(token.replace('$', '.'));
      }
    }
    return names;
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, PublicApiTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Path classes() {
    try {
      return Path.of(ControllerHarness.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
