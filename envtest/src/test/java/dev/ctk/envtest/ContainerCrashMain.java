package dev.ctk.envtest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Run in a child JVM by {@link ContainerOrphansTest} and {@link ContainerFailuresTest}: starts a
 * container server from the local image of the envtest binaries in {@code args[0]} (with the
 * kube-apiserver flags in the further arguments, and a 5-minute start timeout), prints {@code
 * SERVER:<id>} and waits to be killed.
 */
public final class ContainerCrashMain {

  private ContainerCrashMain() {}

  public static void main(String[] args) throws InterruptedException {
    ContainerApiServer server =
        ContainerApiServer.builder()
            .withLocalImage(Path.of(args[0]))
            .withApiServerFlags(Arrays.copyOfRange(args, 1, args.length))
            .withStartTimeout(Duration.ofMinutes(5))
            .build()
            .start();
    Matcher id = Pattern.compile("ctk-envtest-([0-9a-f]{8})-").matcher(server.description());
    if (!id.find()) {
      throw new IllegalStateException("no server id in " + server.description());
    }
    System.out.println("SERVER:" + id.group(1));
    System.out.flush();
    new CountDownLatch(1).await();
  }
}
