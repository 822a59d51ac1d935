package dev.ctk.envtest;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * A JVM that starts a {@link LocalApiServer} from the binaries in {@code args[0]} and prints
 * {@code pids <etcd> <kube-apiserver>} and {@code workdir <path>}. With {@code args[1]} {@code
 * exit} it then ends normally without closing the server (the shutdown hook must); with {@code
 * wait} it waits to be killed (the watchdog must). Used by {@link LocalRealBinariesTest}.
 */
public final class LocalParentMain {

  private LocalParentMain() {}

  public static void main(String[] args) throws InterruptedException {
    LocalApiServer server =
        LocalApiServer.builder().withAssetsDirectory(Path.of(args[0])).build().start();
    System.out.println(
        "pids "
            + server.processIds().stream().map(String::valueOf).collect(Collectors.joining(" ")));
    System.out.println("workdir " + server.workDirectory());
    System.out.flush();
    if (args[1].equals("exit")) {
      System.exit(0);
    }
    new CountDownLatch(1).await();
  }
}
