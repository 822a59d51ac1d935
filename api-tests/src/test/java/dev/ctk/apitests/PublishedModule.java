package dev.ctk.apitests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One published module as its users see it: the classes of its jar (or classes folder), its public packages (every
 * package whose name has no {@code internal} segment) and what their public signatures may name.
 *
 * @param artifact the artifactId
 * @param marker a class of the module, to find where its classes are
 * @param allowed prefixes of the types a public signature may name besides the JDK and ctk's public packages
 */
record PublishedModule(String artifact, Class<?> marker, List<String> allowed) {

  /** What every module may name: the JDK, and the public packages of ctk's modules. */
  static final List<String> ALWAYS = List.of("java.", "dev.ctk.");

  /** Where the module's classes are: a folder, or a jar. */
  Path location() {
    try {
      return Path.of(marker.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The names of the module's classes, from its folder or jar. */
  List<String> classNames() {
    Path location = location();
    try {
      if (Files.isDirectory(location)) {
        return names(location);
      }
      try (FileSystem jar = FileSystems.newFileSystem(location)) {
        return names(jar.getPath("/"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> names(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.map(f -> root.relativize(f).toString())
          .filter(f -> f.endsWith(".class") && !f.endsWith("module-info.class") && !f.endsWith("package-info.class")
              && !f.startsWith("META-INF"))
          .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.'))
          .sorted().collect(Collectors.toList());
    }
  }

  /** The public types of its public packages, nested ones included when every enclosing type is public. */
  List<Class<?>> publicTypes() {
    return classNames().stream().filter(n -> !isInternal(n)).map(PublishedModule::load)
        .filter(PublishedModule::isApi).sorted(Comparator.comparing(Class::getName)).collect(Collectors.toList());
  }

  static boolean isInternal(String name) {
    return Arrays.asList(name.split("\\.")).contains("internal");
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
        .filter(n -> !n.equals("java.lang.Object") && !n.startsWith("java.lang.Enum<")
            && !n.equals("java.lang.Record"))
        .collect(Collectors.joining(", ")));
    List<String> members = new ArrayList<>();
    for (Field field : type.getDeclaredFields()) {
      if (visible(field.getModifiers()) && !field.isSynthetic()) {
        members.add(owner + "#" + field.getName() + " : " + field.getGenericType().getTypeName());
      }
    }
    for (Constructor<?> constructor : type.getDeclaredConstructors()) {
      if (visible(constructor.getModifiers()) && !constructor.isSynthetic()) {
        members.add(owner + "#<init>" + parameters(constructor));
      }
    }
    for (Method method : type.getDeclaredMethods()) {
      if (visible(method.getModifiers()) && !method.isSynthetic() && !method.isBridge()) {
        Type[] thrown = method.getGenericExceptionTypes();
        members.add(owner + "#" + method.getName() + parameters(method) + " -> "
            + method.getGenericReturnType().getTypeName() + (thrown.length == 0 ? ""
            : " throws " + Arrays.stream(thrown).map(Type::getTypeName).collect(Collectors.joining(", "))));
      }
    }
    members.sort(null);
    lines.addAll(members);
    return lines;
  }

  private static String parameters(Executable executable) {
    return Arrays.stream(executable.getGenericParameterTypes()).map(Type::getTypeName)
        .collect(Collectors.joining(", ", "(", ")"));
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  /** The fully qualified types a signature line names, beyond its owner (type variables and primitives left out). */
  static Set<String> named(String line) {
    Set<String> names = new TreeSet<>();
    int from = line.indexOf('#') >= 0 ? line.indexOf('#') : line.indexOf(' ');
    for (String token : line.substring(from).split("[^A-Za-z0-9_.$]+")) {
      if (token.contains(".") && Character.isLowerCase(token.charAt(0))) {
        names.add(token.replace('$', '.'));
      }
    }
    return names;
  }

  /** Why a type named in a public signature is out of bounds, or {@code null} when it is fine. */
  String problem(String named) {
    if (isInternal(named)) {
      return "an internal type";
    }
    if (Stream.concat(ALWAYS.stream(), allowed.stream()).noneMatch(named::startsWith)) {
      return "a third-party type this module does not expose (allowed: " + allowed + ")";
    }
    return null;
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, PublishedModule.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalStateException("cannot load " + name + ": " + e, e);
    }
  }

  @Override
  public String toString() {
    return artifact;
  }
}
