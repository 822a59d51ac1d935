package dev.ctk.fake.launcher;

import dev.ctk.fake.FakeCluster;
import dev.ctk.fake.Kubectl;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new user's kubectl session ({@link KubectlSession}) against the fake started by the launcher's main, in this JVM.
 * Skipped when kubectl is not on the PATH; {@link KubectlJarIT} plays the same session through the shaded jar.
 */
class KubectlSessionTest {

  @TempDir
  Path dir;

  private FakeCluster cluster;

  @Test
  void everydayCommands_fromCreateToDelete() throws Exception {
    Path kubeconfig = dir.resolve("kubeconfig");
    Kubectl kubectl = Kubectl.onPathOrSkip(kubeconfig);
    cluster = FakeApiServerMain.launch(new String[] {"--port", "0", "--kubeconfig", kubeconfig.toString()},
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err).cluster();

    new KubectlSession(kubectl, dir).play();
  }

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }
}
