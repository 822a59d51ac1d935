package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.envtest.values.EnvtestUnavailableException;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Testcontainers is optional: loaded through a class loader that lacks it (and docker-java),
 * ContainerApiServer still loads and says which dependency to add.
 */
class ContainerWithoutTestcontainersTest {

  private static final String MESSAGE =
      "Container mode needs Testcontainers, which is not on the classpath (class"
          + " org.testcontainers.DockerClientFactory not found; ctk-envtest declares it optional). Add the"
          + " dependency org.testcontainers:testcontainers with test scope (the ctk-parent BOM pins its"
          + " version), or run with -Dctk.mode=envtest for local binaries.";

  @Test
  void builder_and_k3s_fail_with_the_dependency_to_add() throws Exception {
    try (URLClassLoader withoutTestcontainers = classLoaderWithout("testcontainers", "docker-java")) {
      Class<?> server = withoutTestcontainers.loadClass(ContainerApiServer.class.getName());

      for (String factory : List.of("builder", "k3s")) {
        InvocationTargetException failure = null;
        try {
          server.getMethod(factory).invoke(null);
        } catch (InvocationTargetException e) {
          failure = e;
        }
        assertThat(failure).as(factory + "()").isNotNull();
        assertThat(failure.getCause().getClass().getName()).isEqualTo(EnvtestUnavailableException.class.getName());
        assertThat(failure.getCause()).hasMessage(MESSAGE);
      }
      assertThat(server.getMethod("unavailableReason").invoke(null)).isEqualTo(Optional.of(MESSAGE));
    }
  }

  private static URLClassLoader classLoaderWithout(String... parts) throws MalformedURLException {
    String classPath = System.getProperty("java.class.path");
    assertThat(classPath).as("the test class path").contains("testcontainers");
    List<URL> urls = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      boolean excluded = false;
      for (String part : parts) {
        excluded |= Path.of(entry).getFileName().toString().contains(part);
      }
      if (!excluded && !entry.isBlank()) {
        urls.add(Path.of(entry).toUri().toURL());
      }
    }
    return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }
}
