package dev.ctk.fake.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ctk.fake.Kubectl;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded standalone jar ({@code java -jar ctk-fake-apiserver.jar}) in a child JVM, driven by kubectl through a new
 * user's session ({@link KubectlSession}): what the shade plugin packs (protobuf-java, client-java-proto, Vert.x) must
 * work together outside Maven's class path. Run by maven-failsafe-plugin after {@code package}, which passes the
 * jar's path as {@code ctk.fake.jar}; skipped without it (an IDE run) or without kubectl on the PATH.
 */
class KubectlJarIT {

  @TempDir
  Path dir;

  @Test
  void everydayCommands_againstTheShadedJar() throws Exception {
    String jar = System.getProperty("ctk.fake.jar");
    Assumptions.assumeTrue(jar != null && Files.isRegularFile(Path.of(jar)), "the shaded jar is not built here "
        + "(ctk.fake.jar=" + jar + "); run ./mvnw -pl fake-client verify, which builds it and sets ctk.fake.jar");
    Path kubeconfig = dir.resolve("kubeconfig");
    Kubectl kubectl = Kubectl.onPathOrSkip(kubeconfig);
    Path stderr = dir.resolve("stderr.txt");
    Process server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        jar, "--port", "0", "--kubeconfig", kubeconfig.toString()).redirectError(stderr.toFile()).start();
    try (BufferedReader stdout = new BufferedReader(new InputStreamReader(server.getInputStream(),
        StandardCharsets.UTF_8))) {
      String first = CompletableFuture.supplyAsync(() -> readLine(stdout)).get(60, TimeUnit.SECONDS);
      assertThat(first).as("the jar's first line; its stderr: %s", Files.readString(stderr))
          .startsWith("ctk fake API server listening on http://127.0.0.1:");

      new KubectlSession(kubectl, dir).play();
    } finally {
      server.destroy();
      assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("the jar stops on SIGTERM").isTrue();
    }
    List<String> errors = Files.readAllLines(stderr).stream().filter(line -> !line.isBlank()).toList();
    assertThat(errors).as("what the jar printed on stderr").isEmpty();
  }

  private static String readLine(BufferedReader reader) {
    try {
      return reader.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
