package dev.ctk.envtest.internal;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A JVM that starts two scripts through {@link ChildProcess} (args: the script that stops on TERM,
 * the script that ignores TERM, a folder for logs), prints {@code pids <first> <second>} and then
 * waits to be killed; {@link ChildProcessTest} kills it with SIGKILL.
 */
public final class WatchdogParentMain {

  private WatchdogParentMain() {}

  public static void main(String[] args) throws InterruptedException {
    Path logs = Path.of(args[2]);
    ChildProcess polite = ChildProcess.start("polite", List.of(args[0]), logs.resolve("a.log"), 5);
    ChildProcess stubborn =
        ChildProcess.start("stubborn", List.of(args[1]), logs.resolve("b.log"), 5);
    System.out.println("pids " + polite.pid() + " " + stubborn.pid());
    System.out.flush();
    new CountDownLatch(1).await();
  }
}
